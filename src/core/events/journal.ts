/**
 * The journal: NDJSON beside the events file, append-only. A `planned` line is written for each
 * event before it may be posted, flushed to disk (fsync) in large groups ahead of the posts; just
 * before the post, that line's status is rewritten in place to `sending` (a write, no fsync); after
 * it, a line with the outcome. So an event whose post was cut short (a crash, a kill) is known to be
 * uncertain rather than forgotten, and one journaled ahead but never posted is known as such:
 * - a `sending` line with no outcome: the post began; uncertain;
 * - a `planned` line with no later line, written in this boot of the machine (the line names its
 *   boot): the process was killed before posting it (a write that returned is in the file for every
 *   later reader until the machine itself goes down), so it was not posted;
 * - a `planned` line from another boot, or an unknown one: the machine went down, and the unsynced
 *   `sending` rewrite may be what was lost: uncertain.
 * A torn last line is ignored when reading and cut off before the next append.
 * Lines name the service they were posted to: a journal kept against the sandbox does not mark
 * events as done in production.
 */
import { parseJsonObject } from '../util/json.js';
import { closeSync, fsync, openSync, readSync, writeSync } from 'node:fs';
import { AppendLog } from '../storage/append-log.js';
import { reasonInWords } from '../storage/errors.js';
import { syncFolder } from '../storage/replace.js';
import { dirname } from 'node:path';
import { UsageError } from '../errors/failures.js';
import { canonicalServiceKey } from '../config/service-key.js';
import { bootId } from '../util/boot-id.js';
import { monotonicMs } from '../util/clock.js';
import { NotRegularFileError, statRegularFile, whyUnreadable } from '../util/quick-fs.js';

/**
 * planned: the event may be posted (its line is on disk first); sending: the post began; failed: it
 * clearly did not arrive, or was never posted (the event is to be posted again).
 */
export type JournalStatus = 'planned' | 'sending' | 'accepted' | 'uncertain' | 'failed';

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
  /** On `planned` lines: the boot of the machine it was written in ('' when unknown; util/boot-id.ts). */
  boot?: string;
}

export interface JournalState {
  /** The latest status of each key (a later line overrides an earlier one); never `planned` (see above). */
  statuses: Map<string, JournalStatus>;
  exists: boolean;
  /** Bytes up to the end of the last complete line. */
  completeBytes: number;
  /** The last line was cut off (a crash while it was written); it is ignored. */
  torn: boolean;
  /** The last line is whole but lacks its newline (an editor removed it). */
  missingNewline: boolean;
}

const STATUSES: readonly string[] = ['planned', 'sending', 'accepted', 'uncertain', 'failed'];
const JOURNAL_PIECE_BYTES = 1024 * 1024;

/**
 * Reads a journal; a missing file is an empty journal. `display` names it in messages. Only lines
 * for `service` count (lines that name no service count for every service); a line counts however
 * its service URL was spelt when it was written (`HTTP://host:443/` is `https://host`).
 */
