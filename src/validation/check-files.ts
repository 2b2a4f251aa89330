/**
 * Validation that keeps only what a run reports: each file is read, parsed and checked, its
 * findings located while its text is still in memory, and then everything else of it is dropped.
 * Memory stays flat however many files there are; a run of many files spreads them over worker
 * threads (validate-worker.ts) and merges the outcomes in file order, so the output does not
 * depend on which thread finished first.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { readFileInParts } from '../adverts/load.js';
import type { FoundFile } from '../adverts/files.js';
import type { AdvertSource, LoadProblem } from '../adverts/types.js';
import { findingFromProblem, findingsFromTree, type Finding } from '../errors/findings.js';
import type { ErrorTree } from '../errors/tree.js';
import { hashOf as contentHash } from '../sync/hash.js';
import { checkAdvert, isValid, type AdvertSettings } from './check.js';
import type { AdvertMode, ValidateOptions } from './validate.js';

export interface CheckSettings {
  settings: AdvertSettings;
  mode: AdvertMode;
  options: ValidateOptions;
  /** Keep a record per advert (for --json); off, a valid advert leaves nothing behind. */
  records: boolean;
  /** Keep each valid advert's reference, document and content hash (what a sync plans with). */
  digests?: boolean;
}

/** One advert as --json lists it. */
export interface AdvertRecord {
  file: string;
  document: number;
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
  /** References with their place, flattened (reference, line, column, ...), for the duplicate check. */
  references: (string | number)[];
  records?: AdvertRecord[];
  /** With `digests`: reference, document, content hash of each valid advert with a reference, flattened. */
  digests?: (string | number)[];
}

export async function checkFile(found: FoundFile, stdin: () => AsyncIterable<Buffer | string>, s: CheckSettings): Promise<FileCheck> {
  const out: FileCheck = { adverts: 0, invalid: 0, findings: [], problems: [], references: [] };
  if (s.records) out.records = [];
  // A large multi-document file comes in parts: each is checked and dropped before the next.
  for await (const part of readFileInParts(found, stdin)) {
    for (const p of part.problems) {
      out.findings.push(findingFromProblem(p));
      out.problems.push(p.code);
    }
    out.adverts += part.adverts.length;
    for (const source of part.adverts) checkOne(source, s, out);
  }
  return out;
}

function checkOne(source: AdvertSource, s: CheckSettings, out: FileCheck): void {
  const c = checkAdvert(source, s.settings, s.mode, s.options);
  const valid = isValid(c);
  const reference = c.reference === undefined ? undefined : flat(c.reference);
  if (!valid) {
    out.invalid++;
    for (const f of findingsFromTree(c.tree, c.source, reference, { value: c.payload, constants: s.settings.constants })) out.findings.push(f);
  }
  if (s.mode === 'create' && typeof source.value.reference === 'string' && source.value.reference.trim() !== '') {
    const at = source.locate(['reference']);
    out.references.push(flat(source.value.reference), at.line, at.column);
  }
  out.records?.push({ file: source.file, document: source.index, reference: reference ?? null, valid, errors: c.tree });
  if (s.digests && valid && reference !== undefined) (out.digests ??= []).push(reference, source.index, contentHash(c.payload));
}

