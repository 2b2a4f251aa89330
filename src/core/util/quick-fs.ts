/**
 * Promise-shaped file reads done synchronously. A CLI reads a handful of small files before it can
 * do anything, and node:fs/promises alone (with the stream and readline modules it pulls in) costs
 * more at start-up than these reads; errors still arrive as rejections, as with fs/promises.
 *
 * Files are read only when they are regular files: a FIFO given as a file would block the read
 * forever (and the synchronous read ignores Ctrl-C), a device such as /dev/zero never ends or
 * reads as empty. Such paths are refused by name from `stat`, before they are opened.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync, type Dirent, type Stats } from 'node:fs';

/** The error for a path that exists but is not a regular file (code ENOTREG, or EISDIR for a folder). */
export class NotRegularFileError extends Error {
  readonly code: 'ENOTREG' | 'EISDIR';
  constructor(
    readonly path: string,
    /** In words: "a FIFO (named pipe)", "a character device", ... */
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file`);
    this.code = kind === 'a folder' ? 'EISDIR' : 'ENOTREG';
  }
}

/** What a path is, in words, when it is not a regular file; undefined for a regular file. */
export function notRegularKind(
  info: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>,
): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/**
 * Whether nothing is at `path` (following symlinks: a dangling one is nothing), without the exception
 * (and its stack trace) a failed open makes. Any other failure (EACCES, ENOTDIR) is not "missing":
 * the read after says why.
 */
export function isMissing(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/** Stats `path` (following symlinks) and throws NotRegularFileError unless it is a regular file. */
export function statRegularFile(path: string): Stats {
  const info = statSync(path);
  const kind = notRegularKind(info);
  if (kind) throw new NotRegularFileError(path, kind);
  return info;
}

/** Why a path could not be read, in words, from a read error (for messages: "cannot read X: <why>"). */
export function whyUnreadable(error: unknown): string {
  if (error instanceof NotRegularFileError) return error.kind === 'a folder' ? 'it is a folder' : `it is ${error.kind}, not a regular file`;
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'it does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ELOOP':
      return 'a symlink loop (too many levels of symbolic links)';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    default:
      return code ?? (error as Error).message;
  }
}

// Opened non-blocking: should the file be swapped for a FIFO after the stat, the open still returns.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads a regular file whole; refuses anything else without opening it. A file larger than
 * `maxBytes` is not read: its size is returned instead.
 */
export function readRegularFileSync(path: string, maxBytes = Number.MAX_SAFE_INTEGER): { bytes: Buffer } | { tooLarge: number } {
  statRegularFile(path);
  const fd = openSync(path, READ_FLAGS);
  try {
    const info = fstatSync(fd);
    const kind = notRegularKind(info);
    if (kind) throw new NotRegularFileError(path, kind);
    if (info.size > maxBytes) return { tooLarge: info.size };
    // A size of 0 is not always an empty file: procfs and sysfs files (/proc/self/environ) report 0
    // and hold text. Such a file is read to its end, within maxBytes.
    if (info.size === 0) return readToEnd(fd, maxBytes);
    const buffer = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < info.size) {
      const n = readSync(fd, buffer, read, info.size - read, null);
      if (n === 0) break;
      read += n;
    }
    return { bytes: buffer.subarray(0, read) };
  } finally {
    closeSync(fd);
  }
}

function readToEnd(fd: number, maxBytes: number): { bytes: Buffer } | { tooLarge: number } {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return { bytes: Buffer.concat(chunks, total) };
    total += n;
    if (total > maxBytes) return { tooLarge: total };
    chunks.push(chunk.subarray(0, n));
  }
}

/** Reads a regular file whole (see readRegularFileSync). */
export function readRegularBytesSync(path: string): Buffer {
  const read = readRegularFileSync(path);
  if ('tooLarge' in read) throw new RangeError(`${path}: ${read.tooLarge} bytes is more than can be read`);
  return read.bytes;
}

export async function readFile(path: string, encoding: 'utf8'): Promise<string> {
  return readRegularBytesSync(path).toString(encoding);
}

export async function stat(path: string): Promise<Stats> {
  return statSync(path);
}

export async function readdir(path: string): Promise<string[]>;
export async function readdir(path: string, options: { withFileTypes: true }): Promise<Dirent[]>;
export async function readdir(path: string, options?: { withFileTypes: true }): Promise<string[] | Dirent[]> {
  return options ? readdirSync(path, options) : readdirSync(path);
}
