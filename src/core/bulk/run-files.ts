/**
 * Running the check over many files (validate, publish and sync share it): which thread checks which
 * file, in what order the outcomes are merged, when the run stops (Ctrl-C), and the duplicate
 * references across files. Checking one file is check-file.ts; the workers run worker.ts. Memory
 * stays flat however many files there are: each file's outcome is merged in file order and dropped,
 * so the output does not depend on which thread finished first.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { FoundFile } from '../adverts/files.js';
import type { LoadProblem } from '../adverts/types.js';
import { findingFromProblem, type Finding } from '../errors/findings.js';
import { keepHeapNearLive } from '../util/heap.js';
import { builtScript, builtScriptOptions } from '../util/built-script.js';
import { plural } from '../util/plural.js';
import { CancelledError } from '../errors/failures.js';
import { checkFile, flat, loadHashing, type AdvertRecord, type CheckLargeFile, type CheckSettings, type FileCheck } from './check-file.js';
import { ReferenceIndex } from './duplicate-references.js';
import { nextTurn } from '../util/next-turn.js';
import { monotonicMs } from '../util/clock.js';

export type { AdvertRecord, CheckSettings, FileCheck } from './check-file.js';

/**
 * Synchronous work this thread does while the workers start checking (a sync reads its state),
 * with how many files to hand the workers first so that they are not left waiting meanwhile.
 */
