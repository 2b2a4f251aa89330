/**
 * The sync state: what this tool published, per service, since the service cannot list adverts.
 * A human-readable JSON file with a version field, plus an append-only log beside it: each success
 * is appended to the log at once (a kill or Ctrl-C loses nothing), and the log is folded into the
 * state file, written atomically (temp file + rename), at the end of a run or at the next start.
 *
 * References and service URLs are chosen by users, so they are kept in Maps: as keys of a plain
 * object, `__proto__` would set the object's prototype instead of recording an advert.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError, UsageError } from '../errors/failures.js';
import { sanitize } from '../output/sanitize.js';
import { canonicalServiceKey } from './service-key.js';

export { acquireLock, type Lock } from './lock.js';

export const STATE_VERSION = 1;
export const DEFAULT_STATE_FILE = '.jobs-state.json';

export interface AdvertRecord {
  /** The file it came from, relative to the synced folder. */
  file: string;
  document: number;
  /** Hash of the payload last sent (or adopted). */
  hash: string;
  /** Short hash per top-level field, to name what changed. */
  fields: Record<string, string>;
  published_at: string;
}

/** The file's shape (JSON): the service key is the normalised base URL, or `sandbox`. */
export interface StateFile {
  version: number;
  /** service key (base URL, or `sandbox`) -> reference -> record */
  services: Record<string, { adverts: Record<string, AdvertRecord> }>;
}

type LogLine = { op: 'put'; service: string; reference: string; record: AdvertRecord } | { op: 'delete'; service: string; reference: string };

const FIX = 'restore it from version control or move it away (a sync without state adopts existing adverts safely)';

/**
 * The files a state brings with it (the state, its log, its lock), as the folder walk names them:
 * a state kept inside the synced folder is not read as an advert, whatever its name.
 */
export function stateFiles(path: string): Set<string> {
  const names = [path, `${path}.log`, `${path}.lock`];
  const files = new Set(names);
  try {
    const dir = realpathSync(dirname(path));
    for (const name of names) files.add(join(dir, basename(name)));
  } catch {
    // The state's folder does not exist yet: nothing in it can be walked.
  }
  return files;
}

/** A file system call's reason in a word: `ENOSPC`, `EISDIR`, ... */
export function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

export class SyncState {
  private readonly services = new Map<string, Map<string, AdvertRecord>>();
  /** The records differ from the state file (something was recorded, or a log was folded in). */
  private changed = false;
  private log: number | undefined;
  /** Where the log's whole lines end: a torn last line (a kill mid-write) is cut off before appending. */
  private logEnd = { bytes: 0, torn: false, missingNewline: false };
  /** An append failed: no more lines go to the log, whose end may now be torn. */
  private logFailure: unknown;

  private constructor(readonly path: string) {}

  get logPath(): string {
    return `${this.path}.log`;
  }

  static load(path: string): SyncState {
    const state = new SyncState(path);
    const bytes = readIfExists(path, 'sync state');
    if (bytes !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch (error) {
        throw new ConfigError(`${path}: the sync state is not valid JSON (${(error as Error).message}); ${FIX}`);
      }
      state.read(parsed);
    }
    state.replayLog();
    return state;
  }

  /** The records of one service, by reference. */
  adverts(service: string): ReadonlyMap<string, AdvertRecord> {
    return this.services.get(canonicalServiceKey(service)) ?? new Map();
  }

  /**
   * Opens the log for appending, before anything is sent: a run whose successes could not be
   * recorded is refused (exit 2) instead of started.
   */
  openLog(): void {
    try {
      this.openLogFile();
    } catch (error) {
      throw new UsageError(`cannot write the sync log ${this.logPath} (${reasonOf(error)}); nothing was sent`, {
        details: ['it records each success at once, beside the state: choose a writable place for the state with --state <file>'],
      });
    }
  }

  /** Records a success durably before the run goes on; throws the file system's error when the log cannot take it. */
  put(service: string, reference: string, record: AdvertRecord): void {
    this.record({ op: 'put', service: canonicalServiceKey(service), reference, record });
  }

