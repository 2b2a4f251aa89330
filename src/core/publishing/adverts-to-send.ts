/**
 * The check before `publish` and `create` send many files: each advert is checked as its file is
 * read (bulk/check-paths.ts: validate's pipeline, on every core, as a sync does) and only its place and hash are kept;
 * it is read again when it is sent. Memory then stays flat with the number of adverts (loading them
 * all first took 497 MiB for 10,000 realistic adverts). Any finding stops the run before anything
 * is sent, as loadValidAdverts does.
 */
import type { CheckedAdvert } from '../validation/check.js';
import { loadValidAdverts, type GateInputs } from '../validation/gate.js';
import { stoppedBeforeSending } from '../errors/failures.js';
import type { ValidateOptions } from '../validation/validate.js';
import { checkPaths } from '../bulk/check-paths.js';
import { advertReader } from '../bulk/reread.js';
import { checkFiles, type CheckSettings } from '../bulk/run-files.js';
import { MAX_FILE_BYTES } from '../adverts/files.js';
import { PART_CHARS } from '../adverts/load.js';
import { sortFindings } from '../errors/findings.js';
import { invalidAdverts } from '../validation/invalid-adverts.js';
import { STDIN_NAME } from '../util/stdin-name.js';

/** An advert to send: where it is and what it was when checked. */
export interface AdvertToSend {
  /** The file as the user named it. */
  source: string;
  document: number;
  reference: string;
  hash: string;
  /** Held only for adverts read from stdin, which cannot be read again. */
  advert?: CheckedAdvert;
}

export interface AdvertsToSend {
  adverts: AdvertToSend[];
  /** The advert as checked; throws InvalidInputError when its file changed since. */
  read: (advert: AdvertToSend) => Promise<CheckedAdvert>;
}

/** Files read at once are few; the last few files' adverts are kept for multi-document files. */
const RECENT_FILES = 8;

/** `inputs.signal` stops the check of many files (Ctrl-C): it throws a CancelledError. */
export async function checkAdvertsToSend(
  inputs: GateInputs & { env: NodeJS.ProcessEnv },
  paths: readonly string[],
  options: ValidateOptions = {},
): Promise<AdvertsToSend> {
  if (paths.includes('-')) {
    // Stdin cannot be read twice: its adverts (and those of the other paths) are held.
    const stdin = inputs.signal ? await largeStdinChecked(inputs, inputs.signal, options) : inputs.stdin;
    const held = await loadValidAdverts({ ...inputs, stdin }, paths, 'create', options).catch(stoppedBeforeSending);
    return {
      adverts: held.map((advert) => ({ source: advert.source.file, document: advert.source.index, reference: advert.reference!, hash: '', advert })),
      read: async (a) => a.advert!,
    };
  }
  const checked = await checkPaths(paths, {
    cwd: inputs.cwd,
    env: inputs.env,
    settings: inputs.settings,
    options,
    exclude: new Set(),
    ...(inputs.signal ? { signal: inputs.signal } : {}),
  });
  const adverts = checked.adverts.map((a): AdvertToSend => ({
    source: checked.files[a.file]!.display,
    reference: a.reference,
    document: a.document,
    hash: a.hash,
  }));
  const reader = advertReader(inputs.cwd, inputs.settings, options, RECENT_FILES, {
    since: 'it was checked',
    hint: 'run the command again: it checks the files as they are now',
  });
  return { adverts, read: (a) => (a.advert ? Promise.resolve(a.advert) : reader(a)) };
}

/**
 * Reads stdin, and checks it first when it is as large as a file checked on a worker thread
 * (bulk/run-files.ts): this thread, busy with it for seconds, would not hear a signal. Its findings
 * stop the run there (those of the other paths are not looked for); valid, it is checked again with
 * the other paths, in parts between which a signal is heard. Returns stdin as read, to read again.
 */
async function largeStdinChecked(
  inputs: GateInputs & { env: NodeJS.ProcessEnv },
  signal: AbortSignal,
  options: ValidateOptions,
): Promise<() => AsyncIterable<Buffer>> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read no further than the size a file may have: the reader says it is too large.
  for await (const chunk of inputs.stdin()) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    if ((size += bytes.length) > MAX_FILE_BYTES) break;
  }
  const bytes = Buffer.concat(chunks);
  const replay = () =>
    (async function* () {
      yield bytes;
    })();
  if (bytes.length <= PART_CHARS) return replay;
  const settings: CheckSettings = { settings: inputs.settings, mode: 'create', options, records: false };
  const checked = await checkFiles([{ display: STDIN_NAME }], replay, settings, { env: inputs.env, signal }).catch(stoppedBeforeSending);
  const findings = sortFindings(checked.findings);
  if (findings.length > 0) throw invalidAdverts(findings, { adverts: checked.adverts, invalid: checked.invalid, problems: checked.problems });
  return replay;
}
