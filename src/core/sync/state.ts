/**
 * The sync state: what this tool published, per service, since the service cannot list adverts.
 * A human-readable JSON file with a version field, plus an append-only log beside it: each success
 * is appended to the log at once (a kill or Ctrl-C loses nothing), and the log is folded into the
 * state file, written atomically (temp file + rename), at the end of a run or at the next start.
 *
 * References and service URLs are chosen by users, so they are kept in Maps: as keys of a plain
 * object, `__proto__` would set the object's prototype instead of recording an advert.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError, UsageError } from '../errors/failures.js';
import { sanitize } from '../util/sanitize.js';
import { createHash, type Hash } from 'node:crypto';
import { FIELD_HASH_LENGTH, HASH_LENGTH } from './hash.js';
import { AdvertSetHash, bytesHashAlgorithm, checkLine, STATE_VERSION } from './state-check.js';
import { canonicalServiceKey } from './service-key.js';

export { acquireLock, type Lock } from '../storage/lock.js';
import { AppendLog } from '../storage/append-log.js';
import { reasonInWords } from '../storage/errors.js';
import { removeOwnFile, replaceFile, writeAll } from '../storage/replace.js';

/** The version written; version 1 (an earlier release's) is read too, and upgraded the next time something is recorded. */
export { STATE_VERSION };
const KNOWN_VERSIONS = [1, 2];
export const DEFAULT_STATE_FILE = '.jobs-state.json';

export interface AdvertRecord {
  /** The file it came from, relative to the synced folder. */
  file: string;
  document: number;
  /** Hash of the payload last sent (or adopted). */
  hash: string;
  /** Hash of the file's text it was read from, with the settings (textHashOf): the same text is the same payload. */
  text_hash?: string;
  /** Short hash per top-level field, to name what changed. */
  readonly fields: Readonly<Record<string, string>>;
  published_at: string;
  /** The file's reference of an advert made from a `locations:` list: the adverts of one file's places share it. */
  group?: string;
}

/**
 * The file's shape (JSON): the service key is the normalised base URL, or `sandbox`. Per service,
 * `fields` names the field hashes' places (new names are added at the end, so a record's line only
 * changes with the record); a record's `fields` holds one short hash per name, `-` where the advert
 * has no such field. One record per line, sorted by reference: a change to one advert is one line in
 * a diff.
 */
export interface StateFile {
  version: number;
  /** service key (base URL, or `sandbox`) -> field names, reference -> record */
  services: Record<string, { fields: string[]; adverts: Record<string, StoredRecordJson> }>;
}

interface StoredRecordJson {
  file: string;
  document: number;
  hash: string;
  text_hash?: string;
  fields: string;
  published_at: string;
  group?: string;
}

type LogLine = { op: 'put'; service: string; reference: string; record: AdvertRecord } | { op: 'delete'; service: string; reference: string };

/** The places of the field hashes of one service's records: names are only ever added, at the end. */
class FieldTable {
  readonly names: string[] = [];
  private readonly slots = new Map<string, number>();

  constructor(names: readonly string[] = []) {
    for (const name of names) this.slot(name);
  }

  /** `a1b2c3d4 - 0f0f0f0f`: a hash per name in the table's order, `-` for a field the advert lacks. */
  encode(fields: Readonly<Record<string, string>>): string {
    const slots: string[] = [];
    for (const name of Object.keys(fields)) {
      const hash = fields[name]!.slice(0, FIELD_HASH_LENGTH);
      // A hand-edited log could hold anything: what cannot be written in a slot compares as changed.
      slots[this.slot(name)] = /^[^\s-]\S*$/.test(hash) ? hash : '?';
    }
    return Array.from(slots, (s) => s ?? '-').join(' ');
  }

  decode(packed: string): Record<string, string> {
    const fields: Record<string, string> = Object.create(null);
    if (packed === '') return fields;
    const slots = packed.split(' ');
    for (let i = 0; i < slots.length; i++) if (slots[i] !== '-') fields[this.names[i]!] = slots[i]!;
    return fields;
  }

  private slot(name: string): number {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.names.push(name) - 1;
      this.slots.set(name, slot);
    }
    return slot;
  }
}

/** A record as kept in memory: its field hashes in one string, read back through the service's table when a plan asks. */
class StoredRecord implements AdvertRecord {
  constructor(
    readonly file: string,
    readonly document: number,
    readonly hash: string,
    readonly published_at: string,
    readonly packed: string,
    private readonly table: FieldTable,
    readonly text_hash: string | undefined,
    readonly group?: string,
  ) {}

  get fields(): Record<string, string> {
    return this.table.decode(this.packed);
  }