  remove(service: string, reference: string): void {
    this.record({ op: 'delete', service: canonicalServiceKey(service), reference });
  }

  /**
   * Writes the state file atomically when anything changed, then drops the log it now contains.
   * Nothing changed: the file is left as it is (same bytes, same time). When the state cannot be
   * written, the temp file is removed and the log kept (the next run folds it in); the file
   * system's error is thrown.
   */
  save(): void {
    if (this.changed) {
      const tmp = `${this.path}.${process.pid}.tmp`;
      try {
        mkdirSync(dirname(this.path), { recursive: true });
        writeFileSync(tmp, `${JSON.stringify(this.toJSON(), null, 2)}\n`);
        renameSync(tmp, this.path);
      } catch (error) {
        rmSync(tmp, { force: true });
        this.closeLog();
        throw error;
      }
      this.changed = false;
    }
    this.closeLog();
    rmSync(this.logPath, { force: true });
  }

  /** The state as written to its file; Object.fromEntries makes own properties, `__proto__` included. */
  toJSON(): StateFile {
    return { version: STATE_VERSION, services: Object.fromEntries([...this.services].map(([service, adverts]) => [service, { adverts: Object.fromEntries(adverts) }])) };
  }

  private record(line: LogLine): void {
    this.apply(line);
    if (this.logFailure !== undefined) throw this.logFailure;
    try {
      this.openLogFile();
      const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
      for (let done = 0; done < bytes.length; ) done += writeSync(this.log!, bytes, done);
    } catch (error) {
      // A short write may have left half a line: nothing more is appended after it.
      this.logFailure = error;
      throw error;
    }
  }

  private openLogFile(): void {
    if (this.log !== undefined) return;
    try {
      mkdirSync(dirname(this.logPath), { recursive: true });
      this.log = openSync(this.logPath, 'a', 0o644);
      if (this.logEnd.torn) ftruncateSync(this.log, this.logEnd.bytes);
      else if (this.logEnd.missingNewline) writeSync(this.log, '\n');
      this.logEnd = { bytes: 0, torn: false, missingNewline: false };
    } catch (error) {
      this.closeLog();
      throw error;
    }
  }

  private apply(line: LogLine): void {
    let adverts = this.services.get(line.service);
    if (!adverts) this.services.set(line.service, (adverts = new Map()));
    if (line.op === 'put') adverts.set(line.reference, line.record);
    else adverts.delete(line.reference);
    this.changed = true;
  }

  private closeLog(): void {
    if (this.log !== undefined) closeSync(this.log);
    this.log = undefined;
  }

  /** Takes in a parsed state file, checking its shape; keys that name one service are merged. */
  private read(value: unknown): void {
    const wrong = (where: string, what: string) => new ConfigError(`${this.path}: not a valid sync state: ${where}: ${what}; ${FIX}`);
    if (!isObject(value)) throw wrong('the file', `expected an object {"version": ${STATE_VERSION}, "services": {...}}, not ${describe(value)}`);
    if (!('version' in value)) throw wrong('version', 'missing');
    if (typeof value.version !== 'number') throw wrong('version', `expected a number, not ${describe(value.version)}`);
    if (value.version > STATE_VERSION && Number.isInteger(value.version)) {
      throw new ConfigError(`${this.path}: written by a newer jobs (state version ${value.version}); upgrade jobs`);
    }
    if (value.version !== STATE_VERSION) throw wrong('version', `${value.version} is not a sync state version jobs knows (${STATE_VERSION})`);
    if (!isObject(value.services)) throw wrong('services', `expected an object keyed by service URL, not ${describe(value.services)}`);
    for (const [key, entry] of Object.entries(value.services)) {
      const where = `services[${quote(key)}]`;
      if (!isObject(entry)) throw wrong(where, `expected {"adverts": {...}}, not ${describe(entry)}`);
      if (!isObject(entry.adverts)) throw wrong(`${where}.adverts`, `expected an object keyed by reference, not ${describe(entry.adverts)}`);
      const service = canonicalServiceKey(key);
      for (const [reference, record] of Object.entries(entry.adverts)) {
        const problem = recordProblem(record);
        if (problem) throw wrong(`${where}.adverts[${quote(reference)}]${problem.field ? `.${problem.field}` : ''}`, problem.what);
        this.merge(service, reference, record as AdvertRecord);
      }
    }
  }