export function readJournal(path: string, display: string, service?: string): JournalState {
  const state: JournalState = { statuses: new Map(), exists: false, completeBytes: 0, torn: false, missingNewline: false };
  const wanted = service === undefined ? undefined : canonicalServiceKey(service);
  const here = bootId();
  // A journal names a handful of services on many lines: each spelling is parsed once.
  const keys = new Map<string, string>();
  const keyOf = (text: string) => {
    let key = keys.get(text);
    if (key === undefined) keys.set(text, (key = canonicalServiceKey(text)));
    return key;
  };
  let fd: number;
  try {
    // A FIFO or device is refused by name: reading it would block, or never end.
    statRegularFile(path);
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return state;
    throw new UsageError(
      `cannot read the journal ${display}: ${whyUnreadable(error)}; nothing was sent`,
      error instanceof NotRegularFileError ? { details: ['choose a file for it with --journal <file>'] } : undefined,
    );
  }
  state.exists = true;
  const take = (text: string, lineNo: number, last: boolean, endOffset: number) => {
    const record = text.trim() === '' ? 'blank' : parseRecord(text);
    if (last) {
      if (record === undefined) state.torn = true;
      else {
        state.missingNewline = record !== 'blank';
        state.completeBytes = endOffset;
      }
    } else {
      if (record === undefined) {
        throw new UsageError(`${display}:${lineNo}: this line is not a journal entry; nothing was sent`, {
          details: ['the journal is written by jobs events; restore the line, or remove it if you are sure which events it recorded'],
        });
      }
      state.completeBytes = endOffset;
    }
    if (record !== undefined && record !== 'blank') {
      if (record.v !== 1)
        throw new UsageError(`${display}:${lineNo}: journal version ${String(record.v)} is not supported by this version of jobs; nothing was sent`);
      if (wanted === undefined || record.service === undefined || keyOf(record.service) === wanted) {
        if (record.status === 'failed') state.statuses.delete(record.key);
        else if (record.status !== 'planned') state.statuses.set(record.key, record.status);
        // Never rewritten to `sending` in this boot: not posted; the event keeps the status it had.
        // From another boot, that rewrite may have been lost with the machine: uncertain.
        else if (here === undefined || record.boot !== here) state.statuses.set(record.key, 'sending');
      }
    }
  };
  try {
    // Read in pieces: a journal of a million events is hundreds of MB, of which only the statuses are kept.
    const piece = Buffer.allocUnsafe(JOURNAL_PIECE_BYTES);
    let rest = Buffer.alloc(0);
    let offset = 0; // of `rest` in the file
    let lineNo = 1;
    for (;;) {
      const n = readSync(fd, piece, 0, piece.length, null);
      const bytes = rest.length > 0 ? Buffer.concat([rest, piece.subarray(0, n)]) : piece.subarray(0, n);
      let start = 0;
      for (let end = bytes.indexOf(0x0a); end >= 0; end = bytes.indexOf(0x0a, start)) {
        take(bytes.subarray(start, end).toString('utf8').replace(/\r$/, ''), lineNo++, false, offset + end + 1);
        start = end + 1;
      }
      // Copied: `piece` is read into again.
      rest = Buffer.from(bytes.subarray(start));
      offset += start;
      if (n === 0) break;
    }
    if (rest.length > 0) take(rest.toString('utf8').replace(/\r$/, ''), lineNo, true, offset + rest.length);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `cannot read the journal ${display}: ${whyUnreadable(error)}; nothing was sent`,
      error instanceof NotRegularFileError ? { details: ['choose a file for it with --journal <file>'] } : undefined,
    );
  } finally {
    closeSync(fd);
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
    (r.service === undefined || typeof r.service === 'string') &&
    (r.boot === undefined || typeof r.boot === 'string');
  return ok ? (r as JournalRecord) : undefined;
}

/** The two file operations a journal flush makes; tests count them. */
export interface JournalFileOps {
  write(fd: number, bytes: Buffer, offset: number): Promise<number>;
  fsync(fd: number): Promise<void>;
}

const fileOps: JournalFileOps = {
  // Appending a few KB lands in the page cache in microseconds: written in place rather than with a
  // round trip through the thread pool, which doubled each flush's latency while posts waited on it.
  write: (fd, bytes, offset) => {
    try {
      return Promise.resolve(writeSync(fd, bytes, offset, bytes.length - offset, null));
    } catch (error) {
      return Promise.reject(error);
    }
  },
  fsync: (fd) => new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve()))),
};

/** The lines queued for the next flush, and the promise every one of them is given. */
interface Batch {
  lines: string[];
  bytes: number;
  /** `planned` lines: key and where its status value begins, relative to the batch. */
  planned: [string, number][];
  /** Where the batch begins in the file, once written. */
  start: number;
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Rejections are handled where a line is awaited; this keeps a batch nobody awaits quiet.
  done.catch(() => undefined);
  return { lines: [], bytes: 0, planned: [], start: -1, done, resolve, reject };
}

/**
 * A group of written lines is flushed at once while fewer than this many `planned` lines are on disk
 * and not yet begun (the start of a run, a slow disk: a post may soon wait for its line); past it,
 * the flush waits until this many further lines are written or SYNC_WITHIN_MS have passed. A run
 * journaling up to 1,024 events ahead so makes one fsync per few hundred posts rather than one per
 * turn of the event loop (958 for 20,000 events; each cost the main thread, the thread pool and the
 * kernel some 300 us of CPU). A post still waits for its own `planned` line's fsync; what waits
 * longer is only the outcome lines' fsync, which a kill does not need (the file has them), and a
 * crash of the machine loses at most these: the events then read as uncertain, never as unsent.
 */
const SYNC_AHEAD = 256;
const SYNC_EVERY_LINES = 256;
const SYNC_WITHIN_MS = 1000;

const PLANNED = '"status":"planned",';
// The same lengths: a `planned` line becomes a `sending` one, or a `failed` one, in place, needing
// no new disk space.
const SENDING_IN_PLACE = Buffer.from('"status":"sending",');
const FAILED_IN_PLACE = Buffer.from('"status":"failed", ');

