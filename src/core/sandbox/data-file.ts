/**
 * A sandbox data file, kept so that a request costs what it changes, not what the file holds:
 *
 * - `<file>` is a snapshot: plain JSON of the whole state (what `--reset` clears and a person reads);
 * - `<file>.journal` holds the changes made since, one JSON line each (an advert as it now is, a
 *   deletion, an event, a reset), appended under the file's lock (storage/lock.ts).
 *
 * Before each request a process catches up under the lock: it reads only the journal lines other
 * processes appended since it last looked, and reloads everything only when the snapshot itself
 * was replaced. The journal is folded into a new snapshot (compaction) when it outgrows the
 * snapshot, so appends and rewrites together stay proportional to the changes, and when a sandbox
 * closes or its process exits, so a file at rest is the plain JSON of everything.
 *
 * The journal's first line names the snapshot it extends (the snapshot's inode): after a crash
 * between writing a new snapshot and removing the old journal, the old journal is recognised as
 * already folded in and dropped, so no change is applied twice.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { AppendLog } from '../storage/append-log.js';
import { assertOwnFileOrNothing } from '../storage/open.js';
import { removeOwnFile, replaceFile, writeAll } from '../storage/replace.js';
import { ConfigError } from '../errors/failures.js';
import { MAX_JSON_DEPTH, nestingExceeds } from './http-io.js';
import { SandboxStore, emptyState, type Change } from './store.js';
import type { SandboxState } from './types.js';

export function journalPathFor(file: string): string {
  return `${file}.journal`;
}

/** Identifies one version of the snapshot (a rename gives a new inode; the time tells a reused one apart). */
function snapshotId(file: string): string {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'none';
  }
}

export function readSnapshot(file: string): SandboxState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw new ConfigError(`cannot read the sandbox data file ${file}: ${(error as Error).message}`);
  }
  if (text.trim() === '') return emptyState();
  try {
    // What the sandbox writes nests a few levels above the bodies it accepts; deeper was not written by it.
    if (nestingExceeds(text, MAX_JSON_DEPTH + 8)) throw new Error('nested too deeply');
    const parsed = JSON.parse(text) as Partial<SandboxState>;
    if (parsed.version !== 1 || !Array.isArray(parsed.adverts) || !Array.isArray(parsed.events)) throw new Error('unexpected shape');
    return { version: 1, nextSerial: Number(parsed.nextSerial) || 1, adverts: parsed.adverts, events: parsed.events };
  } catch (error) {
    throw invalid(file, error);
  }
}

function invalid(file: string, error: unknown): ConfigError {
  return new ConfigError(`the sandbox data file ${file} is not valid sandbox state (${(error as Error).message})`, {
    details: ['Delete it, or start the sandbox with --reset to clear it.'],
  });
}

/** The whole state as files hold it (snapshot and journal), for a reader that does not keep it (hints). */
export function loadStore(file: string): SandboxStore {
  const data = new DataFile(file);
  return data.load();
}

/** Removes a data file and its journal; true when there was any state. */
export function removeData(file: string): boolean {
  const journal = journalPathFor(file);
  const had = existsSync(file) || existsSync(journal);
  removeOwnFile(file);
  removeOwnFile(journal);
  return had;
}

export class DataFile {
  readonly journal: string;
  /** The snapshot the state in memory was read from, and how much of its journal was applied. */
  private base = '';
  private journalIno = -1;
  private offset = 0;
  private snapshotBytes = 0;
  /** The journal on disk extends an older snapshot: the next append replaces it. */
  private staleJournal = false;

  constructor(readonly file: string) {
    this.journal = journalPathFor(file);
  }

  /** Reads snapshot and journal whole. */
  load(): SandboxStore {
    // A sandbox starts without the lock, so another process may replace the snapshot while it is
    // read: the state must be that of the snapshot the id names, or the journal extending the new
    // one would be applied to the old (and a compaction here would then drop what the new one has).
    let state: SandboxState;
    let base = snapshotId(this.file);
    for (let attempt = 0; ; attempt++) {
      state = readSnapshot(this.file);
      const after = snapshotId(this.file);
      if (after === base || attempt >= 100) break;
      base = after;
    }
    const store = SandboxStore.from(state);
    this.base = base;
    this.snapshotBytes = fileSize(this.file);
    this.journalIno = -1;
    this.offset = 0;
    this.staleJournal = false;
    this.catchUp(store);
    return store;
  }

  /**
   * Brings `store` up to date with the files (under the lock): the journal lines appended since,
   * or, when the snapshot was replaced, a fresh load (returned instead of `store`).
   */
  refresh(store: SandboxStore): SandboxStore {
    if (snapshotId(this.file) !== this.base) return this.load();
    return this.catchUp(store) ? store : this.load();
  }

