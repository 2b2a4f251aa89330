/**
 * The one lock: a file `<file>.lock` beside what it guards, naming its holder
 * (`{"pid", "host", "started_at", "id"}`). One primitive, two policies:
 * - `acquireLock` fails fast (a sync per state, an events run per journal: a second run is told
 *   who holds it);
 * - `withLock` / `tryWithLockSync` wait (sandbox requests take turns on its data file for
 *   milliseconds each).
 *
 * Taking it: the holder's text goes to a temp file (unpredictable name, O_EXCL, never through a
 * link), which is hard-linked to `<file>.lock`: the link fails when the lock exists, and a lock is
 * never seen half written. (Without hard links: an exclusive create, then the write.)
 *
 * Taking over a stale lock (its process is gone from this host, it names no process, or it is
 * older than `staleAfterMs`) without a race: the lock is identified by its inode and change time.
 * A taker first creates `<file>.lock.<identity>.claim` with O_EXCL, so of all the processes that
 * judged that same lock stale exactly one proceeds; it then checks that the lock is still the one
 * judged (a slow taker finds a newer lock and backs off), and renames its own lock over it in one
 * step. No one else can replace it in between: a new lock cannot be created while the stale one
 * exists, and the claim is that taker's alone. The claim is removed afterwards; one left by a
 * taker killed in those microseconds is removed once it is older than CLAIM_STALE_MS.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, readFileSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { UsageError } from '../errors/failures.js';
import { codeOf, whyUnwritable } from './errors.js';
import { assertOwnFileOrNothing, CREATE_FLAGS, createTemp, ensureFolder, kindOf, openOwnFile } from './open.js';
import { writeAll } from './replace.js';

export interface Lock {
  release(): void;
}

export interface Holder {
  pid: number;
  host: string;
  started_at: string;
  id: string;
}

/** A claim older than this was left by a taker that died between claiming and taking over. */
export const CLAIM_STALE_MS = 10_000;

export function lockPathFor(file: string): string {
  return `${file}.lock`;
}

export interface TryOptions {
  /** A holder older than this is stale even if its process runs (the sandbox's requests). */
  staleAfterMs?: number;
  /** Take it whoever holds it (`--unlock`). */
  force?: boolean;
  /** Told when a stale lock is taken over: why (for the notice). */
  onTakeover?: (why: string) => void;
}

export type TryResult = { held: Lock; id: string } | { holder: Holder | undefined };

/** One attempt: the lock (taking over a stale one), or who holds it. Throws the file system's errors. */
export function tryLock(lock: string, options: TryOptions = {}): TryResult {
  const me: Holder = { pid: process.pid, host: hostname(), started_at: new Date().toISOString(), id: randomBytes(8).toString('hex') };
  const text = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 8; attempt++) {
    if (create(lock, text)) return { held: releaser(lock, me.id), id: me.id };
    const seen = identity(lock);
    if (seen === undefined) continue; // released meanwhile: try again
    // A link, FIFO or folder planted as the lock is not ours to replace: refused by name.
    assertOwnFileOrNothing(lock);
    const holder = readHolder(lock);
    const why = options.force ? 'the lock (--unlock)' : staleness(lock, holder, options.staleAfterMs);
    if (!why) return { holder };
    const taken = takeOver(lock, seen, text);
    if (taken === 'taken') {
      options.onTakeover?.(why);
      return { held: releaser(lock, me.id), id: me.id };
    }
    // Another taker is replacing it this instant: a moment for it to finish, then look again
    // (the new holder is the one to name, not the process that left the stale lock).
    if (taken === 'lost') pause(2);
  }
  return { holder: readHolder(lock) };
}

/**
 * The fail-fast policy: the lock on `filePath`, or a UsageError naming who holds it (exit 2,
 * nothing sent). A stale lock is taken over, with a notice.
 */
export function acquireLock(
  filePath: string,
  options: {
    /** Remove the lock whoever holds it (`--unlock`). */
    unlock?: boolean;
    notice: (text: string) => void;
    /** What holds it, for messages: `sync`, `events run`. */
    what?: string;
    /** What it guards, for messages: `state`, `journal`. */
    file?: string;
  },
): Lock {
  const what = options.what ?? 'sync';
  const file = options.file ?? 'state';
  const path = lockPathFor(filePath);
  let result: TryResult;
  try {
    result = tryLock(path, { force: options.unlock, onTakeover: (why) => options.notice(`removing ${why}: ${path}`) });
  } catch (error) {
    throw new UsageError(`cannot create the lock ${path}: ${whyUnwritable(error)}; nothing was sent`, {
      cause: error,
      details: [`choose a writable place for the ${file}`],
    });
  }
  if ('held' in result) return result.held;
  const h = result.holder;
  if (!h) throw new UsageError(`cannot take the lock ${path}`);
  throw new UsageError(`another ${what} holds the lock on this ${file} (process ${h.pid} on ${h.host}, since ${h.started_at}): ${path}`, {
    details: ['wait for it to finish; if it is not running any more, run again with --unlock'],
  });
}

/** The sandbox's holders keep it for one request's read and write: older than this, it is abandoned. */
export const STALE_MS = 10_000;
/** Past this, a waiter gives up (the request fails, the client may retry). */
const WAIT_MS = 2 * STALE_MS;

