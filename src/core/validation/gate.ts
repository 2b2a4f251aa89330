/**
 * The check every sending command does first: load the adverts, apply config, validate. When
 * anything is wrong, the run stops before a request is sent with every error in an
 * InvalidAdvertsError (exit 3); the command shows them in the format asked for.
 */
import { loadAdverts } from '../adverts/load.js';
import { placeFindings } from '../adverts/locations.js';
import { findingFromProblem, sortFindings } from '../errors/findings.js';
import { findingsFromTree } from './tree-findings.js';
import { checkAdvert, isValid, type AdvertSettings, type CheckedAdvert } from './check.js';
import { invalidAdverts } from './invalid-adverts.js';
import type { AdvertMode, ValidateOptions } from './validate.js';

export interface GateInputs {
  cwd: string;
  /** Opened only when a path is `-`. */
  stdin: () => AsyncIterable<Buffer | string>;
  settings: AdvertSettings;
  /** Stops the reading of many files (Ctrl-C): a CancelledError. */
  signal?: AbortSignal;
}

export async function loadValidAdverts(
  inputs: GateInputs,
  paths: readonly string[],
  mode: AdvertMode,
  { exclude, ...options }: ValidateOptions & { /** Absolute paths a folder walk leaves out (the sync state). */ exclude?: ReadonlySet<string> } = {},
): Promise<CheckedAdvert[]> {
  const config = inputs.settings;
  const loaded = await loadAdverts(paths, {
    cwd: inputs.cwd,
    stdin: inputs.stdin,
    uniqueReferences: mode === 'create',
    exclude,
    ...(inputs.signal ? { signal: inputs.signal } : {}),
  });
  const checked = loaded.adverts.map((a) => checkAdvert(a, config, mode, options));
  const findings = sortFindings([
    ...loaded.problems.map(findingFromProblem),
    ...checked.flatMap((c) => placeFindings(c.source, findingsFromTree(c.tree, c.source, c.reference, { value: c.validated, constants: config.constants }))),
  ]);
  if (findings.length === 0) return checked;
  // An advert whose reference another took first cannot be published: it counts as invalid.
  const duplicates = new Set(loaded.problems.filter((p) => p.code === 'duplicate_reference').map((p) => `${p.file}:${p.position?.line}:${p.position?.column}`));
  const duplicated = (c: CheckedAdvert) => {
    const at = c.source.locate(['reference']);
    return duplicates.has(`${c.source.file}:${at.line}:${at.column}`);
  };
  throw invalidAdverts(findings, {
    adverts: checked.length,
    invalid: checked.filter((c) => !isValid(c) || (duplicates.size > 0 && duplicated(c))).length,
    problems: loaded.problems,
  });
}
