/**
 * Validation that keeps only what a run reports: each file is read, parsed and checked, its
 * findings located while its text is still in memory, and then everything else of it is dropped.
 * Memory stays flat however many files there are; a run of many files spreads them over worker
 * threads (validate-worker.ts) and merges the outcomes in file order, so the output does not
 * depend on which thread finished first.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { PART_CHARS, readFileAtOnce, readFileInParts } from '../adverts/load.js';
import { ReadAhead } from '../adverts/read-ahead.js';
import type { FoundFile } from '../adverts/files.js';
import type { AdvertSource, LoadProblem } from '../adverts/types.js';
import type { ReadResult } from '../adverts/yaml-reader.js';
import { expansionOf, placeFindings } from '../adverts/locations.js';
import { findingFromProblem, findingsFromTree, type Finding } from '../errors/findings.js';
import { keepHeapNearLive } from '../util/heap.js';
import { builtScript, builtScriptOptions } from '../util/built-script.js';
import { plural } from '../util/plural.js';
import { CancelledError } from '../errors/failures.js';
import type { ErrorTree } from '../errors/tree.js';
import { checkAdvert, isValid, type AdvertSettings } from './check.js';
import { FirstFileByHash } from './first-file-by-hash.js';
import type { AdvertMode, ValidateOptions } from './validate.js';
import { nextTurn } from '../util/next-turn.js';

export interface CheckSettings {
  settings: AdvertSettings;
  mode: AdvertMode;
  options: ValidateOptions;
  /** Keep a record per advert (for --json); off, a valid advert leaves nothing behind. */
  records: boolean;
  /** Keep each valid advert's reference, document, content hash and text hash (what a sync plans with). */
  digests?: boolean;
  /** With `digests`: hash each file's text too (see textHashOf), and skip the content hash of a text the state knows. */
  texts?: TextHashing;
}

export interface TextHashing {
  /** textHashBasis of the run's settings. */
  basis: string;
  /**
   * Leave out the content hash of an advert read from a whole file: the plan finds most adverts
   * unchanged from the text hash alone, and hashes the payloads of the others (read again, see
   * contentHashReader).
   */
  textOnly: boolean;
}

/**
 * Synchronous work this thread does while the workers start checking (a sync reads its state),
 * with how many files to hand the workers first so that they are not left waiting meanwhile.
 */
export interface WorkBeside {
  run: () => void;
  files: number;
}

/** One advert as --json lists it. */
export interface AdvertRecord {
  file: string;
  document: number;
  /** The line the advert starts on. */
  line: number;
  reference: string | null;
  valid: boolean;
  errors: ErrorTree;
}

/** What one file leaves behind. */
export interface FileCheck {
  adverts: number;
  invalid: number;
  findings: Finding[];
  /** Problem codes of the file (unreadable, YAML syntax, ...); duplicates are found across files later. */
  problems: string[];
  /** References with their place and whether their advert is valid (1 or 0), flattened (reference, line, column, valid, ...), for the duplicate check. */
  references: (string | number)[];
  records?: AdvertRecord[];
  /**
   * With `digests`: reference, document, content hash, text hash and group (the file's reference of
   * an advert for one of several places, else '') of each valid advert with a reference, flattened. The content hash is '' when left out (`texts.textOnly`); the text hash is
   * '' when the file was read in parts (too large to hash whole) or texts are not hashed.
   */
  digests?: (string | number)[];
}