/** A string that shares no memory with the text it was sliced from. */
function flat(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

export interface FilesChecked {
  adverts: number;
  invalid: number;
  findings: Finding[];
  /** Every problem's code, duplicates included, and the files they are in. */
  problems: LoadProblem[];
  records?: AdvertRecord[];
}

/** Below this many files one thread is quicker than starting a worker. */
export const WORKER_THRESHOLD = 1000;
const BATCH = 64;

/**
 * Checks every file; findings of different files keep the files' order (sort them for output).
 * `onFile` sees what each file left behind, in file order, before it is dropped.
 */
export async function checkFiles(
  files: readonly FoundFile[],
  stdin: () => AsyncIterable<Buffer | string>,
  s: CheckSettings,
  env: NodeJS.ProcessEnv = process.env,
  onFile?: (index: number, c: FileCheck) => void,
): Promise<FilesChecked> {
  const result: FilesChecked = { adverts: 0, invalid: 0, findings: [], problems: [], ...(s.records ? { records: [] } : {}) };
  const references = new ReferenceIndex(files, stdin, s);
  const merge = (index: number, c: FileCheck) => {
    const file = files[index]!.display;
    result.adverts += c.adverts;
    result.invalid += c.invalid;
    for (const f of c.findings) result.findings.push(f);
    for (const code of c.problems) result.problems.push({ file, message: '', code });
    if (c.records) for (const r of c.records) result.records!.push(r);
    for (let i = 0; i < c.references.length; i += 3) references.add(c.references[i] as string, index, c.references[i + 1] as number, c.references[i + 2] as number);
    onFile?.(index, c);
  };
  await run(files, stdin, s, env, merge);
  for (const problem of await references.duplicates()) {
    result.problems.push(problem);
    result.findings.push(findingFromProblem(problem));
  }
  return result;
}

interface Place {
  file: number;
  line: number;
  column: number;
}

/**
 * Finds references used twice while keeping a number per advert, not its reference: a million
 * adverts cost a few megabytes. A reference whose hash was seen before is a suspect; the file that
 * had the hash first is read again (rarely: only for duplicates and hash collisions) to tell.
 */
class ReferenceIndex {
  /** Hash of a reference -> the file where that hash came first. */
  private readonly byHash = new Map<number, number>();
  /** References known exactly: those of stdin (which cannot be read again) and resolved suspects. */
  private readonly exact = new Map<string, Place>();
  private readonly suspects: (Place & { reference: string; earlier: number })[] = [];

  constructor(
    private readonly files: readonly FoundFile[],
    private readonly stdin: () => AsyncIterable<Buffer | string>,
    private readonly settings: CheckSettings,
  ) {}

  add(reference: string, file: number, line: number, column: number): void {
    const hash = hashOf(reference);
    const earlier = this.byHash.get(hash);
    if (earlier !== undefined) {
      this.suspects.push({ reference, file, line, column, earlier });
      return;
    }
    this.byHash.set(hash, file);
    if (this.files[file]!.path === undefined) this.exact.set(reference, { file, line, column });
  }

  /** The duplicates, in file order. */
  async duplicates(): Promise<LoadProblem[]> {
    const problems: LoadProblem[] = [];
    const reread = new Map<number, Map<string, Place>>();
    for (const suspect of this.suspects) {
      let first = this.exact.get(suspect.reference);
      if (first === undefined) {
        let places = reread.get(suspect.earlier);
        if (!places) reread.set(suspect.earlier, (places = await this.placesIn(suspect.earlier)));
        first = places.get(suspect.reference);
        // Not in the earlier file (two references with one hash), or that is this very advert: it comes first.
        if (first === undefined || (first.file === suspect.file && first.line === suspect.line && first.column === suspect.column)) first = suspect;
        this.exact.set(suspect.reference, first);
        if (first === suspect) continue;
      }
      problems.push({
        file: this.files[suspect.file]!.display,
        position: { line: suspect.line, column: suspect.column },
        message: `reference ${JSON.stringify(suspect.reference)} is already used by ${this.files[first.file]!.display}:${first.line}:${first.column}; each advert needs its own`,
        code: 'duplicate_reference',
      });
    }
    return problems;
  }

  /** Each reference of a file (read again) at its first place there. */
  private async placesIn(file: number): Promise<Map<string, Place>> {
    const places = new Map<string, Place>();
    if (this.files[file]!.path === undefined) return places;
    const c = await checkFile(this.files[file]!, this.stdin, { ...this.settings, records: false });
    for (let i = 0; i < c.references.length; i += 3) {
      const reference = c.references[i] as string;
      if (!places.has(reference)) places.set(reference, { file, line: c.references[i + 1] as number, column: c.references[i + 2] as number });
    }
    return places;
  }
}

/** FNV-1a, cut to a small integer (a number V8 keeps unboxed as a Map key). */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

async function run(files: readonly FoundFile[], stdin: () => AsyncIterable<Buffer | string>, s: CheckSettings, env: NodeJS.ProcessEnv, merge: (index: number, c: FileCheck) => void): Promise<void> {
  const workers = files.length >= WORKER_THRESHOLD ? workerCount(env) : 0;
  const script = workers > 0 ? workerScript() : undefined;
  if (!script) {
    for (let i = 0; i < files.length; i++) merge(i, await checkFile(files[i]!, stdin, s));
    return;
  }
  await inParallel(files, stdin, s, script, workers, merge);
}

/** One worker per core beyond the one this thread uses; JOBS_WORKERS sets the number (0: none). */
function workerCount(env: NodeJS.ProcessEnv): number {
  const set = env.JOBS_WORKERS;
  if (set !== undefined && /^\d+$/.test(set)) return Math.min(Number(set), 16);
  return Math.max(0, Math.min(availableParallelism(), 8) - 1);
}

/** The built worker beside the bundle; absent when running from sources (tests): one thread then. */
function workerScript(): string | undefined {
  try {
    const path = fileURLToPath(new URL('./validate-worker.cjs', import.meta.url));
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export interface WorkerRequest {
  batch: number;
  files: FoundFile[];
}
export interface WorkerReply {
  batch: number;
  checks: FileCheck[];
}

/**
 * This thread and the workers take batches of files from one queue; outcomes are merged in file
 * order as soon as every earlier batch is in, so only the batches in flight are held.
 */
async function inParallel(
  files: readonly FoundFile[],
  stdin: () => AsyncIterable<Buffer | string>,
  s: CheckSettings,
  script: string,
  count: number,
  merge: (index: number, c: FileCheck) => void,
): Promise<void> {
  const { Worker } = await import('node:worker_threads');
  const batches = Math.ceil(files.length / BATCH);
  const done = new Map<number, FileCheck[]>();
  let taken = 0;
  let merged = 0;
  const take = () => (taken < batches ? taken++ : -1);
  const flush = () => {
    for (let checks = done.get(merged); checks; checks = done.get(merged)) {
      done.delete(merged);
      checks.forEach((c, i) => merge(merged * BATCH + i, c));
      merged++;
    }
  };
  // Plain objects: a found file may be a class whose strings are made on demand (a worker gets data only).
  const slice = (batch: number) => files.slice(batch * BATCH, (batch + 1) * BATCH).map((f): FoundFile => (f.path === undefined ? { display: f.display } : { display: f.display, path: f.path }));
  const pool: Worker[] = [];
  let failed: unknown;
  const finished = new Promise<void>((resolve, reject) => {
    const settle = () => {
      if (failed !== undefined) reject(failed);
      else if (merged === batches) resolve();
    };
    const send = (worker: Worker) => {
      const batch = take();
      if (batch >= 0) worker.postMessage({ batch, files: slice(batch) } satisfies WorkerRequest);
    };
    for (let i = 0; i < count; i++) {
      const worker = new Worker(script, { workerData: { settings: s.settings, mode: s.mode, options: s.options, records: s.records, digests: s.digests } });
      pool.push(worker);
      worker.on('message', (reply: WorkerReply) => {
        done.set(reply.batch, reply.checks);
        flush();
        send(worker);
        settle();
      });
      worker.on('error', (error) => {
        failed = error;
        settle();
      });
      // Two batches in flight each, so a worker never waits for this thread to hand it more.
      send(worker);
      send(worker);
    }
    // This thread takes its share too, yielding between batches so worker replies are merged.
    void (async () => {
      for (let batch = take(); batch >= 0 && failed === undefined; batch = take()) {
        const checks: FileCheck[] = [];
        for (const f of slice(batch)) checks.push(await checkFile(f, stdin, s));
        done.set(batch, checks);
        flush();
        await new Promise((r) => setImmediate(r));
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
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
