/**
 * A lock file beside the sandbox's data file, so processes that share it (parallel `jobs --sandbox`
 * runs, or two `jobs sandbox --data` servers) take turns: every request catches up with what others
 * appended to the file's journal, applies its change and appends it while holding the lock, so no
 * run overwrites or misses another's change (data-file.ts). The critical section is synchronous and
 * as short as the request's own change, however large the state.
 *
 * The lock file records its holder (pid, host, time). A run killed while holding it (kill -9)
 * must not block the next one, so a lock is taken over when its process is gone (same host) or it
 * is older than STALE_MS: far longer than any holder keeps it.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/** A lock older than this is abandoned: a holder keeps it for one request's file read and write. */
export const STALE_MS = 10_000;
/** Past this, give up waiting (the request fails, the client may retry). */
const WAIT_MS = 2 * STALE_MS;

interface Holder {
  pid: number;
  host: string;
  at: number;
  id: string;
}

export function lockPathFor(file: string): string {
  return `${file}.lock`;
}

/** Runs `work` (synchronous, so the lock is held for as short as possible) while holding the file's lock. */
export async function withFileLock<T>(file: string, work: () => T): Promise<T> {
  const lock = lockPathFor(file);
  const id = randomBytes(8).toString('hex');
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    if (tryAcquire(lock, id)) {
      try {
        return work();
      } finally {
        release(lock, id);
      }
    }
    if (breakIfStale(lock)) continue;
    if (Date.now() > deadline) throw new Error(`the sandbox data file is locked by another process (${lock})`);
    // Short, jittered waits: holders keep the lock for milliseconds.
    await new Promise((r) => setTimeout(r, Math.min(50, 2 + attempt) + Math.random() * 5));
  }
}

/**
 * One synchronous try at the lock (breaking it if abandoned), for a process's `exit` handler where
 * nothing can wait: runs `work` and returns true, or returns false when another process holds it.
 */
export function tryWithFileLockSync(file: string, work: () => void): boolean {
  const lock = lockPathFor(file);
  const id = randomBytes(8).toString('hex');
  if (!tryAcquire(lock, id) && !(breakIfStale(lock) && tryAcquire(lock, id))) return false;
  try {
    work();
    return true;
  } finally {
    release(lock, id);
  }
}

function tryAcquire(lock: string, id: string): boolean {
  const holder = JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), id } satisfies Holder);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, holder, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'ENOENT' || attempt > 0) throw error;
    }
    // The folder does not exist yet (a first run): create it then, not before every request.
    mkdirSync(dirname(lock), { recursive: true });
  }
}

function release(lock: string, id: string): void {
  // Only our own lock: if it was taken over as stale, the new holder's lock stays.
  if (readHolder(lock)?.id !== id) return;
  try {
    unlinkSync(lock);
  } catch {
    // already gone
  }
}

function readHolder(lock: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lock, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.at === 'number' && typeof parsed.id === 'string') return parsed as Holder;
  } catch {
    // missing, or written but not yet filled (between create and write)
  }
  return undefined;
}

function isStale(lock: string, holder: Holder | undefined): boolean {
  if (holder) return (holder.host === hostname() && !processAlive(holder.pid)) || Date.now() - holder.at > STALE_MS;
  try {
    // Unreadable content: judge by age only (a fresh lock may not be filled yet).
    return Date.now() - statSync(lock).mtimeMs > STALE_MS;
  } catch {
    return false;
  }
}

/**
 * Removes an abandoned lock; true when the caller should try again at once. The lock is first
 * renamed aside, atomically, and then checked to be the one judged stale: if another process had
 * replaced it in between, it is put back (link fails rather than overwrite a newer one).
 */
function breakIfStale(lock: string): boolean {
  const holder = readHolder(lock);
  if (!isStale(lock, holder)) return false;
  const aside = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return true; // gone already: try again
  }
  const moved = readHolder(aside);
  if (holder && moved && moved.id !== holder.id) {
    try {
      linkSync(aside, lock);
    } catch {
      // a newer lock exists already
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // nothing to clean up
  }
  return true;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