/** `readAhead`: the file's bytes, read by another thread (see read-ahead.ts). */
export async function checkFile(found: FoundFile, stdin: () => AsyncIterable<Buffer | string>, s: CheckSettings, readAhead?: Buffer): Promise<FileCheck> {
  const out: FileCheck = { adverts: 0, invalid: 0, findings: [], problems: [], references: [] };
  if (s.records) out.records = [];
  const add = (part: ReadResult) => {
    for (const p of part.problems) {
      out.findings.push(findingFromProblem(p));
      out.problems.push(p.code);
    }
    out.adverts += part.adverts.length;
    for (const source of part.adverts) checkOne(source, s, out, textHash);
  };
  const texts = s.digests ? s.texts : undefined;
  // A file too large to be read whole (read in parts) has no text hash: its bytes are not hashed.
  const hashText = texts && ((bytes: Uint8Array) => (bytes.length > 4 * PART_CHARS ? '' : hashing!.textHashOf(texts.basis, bytes)));
  const once = found.path === undefined ? undefined : readFileAtOnce(found.display, found.path, hashText, readAhead);
  // A file read whole has one text hash for its documents; one read in parts has none.
  let textHash = '';
  if (once && 'result' in once) textHash = once.digest ?? '';
  else if (once && 'text' in once.read && once.read.text.length <= PART_CHARS) textHash = once.read.digest ?? '';
  if (once && 'result' in once) add(once.result);
  // A large multi-document file comes in parts: each is checked and dropped before the next.
  else for await (const part of readFileInParts(found, stdin, once?.read)) add(part);
  return out;
}

/** Sync's hashes, loaded only by runs that ask for digests: node:crypto costs every other run start-up time. */
let hashing: typeof import('../sync/hash.js') | undefined;

/** Loads the hashes before checking with `digests` (checkFiles does it; a worker does it on start). */
export async function loadHashing(): Promise<void> {
  hashing ??= await import('../sync/hash.js');
}

function checkOne(source: AdvertSource, s: CheckSettings, out: FileCheck, textHash: string): void {
  const c = checkAdvert(source, s.settings, s.mode, s.options);
  const valid = isValid(c);
  const reference = c.reference === undefined ? undefined : flat(c.reference);
  if (!valid) {
    out.invalid++;
    for (const f of placeFindings(source, findingsFromTree(c.tree, c.source, reference, { value: c.payload, constants: s.settings.constants }))) out.findings.push(f);
  }
  if (s.mode === 'create' && typeof source.value.reference === 'string' && source.value.reference.trim() !== '') {
    const at = source.locate(['reference']);
    out.references.push(flat(source.value.reference), at.line, at.column, valid ? 1 : 0);
  }
  out.records?.push({ file: source.file, document: source.index, line: source.locate([]).line, reference: reference ?? null, valid, errors: c.tree });
  if (s.digests && valid && reference !== undefined) {
    const textOnly = textHash !== '' && s.texts!.textOnly;
    (out.digests ??= []).push(reference, source.index, textOnly ? '' : hashing!.hashOf(c.payload), textHash, expansionOf(source)?.group ?? '');
  }
}

