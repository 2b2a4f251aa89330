/**
 * One run per file at a time (a sync per state, an events run per journal): a lock file beside it
 * naming the process that holds it. A lock left by a process that no longer runs is taken over, and
 * so is one that names no process (a crash, or a full disk, left it empty or cut short): the lock
 * is created with its content in one step, so a lock being taken is never seen empty.
 */
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { UsageError } from '../errors/failures.js';

export interface Lock {
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
  started_at: string;
}

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
  const path = `${filePath}.lock`;
  const cannot = (error: unknown) =>
    new UsageError(`cannot create the lock ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was sent`, {
      details: [`choose a writable place for the ${file}`],
    });
  const me: Holder = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      create(path, `${JSON.stringify(me)}\n`);
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannot(error);
      const holder = readHolder(path);
      // Released between our attempt and the read: try again.
      if (holder === 'gone') continue;
      const stale = holder === undefined ? 'a lock that names no process (left by a crash)' : holder.host === me.host && !isRunning(holder.pid) ? `a stale lock left by process ${holder.pid}, which is no longer running` : undefined;
      if (options.unlock || stale) {
        options.notice(`removing ${stale ?? 'the lock (--unlock)'}: ${path}`);
        try {
          rmSync(path, { force: true });
        } catch (removal) {
          throw cannot(removal);
        }
        continue;
      }
      throw new UsageError(`another ${what} holds the lock on this ${file} (process ${holder!.pid} on ${holder!.host}, since ${holder!.started_at}): ${path}`, {
        details: ['wait for it to finish; if it is not running any more, run again with --unlock'],
      });
    }
  }
  throw new UsageError(`cannot take the lock ${path}`);
}

/**
 * Creates `path` holding `text`, failing with EEXIST when it exists: the text goes to a file of
 * this process's own, which is then hard-linked into place (atomic, and never empty when seen).
 */
function create(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const own = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(own, text);
    linkSync(own, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // File systems without hard links: exclusive create, then write (a short window where it is empty).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    writeFileSync(path, text, { flag: 'wx' });
  } finally {
    rmSync(own, { force: true });
  }
}

/** The holder the lock names; undefined when it names none (empty, cut short, not ours); `gone` when released meanwhile. */
function readHolder(path: string): Holder | 'gone' | undefined {
  let text: string;
  try {
    // Not a lock of ours (a FIFO would hang the read): taken as naming no process.
    if (!statSync(path).isFile()) return undefined;
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const v = JSON.parse(text) as Partial<Holder> | null;
    return v && Number.isInteger(v.pid) && (v.pid as number) > 0 && typeof v.host === 'string' ? (v as Holder) : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
