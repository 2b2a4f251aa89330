/**
 * The check before a sync or a publish of many files sends anything: every advert of the files and
 * folders is checked as its file is read (validate's pipeline, run-files.ts, on every core), and
 * only a digest of each valid advert is kept (reference, file, document, hashes). Payloads are read
 * again as they are sent (reread.ts), so memory does not grow with the adverts' text. Any finding
 * stops the run before anything is sent.
 */
import { findAdvertFiles, type FoundFile } from '../adverts/files.js';
import { stoppedBeforeSending } from '../errors/failures.js';
import { findingFromProblem, sortFindings } from '../errors/findings.js';
import type { AdvertSettings } from '../validation/check.js';
import { invalidAdverts } from '../validation/invalid-adverts.js';
import type { ValidateOptions } from '../validation/validate.js';
import type { AdvertDigest, CheckSettings, TextHashing } from './check-file.js';
import { checkFiles, type WorkBeside } from './run-files.js';

export type { AdvertDigest, TextHashing } from './check-file.js';

export interface PathsCheckInputs {
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

/** A valid advert of the files checked: its digest and the index of its file in `files`. */
export interface FileAdvertDigest extends AdvertDigest {
  file: number;
}

/** The valid adverts of the files checked, in file order, as digests. */
export interface CheckedDigests {
  files: readonly FoundFile[];
  adverts: FileAdvertDigest[];
}

// Sync and publish read files and folders: `-` (stdin) is never among them.
const noStdin = async function* (): AsyncGenerator<string> {};

/** Checks a folder; throws InvalidAdvertsError (with every finding) when anything is wrong. */
export function checkFolder(dir: string, inputs: PathsCheckInputs): Promise<CheckedDigests> {
  return checkPaths([dir], inputs);
}

/** Checks files and folders (not stdin) as checkFolder does. */
export async function checkPaths(paths: readonly string[], inputs: PathsCheckInputs): Promise<CheckedDigests> {
  const found = await findAdvertFiles(paths, inputs.cwd, inputs.exclude);
  const adverts: FileAdvertDigest[] = [];
  const settings: CheckSettings = {
    settings: inputs.settings,
    mode: 'create',
    options: inputs.options,
    records: false,
    digests: true,
    ...(inputs.texts ? { texts: { ...inputs.texts } } : {}),
  };
  // Sync and publish check before they send: a check stopped (Ctrl-C) says that nothing went out.
  const checked = await checkFiles(found.files, noStdin, settings, {
    env: inputs.env,
    onFile: (file, c) => {
      for (const d of c.digests ?? [])
        adverts.push({
          file,
          reference: d.reference,
          document: d.document,
          hash: d.hash,
          textHash: d.textHash,
          ...(d.dates ? { dates: d.dates } : {}),
          ...(d.group === undefined ? {} : { group: d.group }),
        });
    },
    ...(inputs.beside ? { beside: inputs.beside } : {}),
    ...(inputs.signal ? { signal: inputs.signal } : {}),
  }).catch(stoppedBeforeSending);
  const problems = found.problems.concat(checked.problems);
  const findings = sortFindings(found.problems.map(findingFromProblem).concat(checked.findings));
  if (findings.length > 0) throw invalidAdverts(findings, { adverts: checked.adverts, invalid: checked.invalid, problems });
  return { files: found.files, adverts };
}
