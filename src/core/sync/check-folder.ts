/**
 * The first step of a sync: every advert of the folder is checked as its file is read (the lean
 * pipeline of `validate`, on every core), and only what the plan needs is kept of it: reference,
 * file, document and content hash. Payloads are read again as they are sent (reread.ts), so memory
 * does not grow with the adverts' text. Any finding stops the run before anything is sent.
 */
import { findAdvertFiles, type FoundFile } from '../adverts/files.js';
import { findingFromProblem, sortFindings } from '../errors/findings.js';
import { checkFiles } from '../validation/check-files.js';
import type { AdvertSettings } from '../validation/check.js';
import { invalidAdverts } from '../validation/invalid-adverts.js';
import type { ValidateOptions } from '../validation/validate.js';
import { runPool } from '../util/pool.js';
import { Planner, type Plan, type PlannedChange } from './plan.js';
import type { AdvertRecord } from './state.js';

export interface FolderCheckInputs {
  cwd: string;
  env: NodeJS.ProcessEnv;
  settings: AdvertSettings;
  options: ValidateOptions;
  /** Absolute paths the walk leaves out (the sync state). */
  exclude: ReadonlySet<string>;
}

/** The valid adverts of a folder, in file order, as digests. */
export interface FolderDigests {
  files: readonly FoundFile[];
  /** Flattened per advert: file index, reference, document, hash. */
  digests: (string | number)[];
}

// Sync reads a folder: `-` is never among its files.
const noStdin = async function* (): AsyncGenerator<string> {};

/** Checks a folder; throws InvalidAdvertsError (with every finding) when anything is wrong. */
export function checkFolder(dir: string, inputs: FolderCheckInputs): Promise<FolderDigests> {
  return checkPaths([dir], inputs);
}

/** Checks files and folders (not stdin) as checkFolder does; `publish` of many files keeps digests too. */
export async function checkPaths(paths: readonly string[], inputs: FolderCheckInputs): Promise<FolderDigests> {
  const found = await findAdvertFiles(paths, inputs.cwd, inputs.exclude);
  const digests: (string | number)[] = [];
  const checked = await checkFiles(found.files, noStdin, { settings: inputs.settings, mode: 'create', options: inputs.options, records: false, digests: true }, inputs.env, (index, c) => {
    const d = c.digests ?? [];
    for (let i = 0; i < d.length; i += 3) digests.push(index, d[i]!, d[i + 1]!, d[i + 2]!);
  });
  const problems = found.problems.concat(checked.problems);
  const findings = sortFindings(found.problems.map(findingFromProblem).concat(checked.findings));
  if (findings.length > 0) throw invalidAdverts(findings, { adverts: checked.adverts, invalid: checked.invalid, problems });
  return { files: found.files, digests };
}

export interface DigestPlanOptions {
  prune: boolean;
  force: boolean;
  /** The file as the state records it (relative to the synced folder), from the file as shown. */
  fileOf: (shown: string) => string;
  /** The field hashes of an update's advert (read again: digests keep none). */
  fieldsOf: (change: PlannedChange) => Promise<Record<string, string>>;
  /** Files read at once for updates' fields. */
  concurrency: number;
}

/** The plan of a checked folder against what the state recorded. */
export async function planFolder(folder: FolderDigests, recorded: ReadonlyMap<string, AdvertRecord>, options: DigestPlanOptions): Promise<Plan> {
  const planner = new Planner(recorded, { prune: options.prune, force: options.force, keepAdverts: false });
  const { files, digests } = folder;
  for (let i = 0; i < digests.length; i += 4) {
    const source = files[digests[i] as number]!.display;
    planner.add({ source, file: options.fileOf(source), reference: digests[i + 1] as string, document: digests[i + 2] as number, hash: digests[i + 3] as string });
  }
  // Only the updates name their fields: a folder where nothing changed is not read again.
  await runPool(planner.unfilled(), options.concurrency, async (change) => planner.fill(change, await options.fieldsOf(change)));
  return planner.finish();
}