/** A string that shares no memory with the text it was sliced from. */
function flat(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

export interface FilesChecked {
  /** Files checked (stdin counts as one). */
  files: number;
  adverts: number;
  invalid: number;
  findings: Finding[];
  /** Every problem's code, duplicates included, and the files they are in. */
  problems: LoadProblem[];
  records?: AdvertRecord[];
}

/** Below this many files one thread is quicker than starting a worker; also from where a run is large for the heap. */
export const WORKER_THRESHOLD = 1000;
/**
 * On two cores, the same from this many files. Each thread's V8 compiles the hot code again, and
 * there that compiling takes the very core a worker would use: measured, one thread checks 2,000
 * files in 0.31 s and 5,000 in 0.46 s, against 0.39 s and 0.57 s with a worker; at 10,000 they are
 * even, at 15,000 the worker gains (0.99 s against 1.04 s).
 */
export const TWO_CORE_WORKER_THRESHOLD = 12_000;
const BATCH = 64;
/**
 * Files from which a run checked on this thread alone has them read ahead on another (see
 * read-ahead.ts); below, starting that thread costs about what it saves.
 */
export const READ_AHEAD_FROM = 2000;

/**
 * Checks every file; findings of different files keep the files' order (sort them for output).
 * `files` may be a walk that finds them as they are asked for (AdvertFileWalk): only the files in
 * flight are held. To name the first use of a repeated reference it is iterated again, so it must
 * give the same files in the same order each time (an array, or a walk of folders left alone).
 */
export interface CheckRun {
  env?: NodeJS.ProcessEnv;
  /** Sees what each file left behind, in file order, before it is dropped. */
  onFile?: (index: number, c: FileCheck) => void;
  beside?: WorkBeside;
  /** Stops the run (Ctrl-C): no file is started after it, and checkFiles throws a CancelledError. */
  signal?: AbortSignal;
  /** Says how the run used threads (--verbose). */
  trace?: (line: string) => void;
}

export async function checkFiles(files: Iterable<FoundFile>, stdin: () => AsyncIterable<Buffer | string>, s: CheckSettings, how: CheckRun = {}): Promise<FilesChecked> {
  const { env = process.env, onFile, signal } = how;
  if (s.digests) await loadHashing();
  const result: FilesChecked = { files: 0, adverts: 0, invalid: 0, findings: [], problems: [], ...(s.records ? { records: [] } : {}) };
  const references = new ReferenceIndex(files, stdin, s);
  const merge = (found: FoundFile, index: number, c: FileCheck) => {
    result.files++;
    result.adverts += c.adverts;
    result.invalid += c.invalid;
    for (const f of c.findings) result.findings.push(f);
    for (const code of c.problems) result.problems.push({ file: found.display, message: '', code });
    if (c.records) for (const r of c.records) result.records!.push(r);
    for (let i = 0; i < c.references.length; i += 4) references.add(c.references[i] as string, found, index, c.references[i + 1] as number, c.references[i + 2] as number, c.references[i + 3] === 1);
    onFile?.(index, c);
  };
  await run(files, stdin, s, env, merge, how);
  // The last files settled without a turn of the event loop: a Ctrl-C during them is heard here.
  if (signal) await nextTurn();
  if (signal?.aborted) throw new CancelledError(`stopped after checking ${plural(result.files, 'file')}; the rest were not checked`);
  for (const problem of await references.duplicates()) {
    result.problems.push(problem);
    result.findings.push(findingFromProblem(problem));
  }
  // An advert whose reference another took first cannot be published: it is invalid, whatever else it holds.
  result.invalid += references.validDuplicates;
  return result;
}

interface Place {
  file: number;
  /** The file as shown. */
  display: string;
  line: number;
  column: number;
}

/**
 * Finds references used twice while keeping a number per advert, not its reference: a million
 * adverts cost a few megabytes. A reference whose hash was seen before is a suspect; the file that
 * had the hash first is found again (by its number) and read again (rarely: only for duplicates and
 * hash collisions) to tell.
 */
class ReferenceIndex {
  /** Hash of a reference -> the file where that hash came first. */
  private readonly byHash = new FirstFileByHash();
  /** References known exactly: those of stdin (which cannot be read again) and resolved suspects. */
  private readonly exact = new Map<string, Place>();
  private readonly suspects: (Place & { reference: string; earlier: number; valid: boolean })[] = [];
  /** Duplicates found by duplicates() whose advert is otherwise valid (the others are counted invalid already). */
  validDuplicates = 0;

  constructor(
    private readonly files: Iterable<FoundFile>,
    private readonly stdin: () => AsyncIterable<Buffer | string>,
    private readonly settings: CheckSettings,
  ) {}

  add(reference: string, found: FoundFile, file: number, line: number, column: number, valid: boolean): void {
    const earlier = this.byHash.firstOrAdd(hashOf(reference), secondHashOf(reference), file);
    if (earlier !== undefined) {
      this.suspects.push({ reference, file, display: found.display, line, column, earlier, valid });
      return;
    }
    if (found.path === undefined) this.exact.set(reference, { file, display: found.display, line, column });
  }

  /** The duplicates, in file order. */
  async duplicates(): Promise<LoadProblem[]> {
    const problems: LoadProblem[] = [];
    const earlierFiles = this.suspects.length === 0 ? new Map<number, FoundFile>() : this.find(new Set(this.suspects.map((s) => s.earlier)));
    const reread = new Map<number, Map<string, Place>>();
    for (const suspect of this.suspects) {
      let first = this.exact.get(suspect.reference);
      if (first === undefined) {
        let places = reread.get(suspect.earlier);
        if (!places) reread.set(suspect.earlier, (places = await this.placesIn(suspect.earlier, earlierFiles.get(suspect.earlier))));
        first = places.get(suspect.reference);
        // Not in the earlier file (two references with one hash), or that is this very advert: it comes first.
        if (first === undefined || (first.file === suspect.file && first.line === suspect.line && first.column === suspect.column)) first = suspect;
        this.exact.set(suspect.reference, first);
        if (first === suspect) continue;
      }
      if (suspect.valid) this.validDuplicates++;
      problems.push({
        file: suspect.display,
        position: { line: suspect.line, column: suspect.column },
        message: `reference ${JSON.stringify(suspect.reference)} is already used by ${first.display}:${first.line}:${first.column}; each advert needs its own`,
        code: 'duplicate_reference',
      });
    }
    return problems;
  }

  /** The files with these numbers, found by going through the files again. */
  private find(wanted: ReadonlySet<number>): Map<number, FoundFile> {
    const found = new Map<number, FoundFile>();
    let last = 0;
    for (const n of wanted) last = Math.max(last, n);
    let index = 0;
    try {
      for (const file of this.files) {
        if (wanted.has(index)) found.set(index, file);
        if (index++ === last) break;
      }
    } catch {
      // The folders changed since (an argument is gone): the files not found are not named.
    }
    return found;
  }

  /** Each reference of a file (read again) at its first place there. */
  private async placesIn(file: number, found: FoundFile | undefined): Promise<Map<string, Place>> {
    const places = new Map<string, Place>();
    if (found?.path === undefined) return places;
    const c = await checkFile(found, this.stdin, { ...this.settings, records: false });
    for (let i = 0; i < c.references.length; i += 4) {
      const reference = c.references[i] as string;
      if (!places.has(reference)) places.set(reference, { file, display: found.display, line: c.references[i + 1] as number, column: c.references[i + 2] as number });
    }
    return places;
  }
}

/** FNV-1a, cut to 30 bits (see FirstFileByHash). */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/** A second hash, independent of hashOf (another multiplier, mixed at the end), for FirstFileByHash. */
function secondHashOf(text: string): number {
  let h = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) h = Math.imul(h + text.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & 0x3fffffff;
}

type Merge = (found: FoundFile, index: number, c: FileCheck) => void;

/** Files this thread checks between two looks at the event loop (where a Ctrl-C is heard). */
const FILES_BETWEEN_YIELDS = 256;

async function run(files: Iterable<FoundFile>, stdin: () => AsyncIterable<Buffer | string>, s: CheckSettings, env: NodeJS.ProcessEnv, merge: Merge, { beside, signal, trace }: CheckRun): Promise<void> {
  const iterator = files[Symbol.iterator]();
  // The first files found decide: a small run is checked on this thread, a large one shared with
  // workers; a run checked here whose files are all found by then has them read ahead.
  const head: FoundFile[] = [];
  const script = workerCount(env) > 0 ? workerScript() : undefined;
  const aheadFrom = readAheadFrom(env, script !== undefined);
  const threshold = script ? workerThreshold(env) : aheadFrom === undefined ? 0 : TWO_CORE_WORKER_THRESHOLD;
  let ended = false;
  while (!ended && head.length < threshold) {
    const next = iterator.next();
    if (next.done) ended = true;
    else head.push(next.value);
  }
  // A run this long keeps V8's heap near what is live (see heap.ts); so does one on this thread below.
  if (head.length >= WORKER_THRESHOLD) keepHeapNearLive();
  let index = 0;
  const next = (): FoundFile | undefined => {
    if (index < head.length) return head[index++];
    head.length = 0;
    const n = ended ? undefined : iterator.next();
    if (!n || n.done) {
      ended = true;
      return undefined;
    }
    if (++index === WORKER_THRESHOLD) keepHeapNearLive();
    return n.value;
  };
  if (script && !ended) {
    trace?.(`checking on this thread and ${plural(workerCount(env), 'worker thread')}`);
    await inParallel(next, stdin, s, script, workerCount(env), merge, beside, signal);
    return;
  }
  const known = head.length;
  const ahead = ended && aheadFrom !== undefined && known >= aheadFrom ? await ReadAhead.start(head.map((f) => f.path ?? '')) : undefined;
  try {
    beside?.run();
    for (let found = next(), i = 0; found; found = next(), i++) {
      merge(found, i, await checkFile(found, stdin, s, found.path === undefined ? undefined : ahead?.bytesOf(i)));
      ahead?.release();
      // Checking a file settles its promises at once, so the signals' handlers run only when this
      // thread lets the event loop turn (a large file read in parts lets it turn between them).
      if (signal && i % FILES_BETWEEN_YIELDS === FILES_BETWEEN_YIELDS - 1) await nextTurn();
      if (signal?.aborted) return;
    }
  } finally {
    if (ahead) trace?.(`checked on one thread; ${ahead.taken} of ${plural(known, 'file')} read ahead on another`);
    else trace?.('checked on one thread');
    void ahead?.stop();
  }
}

/**
 * Files from which a run checked on this thread has them read ahead on another (undefined: never).
 * JOBS_READ_AHEAD=0 turns it off, =1 on for any run checked on one thread (even with JOBS_WORKERS=0);
 * otherwise it needs a second core (`threads`: workers may be used) and READ_AHEAD_FROM files.
 */
function readAheadFrom(env: NodeJS.ProcessEnv, threads: boolean): number | undefined {
  if (env.JOBS_READ_AHEAD === '0') return undefined;
  if (env.JOBS_READ_AHEAD === '1') return 1;
  return threads ? READ_AHEAD_FROM : undefined;
}

/** Files from which a run is shared with workers: JOBS_WORKERS, set, shares from WORKER_THRESHOLD. */
function workerThreshold(env: NodeJS.ProcessEnv): number {
  return env.JOBS_WORKERS === undefined && availableParallelism() <= 2 ? TWO_CORE_WORKER_THRESHOLD : WORKER_THRESHOLD;
}

/** One worker per core beyond the one this thread uses; JOBS_WORKERS sets the number (0: none). */
function workerCount(env: NodeJS.ProcessEnv): number {
  const set = env.JOBS_WORKERS;
  if (set !== undefined && /^\d+$/.test(set)) return Math.min(Number(set), 16);
  return Math.max(0, Math.min(availableParallelism(), 8) - 1);
}

/** The built worker beside the bundle; absent when running from sources (tests): one thread then. */
const workerScript = () => builtScript('validate-worker.cjs');

export interface WorkerRequest {
  batch: number;
  files: FoundFile[];
}
export interface WorkerReply {
  batch: number;
  checks: FileCheck[];
}

/**
 * This thread and the workers take batches of files from one queue, filled by the walk as it goes;
 * outcomes are merged in file order as soon as every earlier batch is in, so only the batches in
 * flight are held.
 */
async function inParallel(
  next: () => FoundFile | undefined,
  stdin: () => AsyncIterable<Buffer | string>,
  s: CheckSettings,
  script: string,
  count: number,
  merge: Merge,
  beside?: WorkBeside,
  /** Once aborted, no batch is handed out and the run ends at once: what is in flight is dropped. */
  signal?: AbortSignal,
): Promise<void> {
  const { Worker } = await import('node:worker_threads');
  // Batches each worker is given ahead: two, so that it never waits for this thread to hand it
  // more; while this thread does work beside, enough for that time.
  let ahead = beside ? Math.max(2, Math.ceil(beside.files / count / BATCH)) : 2;
  /** Batch number -> its files, until merged. */
  const inFlight = new Map<number, FoundFile[]>();
  const done = new Map<number, FileCheck[]>();
  let taken = 0;
  let merged = 0;
  let ended = false;
  let failed: unknown;
  // Plain objects: a found file may be a class whose strings are made on demand (a worker gets data only).
  const take = (): { batch: number; files: FoundFile[] } | undefined => {
    const files: FoundFile[] = [];
    try {
      for (let found = ended ? undefined : next(); found; found = files.length < BATCH ? next() : undefined) files.push(found.path === undefined ? { display: found.display } : { display: found.display, path: found.path });
    } catch (error) {
      // A usage error the walk meets on its way (an argument that is not there).
      failed ??= error;
    }
    if (files.length < BATCH) ended = true;
    if (files.length === 0 || failed !== undefined) return undefined;
    inFlight.set(taken, files);
    return { batch: taken++, files };
  };
  const flush = () => {
    for (let checks = done.get(merged); checks; checks = done.get(merged)) {
      const files = inFlight.get(merged)!;
      done.delete(merged);
      inFlight.delete(merged);
      checks.forEach((c, i) => merge(files[i]!, merged * BATCH + i, c));
      merged++;
    }
  };
  const pool: Worker[] = [];
  /** Batches only this thread can check. */
  const mine: { batch: number; files: FoundFile[] }[] = [];
  let stopped = false;
  let onAbort: (() => void) | undefined;
  const finished = new Promise<void>((resolve, reject) => {
    const settle = () => {
      if (failed !== undefined) reject(failed);
      else if (stopped || (ended && merged === taken)) resolve();
    };
    // Stopped (Ctrl-C): the batches in flight are not waited for (a sync hands out many at first).
    onAbort = () => {
      stopped = ended = true;
      settle();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    /** Batches each worker holds. */
    const held = new Map<Worker, number>();
    const send = (worker: Worker) => {
      while ((held.get(worker) ?? 0) < ahead) {
        let work = take();
        // Stdin can be read by this thread only.
        while (work?.files.some((f) => f.path === undefined)) {
          mine.push(work);
          work = take();
        }
        if (!work) return;
        worker.postMessage(work satisfies WorkerRequest);
        held.set(worker, (held.get(worker) ?? 0) + 1);
      }
    };
    for (let i = 0; i < count; i++) {
      const worker = new Worker(script, { ...builtScriptOptions(), workerData: { settings: s.settings, mode: s.mode, options: s.options, records: s.records, digests: s.digests, texts: s.texts } satisfies CheckSettings });
      pool.push(worker);
      worker.on('message', (reply: WorkerReply) => {
        if (stopped) return;
        held.set(worker, held.get(worker)! - 1);
        done.set(reply.batch, reply.checks);
        flush();
        send(worker);
        settle();
      });
      worker.on('error', (error) => {
        failed = error;
        settle();
      });
      send(worker);
    }
    if (beside) {
      try {
        beside.run();
      } catch (error) {
        failed ??= error;
      }
      ahead = 2;
    }
    // This thread takes its share too, yielding between batches so worker replies are merged.
    void (async () => {
      for (let work = mine.shift() ?? take(); work && failed === undefined && !stopped; work = mine.shift() ?? take()) {
        const checks: FileCheck[] = [];
        for (const f of work.files) {
          if (stopped) break;
          checks.push(await checkFile(f, stdin, s));
        }
        if (stopped) break;
        done.set(work.batch, checks);
        flush();
        await nextTurn();
      }
      settle();
    })().catch((error: unknown) => {
      failed = error;
      settle();
    });
  });
  try {
    await finished;
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
