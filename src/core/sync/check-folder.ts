/**
 * The first step of a sync: every advert of the folder is checked as its file is read (the lean
 * pipeline of `validate`, on every core), and only what the plan needs is kept of it: reference,
 * file, document and content hash. Payloads are read again as they are sent (reread.ts), so memory
 * does not grow with the adverts' text. Any finding stops the run before anything is sent.
 */
import { findAdvertFiles, type FoundFile } from '../adverts/files.js';
import { stoppedBeforeSending } from '../errors/failures.js';
import { findingFromProblem, sortFindings } from '../errors/findings.js';
import { checkFiles, type TextHashing, type WorkBeside } from '../validation/check-files.js';
import type { AdvertSettings } from '../validation/check.js';
import { invalidAdverts } from '../validation/invalid-adverts.js';
import type { ValidateOptions } from '../validation/validate.js';
import { runPool } from '../util/pool.js';
import { Planner, type AdvertDigest, type Plan, type PlannedChange } from './plan.js';
import { AdvertSetHash } from './state-check.js';
import type { AdvertRecord } from './state.js';

export interface FolderCheckInputs {
  cwd: string;
  env: NodeJS.ProcessEnv;
  settings: AdvertSettings;
  options: ValidateOptions;
  /** Absolute paths the walk leaves out (the sync state). */
  exclude: ReadonlySet<string>;
  /** Hash each file's text as well (a sync records it), and maybe only that. */
  texts?: TextHashing;
  /** Work this thread does while the workers start (see WorkBeside). */
  beside?: WorkBeside;
  /** Stops the check (Ctrl-C): it throws a CancelledError. */
  signal?: AbortSignal;
}

/** The valid adverts of a folder, in file order, as digests. */
export interface FolderDigests {
  files: readonly FoundFile[];
  /** Flattened per advert (DIGEST_STRIDE values): file index, reference, document, content hash, text hash, group (see FileCheck.digests). */
  digests: (string | number)[];
}

export const DIGEST_STRIDE = 6;

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
  const settings = { settings: inputs.settings, mode: 'create' as const, options: inputs.options, records: false, digests: true, ...(inputs.texts ? { texts: { ...inputs.texts } } : {}) };
  // Sync and publish check before they send: a check stopped (Ctrl-C) says that nothing went out.
  const checked = await checkFiles(found.files, noStdin, settings, {
    env: inputs.env,
    onFile: (index, c) => {
      const d = c.digests ?? [];
      for (let i = 0; i < d.length; i += DIGEST_STRIDE - 1) digests.push(index, d[i]!, d[i + 1]!, d[i + 2]!, d[i + 3]!, d[i + 4]!);
    },
    ...(inputs.beside ? { beside: inputs.beside } : {}),
    ...(inputs.signal ? { signal: inputs.signal } : {}),
  }).catch(stoppedBeforeSending);
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
  /** The content hash of an advert whose digest has none, and whose text is not its record's: read again. */
  hashOf: (digest: AdvertDigest) => Promise<string>;
  /** Files read at once for updates' fields. */
  concurrency: number;
}

/**
 * The plan of a folder whose adverts sum (AdvertSetHash of reference, file, document, text hash)
 * to `summary`, the state's sum of its records: every advert unchanged and where it was. Undefined
 * when the sums differ, or an advert has no text hash (a file read in parts).
 */
export function unchangedPlan(folder: FolderDigests, fileOf: (shown: string) => string, summary: string): Plan | undefined {
  const { files, digests } = folder;
  const sum = new AdvertSetHash();
  const changes: PlannedChange[] = [];
  for (let i = 0; i < digests.length; i += DIGEST_STRIDE) {
    const textHash = digests[i + 4] as string;
    if (textHash === '') return undefined;
    const reference = digests[i + 1] as string;
    const file = fileOf(files[digests[i] as number]!.display);
    sum.add(reference, file, digests[i + 2] as number, textHash);
    const group = digests[i + 5] as string;
    changes.push(group === '' ? { action: 'unchanged', reference, file } : { action: 'unchanged', reference, file, group });
  }
  if (sum.toString() !== summary) return undefined;
  return { changes, counts: { create: 0, update: 0, unchanged: changes.length, delete: 0, orphan: 0 } };
}

/** The plan of a checked folder against what the state recorded. */
export async function planFolder(folder: FolderDigests, recorded: ReadonlyMap<string, AdvertRecord>, options: DigestPlanOptions): Promise<Plan> {
  const planner = new Planner(recorded, { prune: options.prune, force: options.force, keepAdverts: false });
  const { files, digests } = folder;
  const digestAt = (i: number): AdvertDigest => {
    const source = files[digests[i] as number]!.display;
    const group = digests[i + 5] as string;
    return { source, file: options.fileOf(source), reference: digests[i + 1] as string, document: digests[i + 2] as number, hash: digests[i + 3] as string, textHash: digests[i + 4] as string, ...(group === '' ? {} : { group }) };
  };
  // Left out for its text: when that is not the text of this advert's record (new, or edited), its
  // payload is hashed after all, read again; then every advert is planned in file order.
  const unhashed = new Map<number, AdvertDigest>();
  for (let i = 0; i < digests.length; i += DIGEST_STRIDE) {
    if (digests[i + 3] === '' && !planner.knowsText(digests[i + 1] as string, digests[i + 2] as number, digests[i + 4] as string)) unhashed.set(i, digestAt(i));
  }
  await runPool([...unhashed.values()], options.concurrency, async (digest) => void (digest.hash = await options.hashOf(digest)));
  for (let i = 0; i < digests.length; i += DIGEST_STRIDE) planner.add(unhashed.get(i) ?? digestAt(i));
  // Only the updates name their fields: a folder where nothing changed is not read again.
  await runPool(planner.unfilled(), options.concurrency, async (change) => planner.fill(change, await options.fieldsOf(change)));
  return planner.finish();
}