  /**
   * Applies new journal lines; false when the journal was replaced and a full load is needed.
   * Changes no file: it also runs without the lock (when a sandbox starts).
   */
  private catchUp(store: SandboxStore): boolean {
    let fd: number;
    try {
      fd = openSync(this.journal, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // None yet; or it was folded into a new snapshot (which the caller has noticed) or removed.
      return this.journalIno === -1;
    }
    try {
      const st = fstatSync(fd);
      if (this.journalIno !== -1 && (st.ino !== this.journalIno || st.size < this.offset)) return false;
      if (st.size === this.offset) return true;
      const buffer = Buffer.alloc(st.size - this.offset);
      readSync(fd, buffer, 0, buffer.length, this.offset);
      // Complete lines only: a line cut short by a crash has no newline (append() drops it).
      const end = buffer.lastIndexOf(0x0a) + 1;
      let lines = buffer.subarray(0, end).toString('utf8').split('\n');
      lines.pop();
      if (this.offset === 0 && lines.length > 0) {
        const header = parseLine(this.journal, lines[0]!) as { base?: unknown };
        // Extends another snapshot: folded into this one already (a crash came before its removal).
        this.staleJournal = header.base !== this.base;
        if (this.staleJournal) return true;
        lines = lines.slice(1);
      }
      for (const line of lines) store.apply(parseLine(this.journal, line) as Change);
      this.journalIno = st.ino;
      this.offset += end;
      return true;
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Appends a request's changes, compacting when the journal has outgrown the snapshot. Runs under
   * the lock, right after refresh(): what the journal holds beyond what was read is a line cut
   * short by a crash, or a journal left over from an older snapshot, and both are dropped.
   */
  append(store: SandboxStore, changes: Change[]): void {
    if (changes.length === 0) return;
    if (changes.some((c) => 'reset' in c)) {
      // Nothing before a reset matters: start a fresh snapshot instead.
      this.compact(store);
      return;
    }
    if (this.staleJournal) {
      removeOwnFile(this.journal);
      this.staleJournal = false;
      this.journalIno = -1;
      this.offset = 0;
    }
    let text = changes.map((c) => `${JSON.stringify(c)}\n`).join('');
    if (this.offset === 0) text = `${JSON.stringify({ base: this.base })}\n${text}`;
    // Beyond what was read is a line cut short by a crash: cut off. No fsync: the sandbox is a
    // test double, and a change lost to a power cut is one a test makes again.
    try {
      // The snapshot is rewritten in place of a link or FIFO never (replaceFile refuses): refused
      // before the change is journaled, so a request that fails has kept nothing.
      assertOwnFileOrNothing(this.file);
      const log = AppendLog.open(this.journal, { mode: 0o600, folderMode: 0o777, completeBytes: this.offset });
      try {
        log.append(text);
        this.offset = log.size;
        this.journalIno = log.ino;
      } finally {
        log.close();
      }
    } catch (error) {
      throw namingFile(this.journal, error);
    }
    // Rewriting the snapshot costs its size: done once the journal has grown as large, it costs
    // each change a constant share (and a small state is mostly plain JSON, a new one at once).
    if (this.offset > this.snapshotBytes) this.compact(store);
  }

  /** True when changes are in the journal rather than the snapshot. */
  get journaled(): boolean {
    return this.offset > 0 || existsSync(this.journal);
  }

  /** Writes the whole state as the snapshot (atomically) and removes the journal it absorbed (under the lock). */
  compact(store: SandboxStore): void {
    // Not fsynced (a test double); the journal goes only once the new snapshot is in place.
    const state = store.snapshot();
    try {
      this.snapshotBytes = replaceFile(this.file, (fd) => writeSnapshot(fd, state), { durable: false, mode: 0o600 });
    } catch (error) {
      throw namingFile(this.file, error);
    }
    removeOwnFile(this.journal);
    this.base = snapshotId(this.file);
    this.journalIno = -1;
    this.offset = 0;
    this.staleJournal = false;
  }
}

/**
 * Plain JSON with one advert and one event per line: written piece by piece, so 100,000 adverts
 * never become one giant string, and a diff of two snapshots shows the adverts that changed.
 */
function writeSnapshot(fd: number, state: SandboxState): number {
  let bytes = 0;
  let chunk = '';
  const put = (text: string) => {
    chunk += text;
    if (chunk.length > 1 << 20) flush();
  };
  const flush = () => {
    bytes += writeAll(fd, Buffer.from(chunk));
    chunk = '';
  };
  const list = (name: string, items: readonly unknown[], last: boolean) => {
    put(`  ${JSON.stringify(name)}: [`);
    items.forEach((item, i) => put(`${i === 0 ? '' : ','}\n    ${JSON.stringify(item)}`));
    put(`${items.length > 0 ? '\n  ' : ''}]${last ? '' : ','}\n`);
  };
  put(`{\n  "version": ${state.version},\n  "nextSerial": ${state.nextSerial},\n`);
  list('adverts', state.adverts, false);
  list('events', state.events, true);
  put('}\n');
  flush();
  return bytes;
}

/**
 * A write's error names the file it was for: the file system's errors from a write to an open file
 * (a full disk: ENOSPC) name none, and the embedded sandbox tells its user which file it could not
 * keep a change in (sandbox/embedded.ts).
 */
function namingFile(path: string, error: unknown): unknown {
  if (error instanceof Error && 'code' in error && (error as NodeJS.ErrnoException).path === undefined) (error as NodeJS.ErrnoException).path = path;
  return error;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function parseLine(file: string, line: string): unknown {
  try {
    if (nestingExceeds(line, MAX_JSON_DEPTH + 8)) throw new Error('nested too deeply');
    return JSON.parse(line);
  } catch (error) {
    throw invalid(file, error);
  }
}