  withTextHash(textHash: string): StoredRecord {
    return new StoredRecord(this.file, this.document, this.hash, this.published_at, this.packed, this.table, textHash, this.group);
  }

  toJSON(): AdvertRecord {
    return { file: this.file, document: this.document, hash: this.hash, ...textHashOf(this), fields: this.fields, published_at: this.published_at, ...groupOf(this) };
  }
}

/** The record's text hash as a JSON property, when it has one. */
const textHashOf = (r: { text_hash?: string | undefined }): { text_hash?: string } => (r.text_hash === undefined ? {} : { text_hash: r.text_hash });
/** The record's group as a JSON property, when it has one (an advert for one of several places). */
const groupOf = (r: { group?: string | undefined }): { group?: string } => (r.group === undefined ? {} : { group: r.group });

class ServiceRecords {
  readonly table: FieldTable;
  readonly adverts = new Map<string, StoredRecord>();

  constructor(names?: readonly string[]) {
    this.table = new FieldTable(names);
  }

  put(reference: string, record: AdvertRecord): void {
    const textHash = record.text_hash === undefined ? undefined : record.text_hash.slice(0, HASH_LENGTH);
    this.adverts.set(reference, new StoredRecord(record.file, record.document, record.hash.slice(0, HASH_LENGTH), record.published_at, this.table.encode(record.fields), this.table, textHash, record.group));
  }
}

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
  // A state that is itself a link is met under its target's name too (a linked folder leads there).
  for (const name of names) {
    try {
      files.add(realpathSync(name));
    } catch {
      // Not there (yet): nothing to leave out.
    }
  }
  return files;
}

/** A file system call's reason in a word: `ENOSPC`, `EISDIR`, ... */
export function reasonOf(error: unknown): string {
  return reasonInWords(error);
}

