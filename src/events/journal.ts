/**
 * The journal: NDJSON beside the events file, append-only. A `sending` line is written before each
 * post and a line with the outcome after it, so an event whose post was cut short (a crash, a kill)
 * is known to be uncertain rather than forgotten. Each line is written with one write and flushed
 * to disk (fsync); a torn last line is ignored when reading and cut off before the next append.
 * Lines name the service they were posted to: a journal kept against the sandbox does not mark
 * events as done in production.
 */
import { parseJsonObject } from '../util/json.js';
import { closeSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors/failures.js';
import { canonicalServiceKey } from '../sync/service-key.js';
import { readRegularBytesSync, whyUnreadable } from '../util/quick-fs.js';

/** sending: the post began; failed: it clearly did not arrive (the event is to be posted again). */
export type JournalStatus = 'sending' | 'accepted' | 'uncertain' | 'failed';

export interface JournalRecord {
  v: 1;
  key: string;
  application_id: string;
  kind: string;
  status: JournalStatus;
  /** The service (base URL, or `sandbox`) the event was posted to. */
  service?: string;
  /** ISO 8601 time the outcome was known. */
  at: string;
}

export interface JournalState {
  /** The latest status of each key (a later line overrides an earlier one). */
  statuses: Map<string, JournalStatus>;
  exists: boolean;
  /** Bytes up to the end of the last complete line. */
  completeBytes: number;
  /** The last line was cut off (a crash while it was written); it is ignored. */
  torn: boolean;
  /** The last line is whole but lacks its newline (an editor removed it). */
  missingNewline: boolean;
}

const STATUSES: readonly string[] = ['sending', 'accepted', 'uncertain', 'failed'];

/**
 * Reads a journal; a missing file is an empty journal. `display` names it in messages. Only lines
 * for `service` count (lines that name no service count for every service); a line counts however
 * its service URL was spelt when it was written (`HTTP://host:443/` is `https://host`).
 */
export function readJournal(path: string, display: string, service?: string): JournalState {
  const state: JournalState = { statuses: new Map(), exists: false, completeBytes: 0, torn: false, missingNewline: false };
  const wanted = service === undefined ? undefined : canonicalServiceKey(service);
  // A journal names a handful of services on many lines: each spelling is parsed once.
  const keys = new Map<string, string>();
  const keyOf = (text: string) => {
    let key = keys.get(text);
    if (key === undefined) keys.set(text, (key = canonicalServiceKey(text)));
    return key;
  };
  let bytes: Buffer;
  try {
    // A FIFO or device is refused by name: reading it would block, or never end.
    bytes = readRegularBytesSync(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return state;
    throw new UsageError(`cannot read the journal ${display}: ${whyUnreadable(error)}; nothing was sent`);
  }
  state.exists = true;
  let start = 0;
  for (let lineNo = 1; start < bytes.length; lineNo++) {
    const end = bytes.indexOf(0x0a, start);
    const last = end < 0;
    const text = bytes.subarray(start, last ? bytes.length : end).toString('utf8').replace(/\r$/, '');
    const record = text.trim() === '' ? 'blank' : parseRecord(text);
    if (last) {
      if (record === undefined) state.torn = true;
      else {
        state.missingNewline = record !== 'blank';
        state.completeBytes = bytes.length;
      }
    } else {
      if (record === undefined) {
        throw new UsageError(`${display}:${lineNo}: this line is not a journal entry; nothing was sent`, {
          details: ['the journal is written by jobs events; restore the line, or remove it if you are sure which events it recorded'],
        });
      }
      state.completeBytes = end + 1;
    }
    if (record !== undefined && record !== 'blank') {
      if (record.v !== 1) throw new UsageError(`${display}:${lineNo}: journal version ${String(record.v)} is not supported by this version of jobs; nothing was sent`);
      if (wanted === undefined || record.service === undefined || keyOf(record.service) === wanted) {
        if (record.status === 'failed') state.statuses.delete(record.key);
        else state.statuses.set(record.key, record.status);
      }
    }
    start = last ? bytes.length : end + 1;
  }
  return state;
}

function parseRecord(text: string): JournalRecord | undefined {
  const value = parseJsonObject(text);
  if (!value) return undefined;
  const r = value as Partial<Record<keyof JournalRecord, unknown>>;
  if (typeof r.v !== 'number' || typeof r.key !== 'string') return undefined;
  // A future version's lines are reported as such rather than as damage.
  if (r.v !== 1) return r as JournalRecord;
  const ok =
    typeof r.status === 'string' &&
    STATUSES.includes(r.status) &&
    typeof r.application_id === 'string' &&
    typeof r.kind === 'string' &&
    typeof r.at === 'string' &&
    (r.service === undefined || typeof r.service === 'string');
  return ok ? (r as JournalRecord) : undefined;
}

/** Appends records to a journal, each flushed to disk before `append` returns. */
export class JournalWriter {
  private constructor(private fd: number | undefined) {}

  /**
   * Opens (or creates) the journal for appending, repairing its tail: a torn last line is cut off,
   * a missing final newline added. Fails before anything is sent when the file cannot be written.
   */
  static open(path: string, display: string, state: JournalState): JournalWriter {
    let fd: number | undefined;
    try {
      fd = openSync(path, 'a', 0o644);
      if (state.torn) ftruncateSync(fd, state.completeBytes);
      if (state.missingNewline) writeSync(fd, '\n');
      fsyncSync(fd);
      if (!state.exists) syncDirectory(dirname(path));
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UsageError(`cannot write the journal ${display} (${code}); nothing was sent`, { details: ['choose a writable place for it with --journal <file>'] });
    }
    return new JournalWriter(fd);
  }

  /** Writes one line and flushes it; throws the file system's error when it cannot. */
  append(record: JournalRecord): void {
    if (this.fd === undefined) throw new Error('the journal is closed');
    const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
    // One write in practice; the loop only guards against a short write.
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Makes a new file's directory entry durable too; not possible on every platform, so best effort. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot open a directory; the file's own fsync still holds its lines.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