export interface WorkBeside {
  run: () => void;
  files: number;
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
  /** Findings that do not make an advert invalid (FileCheck.warnings), in file order. */
  warnings: Finding[];
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

export async function checkFiles(
  files: Iterable<FoundFile>,
  stdin: () => AsyncIterable<Buffer | string>,
  s: CheckSettings,
  how: CheckRun = {},
): Promise<FilesChecked> {
  const { env = process.env, onFile, signal } = how;
  if (s.digests) await loadHashing();
  const result: FilesChecked = { files: 0, adverts: 0, invalid: 0, findings: [], problems: [], warnings: [], ...(s.records ? { records: [] } : {}) };
  const references = new ReferenceIndex(files, stdin, s);
  const merge = (found: FoundFile, index: number, c: FileCheck) => {
    result.files++;
    result.adverts += c.adverts;
    result.invalid += c.invalid;
    for (const f of c.findings) result.findings.push(f);
    if (c.warnings) for (const f of c.warnings) result.warnings.push(f);
    for (const code of c.problems) result.problems.push({ file: flat(found.display), message: '', code });
    if (c.records) for (const r of c.records) result.records!.push(r);
    for (const use of c.references) references.add(use, found, index);
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

type Merge = (found: FoundFile, index: number, c: FileCheck) => void;

/** Files this thread checks between two looks at the event loop (where a Ctrl-C is heard). */
const FILES_BETWEEN_YIELDS = 256;
/** ... or milliseconds, whichever comes first: a few slow files must not keep a signal waiting. */
const MS_BETWEEN_YIELDS = 50;

/** A look at the event loop when this thread has checked long enough since the last one. */
function yielder(): (files: number) => Promise<void> | undefined {
  let since = monotonicMs();
  return (files) => {
    const now = monotonicMs();
    if (files % FILES_BETWEEN_YIELDS !== FILES_BETWEEN_YIELDS - 1 && now - since < MS_BETWEEN_YIELDS) return undefined;
    since = now;
    return nextTurn();
  };
}

/** Thrown by checkLargeFileOnWorker when the run is stopped while a large file is checked. */
class StoppedCheck extends Error {}

/**
 * A file too large to be read at once is checked on a worker of its own when the run can be
 * stopped: its check can take seconds (the yaml package reads about 1 MB a second), during which
 * this thread could not hear a signal; a worker is ended at once, mid-file. Undefined from sources
 * (no built worker): such files are then checked here.
 */
function checkLargeFileOnWorker(s: CheckSettings, signal: AbortSignal | undefined): (() => CheckLargeFile | undefined) | undefined {
  if (!signal) return undefined;
  // Made when a large file comes: whether the worker is built is a look on disk most runs need not pay.
  let made: { check: CheckLargeFile | undefined } | undefined;
  return () => (made ??= { check: largeFileCheck(s, signal) }).check;
}

function largeFileCheck(s: CheckSettings, signal: AbortSignal): CheckLargeFile | undefined {
  const script = workerScript();
  if (!script) return undefined;
  return async (found, stdinText) => {
    const { Worker } = await import('node:worker_threads');
    const worker = new Worker(script, { ...builtScriptOptions(), workerData: s satisfies CheckSettings });
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<FileCheck>((resolve, reject) => {
        onAbort = () => reject(new StoppedCheck());
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        worker.on('message', (reply: WorkerReply) => resolve(reply.checks[0]!));
        worker.on('error', reject);
        worker.postMessage({
          batch: 0,
          files: [found.path === undefined ? { display: found.display } : { display: found.display, path: found.path }],
          ...(stdinText === undefined ? {} : { stdin: stdinText }),
        } satisfies WorkerRequest);
      });
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
      void worker.terminate();
    }
  };
}

async function run(
  files: Iterable<FoundFile>,
  stdin: () => AsyncIterable<Buffer | string>,
  s: CheckSettings,
  env: NodeJS.ProcessEnv,
  merge: Merge,
  { beside, signal, trace }: CheckRun,
): Promise<void> {
  const iterator = files[Symbol.iterator]();
  // The first files found decide: a small run is checked on this thread, a large one shared with workers.
  const head: FoundFile[] = [];
  const parallel = workerCount(env) > 0;
  const threshold = parallel ? workerThreshold(env) : 0;
  let ended = false;
  while (!ended && head.length < threshold) {
    const next = iterator.next();
    if (next.done) ended = true;
    else head.push(next.value);
  }
  // Asked only of a run long enough to share (from sources there is no built worker: one thread then).
  const script = parallel && !ended ? workerScript() : undefined;
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
  // No thread reads the files ahead of this one. One did (a ring of 256 shared slots, a bundle of its
  // own, four files) for runs of 2,000 to 11,999 files on two cores, measured at 0.54 s -> 0.46 s on
  // 10,000 files on a quiet machine. Measured again on the shared 2-core machine (load 15 to 18,
  // medians of 7 alternating runs): with it 2.76 / 3.73 / 2.02 s wall and 280 / 550 / 600 ms CPU at
  // 2,000 / 10,000 / 11,999 files, without 1.99 / 2.73 / 1.41 s and 230 / 460 / 500 ms: when the
  // second core is not free the thread costs more than it saves, so it went.
  const large = checkLargeFileOnWorker(s, signal);
  const turn = yielder();
  try {
    beside?.run();
    for (let found = next(), i = 0; found; found = next(), i++) {
      let check: FileCheck;
      try {
        check = await checkFile(found, stdin, s, large);
      } catch (error) {
        if (error instanceof StoppedCheck) return;
        throw error;
      }
      merge(found, i, check);
      // Checking a file settles its promises at once, so the signals' handlers run only when this
      // thread lets the event loop turn (a large file read in parts lets it turn between them).
      if (signal) await turn(i);
      if (signal?.aborted) return;
    }
  } finally {
    trace?.('checked on one thread');
  }
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
  /** Stdin's text, read by the main thread, when the one file is stdin (checkLargeFileOnWorker). */
  stdin?: string;
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
      for (let found = ended ? undefined : next(); found; found = files.length < BATCH ? next() : undefined)
        files.push(found.path === undefined ? { display: found.display } : { display: found.display, path: found.path });
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
      // The settings whole (plain data): a setting is never left out on the way to a worker.
      const worker = new Worker(script, { ...builtScriptOptions(), workerData: s satisfies CheckSettings });
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
    const large = checkLargeFileOnWorker(s, signal);
    const turn = yielder();
    void (async () => {
      for (let work = mine.shift() ?? take(); work && failed === undefined && !stopped; work = mine.shift() ?? take()) {
        const checks: FileCheck[] = [];
        for (const [i, f] of work.files.entries()) {
          if (stopped) break;
          try {
            checks.push(await checkFile(f, stdin, s, large));
          } catch (error) {
            if (!(error instanceof StoppedCheck)) throw error;
            break;
          }
          // A signal must be heard within the batch too.
          if (signal) await turn(i);
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
