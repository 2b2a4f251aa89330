/**
 * Opening a file of the tool's own for writing, never through something planted in its place. A
 * pull request can commit a symlink named like the sync log into an adverts folder; CI then runs
 * `jobs sync` on it. Every open here passes O_NOFOLLOW (a symlink as the last part of the path
 * fails with ELOOP) and O_NONBLOCK (a FIFO without a reader fails with ENXIO instead of hanging),
 * and what was opened is checked with fstat to be a regular file, else refused by name.
 * Temp files get an unpredictable name and O_EXCL: a link planted under a guessed name is never
 * opened, it only makes the create fail.
 */
import { notRegularKind } from '../util/quick-fs.js';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { NotOwnFileError } from './errors.js';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** O_WRONLY|O_APPEND|O_CREAT, never following a link. */
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK;
/** As APPEND_FLAGS, readable too (a log whose last byte is checked before appending). */
export const READ_APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK;
/** A new file only: fails when anything (a file, a link, a FIFO) has the name. */
export const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW | NONBLOCK;
/** An existing file, to truncate or rewrite in place. */
export const UPDATE_FLAGS = constants.O_WRONLY | NOFOLLOW | NONBLOCK;
/** An existing file, to read. */
export const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK;

/**
 * Reads a file of the tool's own whole, opened as openOwnFile opens: a FIFO planted in its place
 * is refused by name (NotOwnFileError), never waited on; so are a link, a device and a folder.
 */
export function readOwnFile(path: string): string {
  const fd = openOwnFile(path, READ_FLAGS);
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** What a path is, in words, when it is not a regular file (a link seen by lstat, or what quick-fs names). */
export function kindOf(info: Parameters<typeof notRegularKind>[0] & { isSymbolicLink(): boolean }): string | undefined {
  return info.isSymbolicLink() ? 'a symbolic link' : notRegularKind(info);
}

/**
 * Opens `path` with `flags` (one of the constants above) and returns the descriptor of a regular
 * file; anything else in its place is refused with NotOwnFileError (a symlink: ELOOP turned into
 * that error, so the message names the link).
 */
export function openOwnFile(path: string, flags: number, mode = 0o600): number {
  let fd: number;
  try {
    fd = openSync(path, flags, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: a symlink (O_NOFOLLOW); ENXIO: a FIFO with no reader, or a device; EISDIR: a folder.
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR') {
      const kind = lstatKind(path);
      if (kind) throw new NotOwnFileError(path, kind);
    }
    throw error;
  }
  const kind = kindOf(fstatSync(fd));
  if (kind) {
    closeSync(fd);
    throw new NotOwnFileError(path, kind);
  }
  return fd;
}

/** Refuses `path` when something other than a regular file is there (a symlink too, unless `linkAllowed`); nothing there is fine. */
export function assertOwnFileOrNothing(path: string, linkAllowed = false): void {
  const kind = lstatKind(path);
  if (kind && !(linkAllowed && kind === 'a symbolic link')) throw new NotOwnFileError(path, kind);
}

function lstatKind(path: string): string | undefined {
  try {
    return kindOf(lstatSync(path));
  } catch {
    return undefined;
  }
}

/** A fresh, unpredictable temp name beside `path`: `.<name>.<random>.tmp`. */
export function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
}

/** Creates a temp file beside `path` (O_EXCL, an unpredictable name); returns its name and descriptor. */
export function createTemp(path: string, mode: number): { temp: string; fd: number } {
  for (let attempt = 0; ; attempt++) {
    const temp = tempNameFor(path);
    try {
      return { temp, fd: openOwnFile(temp, CREATE_FLAGS, mode) };
    } catch (error) {
      // A name taken already (64 random bits: planted, not guessed) is skipped, a few times at most.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
  }
}

/** mkdir -p of a folder of the tool's own (private ones 0700); `tighten` sets the mode of one that exists too. */
export function ensureFolder(dir: string, mode = 0o777, options: { tighten?: boolean } = {}): void {
  try {
    mkdirSync(dir, { recursive: true, mode });
  } catch (error) {
    // Node's recursive mkdir says ENOENT for a folder it cannot make on a read-only disk (EROFS):
    // the first missing folder, made without recursion, throws the real cause.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    let first = dir;
    while (dirname(first) !== first && !existsSync(dirname(first))) first = dirname(first);
    mkdirSync(first, { mode });
    mkdirSync(dir, { recursive: true, mode });
  }
  if (options.tighten && process.platform !== 'win32') {
    try {
      chmodSync(dir, mode);
    } catch {
      // Not ours to change (another owner): the file's own 0600 still holds.
    }
  }
}