/** The waiting policy: runs `work` (synchronous, so the lock is held briefly) while holding the lock of `file`. */
export async function withLock<T>(file: string, work: () => T, options: { staleAfterMs?: number; waitMs?: number; what?: string } = {}): Promise<T> {
  const lock = lockPathFor(file);
  const deadline = Date.now() + (options.waitMs ?? WAIT_MS);
  for (let attempt = 0; ; attempt++) {
    const result = tryLock(lock, { staleAfterMs: options.staleAfterMs ?? STALE_MS });
    if ('held' in result) {
      try {
        return work();
      } finally {
        result.held.release();
      }
    }
    if (Date.now() > deadline) throw new Error(`${options.what ?? 'the sandbox data file'} is locked by another process (${lock})`);
    // Short, jittered waits: holders keep the lock for milliseconds.
    await new Promise((r) => setTimeout(r, Math.min(50, 2 + attempt) + Math.random() * 5));
  }
}

/** One synchronous try, for an `exit` handler where nothing can wait: runs `work` and returns true, or false when held. */
export function tryWithLockSync(file: string, work: () => void, options: { staleAfterMs?: number } = {}): boolean {
  const result = tryLock(lockPathFor(file), { staleAfterMs: options.staleAfterMs ?? STALE_MS });
  if (!('held' in result)) return false;
  try {
    work();
    return true;
  } finally {
    result.held.release();
  }
}

/** Removes the lock if it is still ours (a lock taken over as stale belongs to its new holder). */
function releaser(lock: string, id: string): Lock {
  return {
    release: () => {
      if (readHolder(lock)?.id !== id) return;
      try {
        unlinkSync(lock);
      } catch {
        // gone already
      }
    },
  };
}

/** Creates the lock holding `text`; false when it exists. */
function create(lock: string, text: string): boolean {
  let made: { temp: string; fd: number };
  try {
    made = createTemp(lock, 0o644);
  } catch (error) {
    // The folder is made on first use only (the sandbox takes the lock per request).
    if (codeOf(error) !== 'ENOENT') throw error;
    ensureFolder(dirname(lock));
    made = createTemp(lock, 0o644);
  }
  const { temp, fd } = made;
  try {
    try {
      writeAll(fd, Buffer.from(text));
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, lock);
      return true;
    } catch (error) {
      const code = codeOf(error);
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    }
    // File systems without hard links: exclusive create, then write (a moment where it is empty).
    let lockFd: number;
    try {
      lockFd = openOwnFile(lock, CREATE_FLAGS, 0o644);
    } catch (error) {
      if (codeOf(error) === 'EEXIST') return false;
      throw error;
    }
    try {
      writeAll(lockFd, Buffer.from(text));
    } finally {
      closeSync(lockFd);
    }
    return true;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Which lock file this is: inode and change time (a new lock is a new inode). Undefined when there is none. */
function identity(lock: string): string | undefined {
  try {
    const s = lstatSync(lock, { bigint: true });
    return `${s.ino}-${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * Replaces the stale lock `seen` with ours; `taken`, `lost` (another taker or a newer lock), or
 * `retry` (it went away, or an abandoned claim was cleared).
 */
function takeOver(lock: string, seen: string, text: string): 'taken' | 'lost' | 'retry' {
  const claim = `${lock}.${seen}.claim`;
  let fd: number;
  try {
    fd = openOwnFile(claim, CREATE_FLAGS, 0o600);
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error;
    // Another taker has it; one that died holding it for long is cleared.
    try {
      if (Date.now() - statSync(claim).mtimeMs > CLAIM_STALE_MS) {
        rmSync(claim, { force: true });
        return 'retry';
      }
    } catch {
      return 'retry';
    }
    return 'lost';
  }
  closeSync(fd);
  try {
    // Still the lock judged stale? A slow taker finds the new holder's lock here and backs off.
    if (identity(lock) !== seen) return 'lost';
    const { temp, fd: own } = createTemp(lock, 0o644);
    try {
      try {
        writeAll(own, Buffer.from(text));
      } finally {
        closeSync(own);
      }
      renameSync(temp, lock);
    } catch (error) {
      // A full disk mid-write, or a failed rename: no temp file stays behind.
      rmSync(temp, { force: true });
      throw error;
    }
    return 'taken';
  } finally {
    rmSync(claim, { force: true });
  }
}

/** Why the lock is stale, in words; undefined when its holder may still be at work. */
function staleness(lock: string, holder: Holder | undefined, staleAfterMs: number | undefined): string | undefined {
  if (!holder) return 'a lock that names no process (left by a crash)';
  if (holder.host === hostname() && !isRunning(holder.pid)) return `a stale lock left by process ${holder.pid}, which is no longer running`;
  if (staleAfterMs !== undefined) {
    const at = Date.parse(holder.started_at);
    const since = Number.isNaN(at) ? mtimeOf(lock) : at;
    if (since !== undefined && Date.now() - since > staleAfterMs)
      return `a lock held for more than ${Math.round(staleAfterMs / 1000)} s by process ${holder.pid}`;
  }
  return undefined;
}

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The holder the lock names; undefined when it names none (empty, cut short, not a file, not ours). */
export function readHolder(lock: string): Holder | undefined {
  let text: string;
  try {
    // Not a lock of ours (a FIFO would hang the read, a link points elsewhere): names no process.
    if (kindOf(lstatSync(lock))) return undefined;
    text = readFileSync(lock, { encoding: 'utf8', flag: 'r' });
  } catch {
    return undefined;
  }
  try {
    const v = JSON.parse(text) as (Partial<Holder> & { at?: unknown }) | null;
    if (!v || !Number.isInteger(v.pid) || (v.pid as number) <= 0 || typeof v.host !== 'string') return undefined;
    // Locks written before the one lock: the sandbox's held `at` (epoch ms), the sync's no id.
    const started = typeof v.started_at === 'string' ? v.started_at : typeof v.at === 'number' ? new Date(v.at).toISOString() : '';
    return { pid: v.pid as number, host: v.host, started_at: started, id: typeof v.id === 'string' ? v.id : '' };
  } catch {
    return undefined;
  }
}

/** A synchronous pause (the fail-fast policy runs where nothing can wait). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