export class SyncState {
  private readonly services = new Map<string, ServiceRecords>();
  /** The records differ from the state file (something was recorded, or a log was folded in). */
  private changed = false;
  private log: AppendLog | undefined;
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
    return this.services.get(canonicalServiceKey(service))?.adverts ?? new Map();
  }

  /** Whether most records of a service have a text hash (a state written since text hashes were recorded). */
  hasTextHashes(service: string): boolean {
    const adverts = this.services.get(canonicalServiceKey(service))?.adverts;
    if (!adverts || adverts.size === 0) return false;
    let withHash = 0;
    for (const r of adverts.values()) if (r.text_hash !== undefined) withHash++;
    return withHash * 2 > adverts.size;
  }

  /**
   * Records the text hash an unchanged advert's file now has (a comment edited, or a record from
   * before text hashes), when the state is to be written anyway: a run that records nothing leaves
   * the file as it is. No log line: a text hash lost to a kill costs a payload hash, not a request.
   */
  refreshTextHash(service: string, reference: string, textHash: string): void {
    if (!this.changed) return;
    const records = this.services.get(canonicalServiceKey(service));
    const record = records?.adverts.get(reference);
    if (record && record.text_hash !== textHash) records!.adverts.set(reference, record.withTextHash(textHash));
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
      try {
        // Durable: the log is removed next, so the state must be on disk before it goes (a power
        // cut must not leave an empty state and no log). A no-op run writes nothing at all. A state
        // named through a link (--state) gets the link swapped for the file, never written through.
        replaceFile(this.path, (fd) => this.write(fd), { durable: true, mode: 0o644, symlink: 'replace' });
      } catch (error) {
        this.closeLog();
        throw error;
      }
      this.changed = false;
    }
    this.closeLog();
    removeOwnFile(this.logPath);
  }

  /** The state as written to its file; Object.fromEntries makes own properties, `__proto__` included. */
  toJSON(): StateFile {
    const services = [...this.services].map(([key, service]) => {
      const adverts = Object.fromEntries(sortedRecords(service).map(([reference, r]) => [reference, recordJson(r)]));
      return [key, { fields: service.table.names, adverts }];
    });
    return { version: STATE_VERSION, services: Object.fromEntries(services) };
  }

  /**
   * Writes the file's text: toJSON() laid out with one record per line, sorted by reference, so that
   * the state diffs well in version control and stays small (and is still one JSON document). It is
   * written a few thousand lines at a time: the text of 100,000 records is never held whole.
   */
  private write(fd: number): number {
    let total = 0;
    {
      let lines: string[] = [];
      // Every byte before the check line is hashed into it (see state-check.ts).
      let written: Hash | undefined = createHash(bytesHashAlgorithm);
      const flush = () => {
        const bytes = Buffer.from(lines.join(''));
        written?.update(bytes);
        total += writeAll(fd, bytes);
        lines = [];
      };
      const line = (text: string) => {
        if (lines.push(`${text}\n`) >= 4096) flush();
      };
      line('{');
      line(`  "version": ${STATE_VERSION},`);
      line('  "services": {');
      const services = [...this.services].sort(([a], [b]) => compare(a, b));
      const sums: Record<string, string> = {};
      services.forEach(([key, service], s) => {
        line(`    ${JSON.stringify(key)}: {`);
        line(`      "fields": ${JSON.stringify(service.table.names)},`);
        line('      "adverts": {');
        const records = sortedRecords(service);
        // A service whose every record has a text hash is summed up in the check line.
        const sum = records.every(([, r]) => r.text_hash) ? new AdvertSetHash() : undefined;
        records.forEach(([reference, r], i) => {
          sum?.add(reference, r.file, r.document, r.text_hash!);
          line(`        ${JSON.stringify(reference)}: ${JSON.stringify(recordJson(r))}${i < records.length - 1 ? ',' : ''}`);
        });
        if (sum) Object.defineProperty(sums, key, { value: sum.toString(), enumerable: true });
        line('      }');
        line(`    }${s < services.length - 1 ? ',' : ''}`);
      });
      line('  },');
      flush();
      line(checkLine(written.digest('hex'), sums));
      written = undefined;
      line('}');
      flush();
    }
    return total;
  }

  private record(line: LogLine): void {
    this.apply(line);
    if (this.logFailure !== undefined) throw this.logFailure;
    try {
      this.openLogFile();
      // No fsync (see storage/append-log.ts): a line lost to a power cut costs an idempotent PUT again.
      this.log!.append(`${JSON.stringify(line)}\n`);
    } catch (error) {
      // The append was undone; the run stops at the first line the log cannot take.
      this.logFailure = error;
      throw error;
    }
  }

  private openLogFile(): void {
    if (this.log !== undefined) return;
    try {
      // Never through a link or FIFO planted under the log's name (a pull request can commit one).
      this.log = AppendLog.open(this.logPath, {
        mode: 0o644,
        folderMode: 0o777,
        ...(this.logEnd.torn ? { completeBytes: this.logEnd.bytes } : {}),
        missingNewline: !this.logEnd.torn && this.logEnd.missingNewline,
      });
      this.logEnd = { bytes: 0, torn: false, missingNewline: false };
    } catch (error) {
      this.closeLog();
      throw error;
    }
  }

  private service(key: string, names?: readonly string[]): ServiceRecords {
    let service = this.services.get(key);
    if (!service) this.services.set(key, (service = new ServiceRecords(names)));
    return service;
  }

  private apply(line: LogLine): void {
    const service = this.service(line.service);
    if (line.op === 'put') service.put(line.reference, line.record);
    else service.adverts.delete(line.reference);
    this.changed = true;
  }

  private closeLog(): void {
    this.log?.close();
    this.log = undefined;
  }

  /** Takes in a parsed state file (version 1 or 2), checking its shape; keys that name one service are merged. */
  private read(value: unknown): void {
    const wrong = (where: string, what: string) => new ConfigError(`${this.path}: not a valid sync state: ${where}: ${what}; ${FIX}`);
    if (!isObject(value)) throw wrong('the file', `expected an object {"version": ${STATE_VERSION}, "services": {...}}, not ${describe(value)}`);
    if (!('version' in value)) throw wrong('version', 'missing');
    if (typeof value.version !== 'number') throw wrong('version', `expected a number, not ${describe(value.version)}`);
    if (value.version > STATE_VERSION && Number.isInteger(value.version)) {
      throw new ConfigError(`${this.path}: written by a newer jobs (state version ${value.version}); upgrade jobs`);
    }
    if (!KNOWN_VERSIONS.includes(value.version)) throw wrong('version', `${value.version} is not a sync state version jobs knows (${KNOWN_VERSIONS.join(', ')})`);
    const version = value.version;
    if (!isObject(value.services)) throw wrong('services', `expected an object keyed by service URL, not ${describe(value.services)}`);
    for (const [key, entry] of Object.entries(value.services)) {
      const where = `services[${quote(key)}]`;
      if (!isObject(entry)) throw wrong(where, `expected {${version === 1 ? '' : '"fields": [...], '}"adverts": {...}}, not ${describe(entry)}`);
      let table: FieldTable | undefined;
      if (version > 1) {
        const names = entry.fields;
        if (!Array.isArray(names) || names.some((n) => typeof n !== 'string') || new Set(names).size !== names.length) {
          throw wrong(`${where}.fields`, `expected a list of field names, each once, not ${describe(names)}`);
        }
        table = new FieldTable(names as string[]);
      }
      if (!isObject(entry.adverts)) throw wrong(`${where}.adverts`, `expected an object keyed by reference, not ${describe(entry.adverts)}`);
      const canonical = canonicalServiceKey(key);
      // Earlier versions keyed services by the URL as it was spelt; two spellings of one service
      // hold parts of its records. The latest record of a reference wins; the file is rewritten with
      // the merged keys the next time something is recorded.
      const merging = this.services.has(canonical);
      const service = this.service(canonical, table?.names);
      // Taken as written when the file's names are the service's (one spelling of it: the common case).
      const direct = table !== undefined && sameNames(table, service.table);
      const adverts = entry.adverts;
      for (const reference in adverts) {
        const record = adverts[reference];
        const problem = table ? storedRecordProblem(record, table.names.length) : recordProblem(record);
        if (problem) throw wrong(`${where}.adverts[${quote(reference)}]${problem.field ? `.${problem.field}` : ''}`, problem.what);
        const other = merging ? service.adverts.get(reference) : undefined;
        if (other && other.published_at >= (record as AdvertRecord).published_at) continue;
        if (table) {
          const r = record as unknown as StoredRecordJson;
          if (direct) service.adverts.set(reference, new StoredRecord(r.file, r.document, r.hash, r.published_at, r.fields, service.table, r.text_hash, r.group));
          else service.put(reference, { ...r, fields: table.decode(r.fields) });
        } else service.put(reference, record as AdvertRecord);
      }
    }
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
  if (record.text_hash !== undefined && typeof record.text_hash !== 'string') return { field: 'text_hash', what: `expected a string, not ${describe(record.text_hash)}` };
  if (record.group !== undefined && typeof record.group !== 'string') return { field: 'group', what: `expected a string, not ${describe(record.group)}` };
  if (!isObject(record.fields)) return { field: 'fields', what: `expected an object of field hashes, not ${describe(record.fields)}` };
  for (const [name, hash] of Object.entries(record.fields)) {
    if (typeof hash !== 'string') return { field: `fields[${quote(name)}]`, what: `expected a string, not ${describe(hash)}` };
  }
  return undefined;
}