/**
 * Appends records to a journal by group commit: the lines queued while a flush is under way are
 * written together and flushed to disk with one fsync, off the main thread, so posts keep going
 * while the disk works. `append` resolves once its line is on disk; lines reach the file in the
 * order they were queued, so a line being on disk means every line queued before it is too. The
 * lines of a batch share one promise: a promise per line was a measurable part of a large run.
 * A `planned` line names the boot it is written in (see above); `began` rewrites it to `sending`
 * in place, just before its post.
 *
 * A group that cannot be written whole (a full disk) is undone (storage/append-log.ts): the file
 * then holds exactly the groups that succeeded, which is what the run reports. Events whose
 * `planned` line is on disk but that were never posted are then marked `failed` (not sent) by
 * `notSent`: in new lines if they fit, else by rewriting their `planned` lines in place.
 */
export class JournalWriter {
  private queue: Batch | undefined;
  private flushing: Promise<void> | undefined;
  /** Set while an fsync is under way: called when new lines are queued, so they are written meanwhile. */
  private wake: (() => void) | undefined;
  private failure: unknown;
  /** The boot as a JSON string, for `planned` lines. */
  private readonly boot = JSON.stringify(bootId() ?? '');
  /** Where the status of each event whose `planned` line is on disk, not begun, with no outcome yet, begins. */
  private readonly plannedAt = new Map<string, number>();
  /** `failed` lines held back by a failure, written on close. */
  private readonly unsent: JournalRecord[] = [];
  /** Written and not yet flushed to disk: their flush is due (syncDue) later. */
  private unsynced: Batch[] = [];
  /** Flushes what is written once SYNC_WITHIN_MS have passed with no flush due before. */
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private syncedAt = monotonicMs();
  private closing = false;

  private constructor(
    private log: AppendLog | undefined,
    private readonly ops: JournalFileOps,
  ) {}

  /**
   * Opens (or creates) the journal for appending, repairing its tail: a torn last line is cut off,
   * a missing final newline added. Fails before anything is sent when the file cannot be written,
   * or is a link, FIFO or device (never written through).
   */
  static open(path: string, display: string, state: JournalState, ops: JournalFileOps = fileOps): JournalWriter {
    let log: AppendLog | undefined;
    try {
      log = AppendLog.open(path, { mode: 0o644, ...(state.torn ? { completeBytes: state.completeBytes } : {}), missingNewline: state.missingNewline });
      log.syncNow();
      if (!state.exists) syncFolder(dirname(path));
    } catch (error) {
      log?.close();
      const why = reasonInWords(error);
      throw new UsageError(`cannot write the journal ${display} (${why}); nothing was sent`, {
        details: ['choose a writable place for it with --journal <file>'],
      });
    }
    return new JournalWriter(log, ops);
  }

  /**
   * Queues one line; resolves once it is on disk, rejects with the file system's error when it
   * cannot be written. After a failure every later line is refused with the same error: a line
   * must not reach the file after one before it was lost.
   */
  append(record: JournalRecord): Promise<void> {
    if (this.log === undefined) return Promise.reject(new Error('the journal is closed'));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const batch = (this.queue ??= newBatch());
    const planned = record.status === 'planned';
    const json = JSON.stringify(record);
    // The boot is added as the last member (a string, not a copy of the record: two lines per event).
    const text = planned && record.boot === undefined ? `${json.slice(0, -1)},"boot":${this.boot}}\n` : `${json}\n`;
    const bytes = Buffer.byteLength(text);
    if (planned) {
      const at = text.indexOf(PLANNED);
      // An ASCII line's byte offsets are its character offsets.
      if (at >= 0) batch.planned.push([record.key, batch.bytes + (bytes === text.length ? at : Buffer.byteLength(text.slice(0, at)))]);
    } else this.plannedAt.delete(record.key);
    batch.lines.push(text);
    batch.bytes += bytes;
    // Waits for the current turn of the event loop to end, so that the lines of every post that
    // finishes in it share one flush.
    this.flushing ??= new Promise<void>((started) => setImmediate(started)).then(() => this.flushQueued());
    if (this.wake) {
      const wake = this.wake;
      this.wake = undefined;
      setImmediate(wake);
    }
    return batch.done;
  }

  /**
   * Marks an event whose `planned` line is on disk as begun, just before its post: the line's status
   * becomes `sending` in place, with a write and no fsync (see above). Throws the file system's error.
   */
  began(key: string): void {
    const at = this.plannedAt.get(key);
    if (at === undefined) throw new Error(`journal: no planned line on disk for ${key}`);
    if (this.log === undefined) throw new Error('the journal is closed');
    this.log.patch(at, SENDING_IN_PLACE);
    this.plannedAt.delete(key);
    // The lines on disk ahead of the posts run low: the written ones are flushed now.
    if (this.plannedAt.size < SYNC_AHEAD && this.unsynced.length > 0) this.startFlush();
  }