  /**
   * Earlier versions keyed services by the URL as it was spelt; two spellings of one service hold
   * parts of its records. The latest record of a reference wins. The file is rewritten with the
   * merged keys the next time something is recorded.
   */
  private merge(service: string, reference: string, record: AdvertRecord): void {
    let adverts = this.services.get(service);
    if (!adverts) this.services.set(service, (adverts = new Map()));
    const other = adverts.get(reference);
    if (!other || other.published_at < record.published_at) adverts.set(reference, record);
  }

  /** Folds in what an interrupted run logged; a torn line (killed mid-write) is ignored. */
  private replayLog(): void {
    const bytes = readIfExists(this.logPath, 'sync log');
    if (bytes === undefined) return;
    let start = 0;
    for (let lineNo = 1; start < bytes.length; lineNo++) {
      const newline = bytes.indexOf(0x0a, start);
      const end = newline < 0 ? bytes.length : newline;
      const lineStart = start;
      const text = bytes.subarray(start, end).toString('utf8');
      start = end + 1;
      if (text.trim() === '') continue;
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        // The line a kill cut short: the request it recorded is adopted or repeated safely next time.
        if (newline < 0) this.logEnd = { bytes: lineStart, torn: true, missingNewline: false };
        continue;
      }
      const problem = logLineProblem(line);
      if (problem) throw new ConfigError(`${this.logPath}:${lineNo}: not a sync log line: ${problem}; remove the line (a sync adopts or repeats what it recorded safely)`);
      const l = line as LogLine;
      this.apply({ ...l, service: canonicalServiceKey(l.service) });
      if (newline < 0) this.logEnd.missingNewline = true;
    }
  }
}

/** The file's bytes, or undefined when there is none; anything but a regular file is refused (a FIFO or a device would hang the read). */
function readIfExists(path: string, what: string): Buffer | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return undefined;
    if (!info.isFile()) throw new ConfigError(`the ${what} ${path} is not a regular file; nothing was sent`, { details: ['move it away, or choose another place for the state with --state <file>'] });
    return readFileSync(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read the ${what} ${path} (${reasonOf(error)}); nothing was sent`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const quote = (text: string) => JSON.stringify(sanitize(text));

function recordProblem(record: unknown): { field?: string; what: string } | undefined {
  if (!isObject(record)) return { what: `expected a record {"file", "document", "hash", "fields", "published_at"}, not ${describe(record)}` };
  for (const field of ['file', 'hash', 'published_at'] as const) {
    if (typeof record[field] !== 'string') return { field, what: `expected a string, not ${describe(record[field])}` };
  }
  if (!Number.isInteger(record.document) || (record.document as number) < 0) return { field: 'document', what: `expected a whole number, not ${describe(record.document)}` };
  if (!isObject(record.fields)) return { field: 'fields', what: `expected an object of field hashes, not ${describe(record.fields)}` };
  for (const [name, hash] of Object.entries(record.fields)) {
    if (typeof hash !== 'string') return { field: `fields[${quote(name)}]`, what: `expected a string, not ${describe(hash)}` };
  }
  return undefined;
}

function logLineProblem(line: unknown): string | undefined {
  if (!isObject(line)) return `expected an object, not ${describe(line)}`;
  if (line.op !== 'put' && line.op !== 'delete') return 'op must be "put" or "delete"';
  if (typeof line.service !== 'string' || typeof line.reference !== 'string') return 'service and reference must be strings';
  if (line.op === 'put') {
    const problem = recordProblem(line.record);
    if (problem) return `record${problem.field ? `.${problem.field}` : ''}: ${problem.what}`;
  }
  return undefined;
}