/** A version 2 record: its field hashes are one string with at most a hash per name of its service. */
function storedRecordProblem(record: unknown, names: number): { field?: string; what: string } | undefined {
  if (!isObject(record)) return { what: `expected a record {"file", "document", "hash", "fields", "published_at"}, not ${describe(record)}` };
  for (const field of ['file', 'hash', 'fields', 'published_at'] as const) {
    if (typeof record[field] !== 'string') return { field, what: `expected a string, not ${describe(record[field])}` };
  }
  if (!Number.isInteger(record.document) || (record.document as number) < 0) return { field: 'document', what: `expected a whole number, not ${describe(record.document)}` };
  if (record.text_hash !== undefined && typeof record.text_hash !== 'string') return { field: 'text_hash', what: `expected a string, not ${describe(record.text_hash)}` };
  if (record.group !== undefined && typeof record.group !== 'string') return { field: 'group', what: `expected a string, not ${describe(record.group)}` };
  const fields = record.fields as string;
  if (fields !== '' && !(slotsIn(fields) <= names)) {
    return { field: 'fields', what: `expected at most ${names} field hashes (the service's "fields") separated by single spaces, - for none` };
  }
  return undefined;
}

/**
 * The slots of a non-empty field string, NaN unless they are separated by single spaces and hold
 * no other white space (a loop: a regular expression took a fifth of the state's loading time).
 */
function slotsIn(fields: string): number {
  let slots = 1;
  let previous = 32;
  for (let i = 0; i < fields.length; i++) {
    const c = fields.charCodeAt(i);
    if (c === 32) {
      if (previous === 32) return NaN;
      slots++;
    } else if ((c >= 9 && c <= 13) || (c >= 0xa0 && /\s/.test(fields[i]!))) return NaN;
    previous = c;
  }
  return previous === 32 ? NaN : slots;
}

function recordJson(r: StoredRecord): StoredRecordJson {
  return { file: r.file, document: r.document, hash: r.hash, ...textHashOf(r), fields: r.packed, published_at: r.published_at, ...groupOf(r) };
}

/** Code-unit order: the same on every machine, whatever its locale. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sortedRecords(service: ServiceRecords): [string, StoredRecord][] {
  return [...service.adverts].sort(([a], [b]) => compare(a, b));
}

function sameNames(a: FieldTable, b: FieldTable): boolean {
  return a.names.length === b.names.length && a.names.every((name, i) => b.names[i] === name);
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