  /**
   * Records that an event whose `planned` line was queued was not posted: a `failed` line, so a
   * rerun posts it. After a failure it is written on close, whole, or in place of its `planned` line.
   */
  notSent(record: JournalRecord): void {
    if (this.failure === undefined) this.append(record).catch(() => this.unsent.push(record));
    else this.unsent.push(record);
  }

  /**
   * Writes the queued lines and flushes them to disk, group after group, until the queue is empty.
   * Lines queued while an fsync is under way are written at once (at the end of the turn that
   * queued them), and flushed by the next fsync: an outcome line is in the file for a rerun as
   * soon as it is known, even if the process is killed before the flush (see above).
   */
  private async flushQueued(): Promise<void> {
    let written: Batch[] = this.unsynced;
    this.unsynced = [];
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    for (;;) {
      if (this.queue) await this.writeQueued(written);
      if (written.length === 0) break;
      if (!this.syncDue(written)) {
        // In the file already (a kill loses none of it); flushed with a later group, or by the timer.
        this.unsynced = written;
        this.syncTimer = setTimeout(() => this.startFlush(), SYNC_WITHIN_MS);
        this.syncTimer.unref?.();
        break;
      }
      const group = written;
      written = [];
      let synced = false;
      let syncError: unknown;
      const syncing = this.log!.syncWith(this.ops.fsync).then(
        () => void (synced = true),
        (error: unknown) => void ((synced = true), (syncError = error)),
      );
      while (!synced) {
        await Promise.race([syncing, new Promise<void>((wake) => (this.wake = wake))]);
        this.wake = undefined;
        if (this.queue) await this.writeQueued(written);
      }
      if (syncError === undefined) {
        this.syncedAt = monotonicMs();
        for (const batch of group) {
          for (const [key, at] of batch.planned) this.plannedAt.set(key, batch.start + at);
          batch.resolve();
        }
        continue;
      }
      // The group is undone whole, and what was written after it: the file holds the groups that succeeded.
      this.failure ??= syncError;
      this.log!.undoSince(group[0]!.start);
      for (const batch of [...group, ...written.splice(0)]) batch.reject(this.failure);
    }
    this.flushing = undefined;
  }

  /** Starts a flush unless one is under way (on a later microtask: `flushing` is set before it can end). */
  private startFlush(): void {
    this.flushing ??= Promise.resolve().then(() => this.flushQueued());
  }

  /** Whether the lines written (and not flushed) are flushed now: see SYNC_AHEAD. */
  private syncDue(written: Batch[]): boolean {
    if (this.closing || this.plannedAt.size < SYNC_AHEAD || monotonicMs() - this.syncedAt >= SYNC_WITHIN_MS) return true;
    let lines = 0;
    for (const batch of written) lines += batch.lines.length;
    return lines >= SYNC_EVERY_LINES;
  }

  /** Writes the queued lines (one write in practice; a short write is finished, a failed one undone), then adds them to `written`. */
  private async writeQueued(written: Batch[]): Promise<void> {
    const batch = this.queue!;
    this.queue = undefined;
    try {
      if (this.failure !== undefined) throw this.failure;
      batch.start = await this.log!.appendWith(Buffer.from(batch.lines.join('')), this.ops.write);
      written.push(batch);
    } catch (error) {
      this.failure ??= error;
      batch.reject(this.failure);
    }
  }

  /** Flushes what is queued, marks what was not sent, then closes the file; what could not be written was rejected already. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.unsynced.length > 0) this.startFlush();
    while (this.flushing) await this.flushing;
    if (this.log !== undefined && this.unsent.length > 0) this.markUnsent();
    this.log?.close();
    this.log = undefined;
  }

  /** Events never posted, after a failure: `failed` lines if they fit, else their `planned` lines rewritten in place. */
  private markUnsent(): void {
    const lines = this.unsent.splice(0);
    try {
      this.log!.append(lines.map((r) => `${JSON.stringify(r)}\n`).join(''));
      this.log!.syncNow();
      return;
    } catch {
      // Not even these fit: the same bytes in place say the same.
    }
    for (const r of lines) {
      const at = this.plannedAt.get(r.key);
      if (at === undefined) continue;
      try {
        this.log!.overwrite(at, FAILED_IN_PLACE);
      } catch {
        // Left `planned`: a rerun in this boot posts it; after a reboot it holds it as uncertain (never posted twice).
      }
    }
  }
}
