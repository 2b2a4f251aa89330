/**
 * The one atomic replace: the new content goes to a temp file beside the target (an unpredictable
 * name, O_EXCL, never through a link), then a rename puts it in place. Readers see the old file or
 * the new one, never half of one; when anything fails (a full or read-only disk), the temp file is
 * removed and the old file is left as it was.
 *
 * Durability is the caller's choice, stated where it calls:
 * - `durable: true`: the temp file is fsynced before the rename and the folder after it, so a
 *   power cut leaves the old or the new file, never an empty one (credentials, config, the sync
 *   state, the sandbox snapshot: files a user cannot rebuild).
 * - `durable: false`: no fsync (a report page, the sandbox clock: rebuilt by running again).
 * A symlink, FIFO or folder where the target should be is refused (the link is neither replaced nor
 * followed), so a `config set` on a linked config file says so rather than cutting the link; a
 * caller may instead have a symlink replaced by the new file (`symlink: 'replace'`: the sync state,
 * which `--state` may name through a link): the rename swaps the link itself, never its target.
 */
import {
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { assertOwnFileOrNothing, CREATE_FLAGS, createTemp, ensureFolder, openOwnFile, UPDATE_FLAGS } from './open.js';

export interface ReplaceOptions {
  /**
   * The file's mode, applied exactly (not through the umask). Default 0600. 'shared': a new team
   * file (a project config), 0666 less the umask, as an editor would create it.
   */
  mode?: number | 'shared';
  /** fsync the file before the rename and its folder after (see the header). */
  durable: boolean;
  /** The folder is created (mkdir -p) with this mode when missing; default 0777 (less the umask). */
  folderMode?: number;
  /** A symlink in the target's place: refused (the default), or replaced by the new file. */
  symlink?: 'refuse' | 'replace';
  /**
   * Never over anything: EEXIST when the name is taken, also by a file that appears meanwhile (the
   * temp file is hard-linked to the name, which fails on a taken name, instead of renamed over it).
   */
  exclusive?: boolean;
  /** With `durable`: false when the caller syncs the folder itself, once for many files written into it (convert). */
  syncFolder?: boolean;
}

/** Writes `content` (or what `write` writes to the descriptor) to `path` atomically; returns the bytes written. */
export function replaceFile(path: string, content: string | Buffer | ((fd: number) => number), options: ReplaceOptions): number {
  if (options.exclusive) {
    if (lstatSync(path, { throwIfNoEntry: false }) !== undefined) throw taken(path);
  } else assertOwnFileOrNothing(path, options.symlink === 'replace');
  const exact = options.mode !== 'shared';
  const mode = options.mode === 'shared' ? 0o666 : (options.mode ?? 0o600);
  const { temp, fd } = createTempInFolder(path, mode, options.folderMode);
  let open = true;
  try {
    let bytes: number;
    if (typeof content === 'function') bytes = content(fd);
    else bytes = writeAll(fd, typeof content === 'string' ? Buffer.from(content) : content);
    // open() applied the umask: the file gets exactly the mode asked for.
    if (exact && process.platform !== 'win32') fchmodSync(fd, mode);
    if (options.durable) fsyncSync(fd);
    open = false;
    closeSync(fd);
    if (options.exclusive) {
      linkOrCopy(temp, path);
      rmSync(temp, { force: true });
    } else renameSync(temp, path);
    if (options.durable && options.syncFolder !== false) syncFolder(dirname(path));
    return bytes;
  } catch (error) {
    if (open) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
}

const taken = (path: string) => Object.assign(new Error(`EEXIST: file already exists, '${path}'`), { code: 'EEXIST', path });

/**
 * Gives the complete temp file the name, failing on a taken one; where a filesystem has no hard
 * links, a copy that fails on a taken name (complete too: the temp file is written and synced already).
 */
function linkOrCopy(temp: string, path: string): void {
  try {
    linkSync(temp, path);
  } catch (error) {
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    copyFileSync(temp, path, constants.COPYFILE_EXCL);
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** A temp file beside `path`, the folder made first when it is missing. */
function createTempInFolder(path: string, mode: number, folderMode: number | undefined): { temp: string; fd: number } {
  try {
    return createTemp(path, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    ensureFolder(dirname(path), folderMode);
    return createTemp(path, mode);
  }
}

/** Writes every byte of `bytes` at the descriptor's position; a write that takes nothing is EIO. */
export function writeAll(fd: number, bytes: Buffer, position?: number): number {
  for (let done = 0; done < bytes.length;) {
    const n = writeSync(fd, bytes, done, bytes.length - done, position === undefined ? null : position + done);
    if (n <= 0) throw Object.assign(new Error('the file took no bytes'), { code: 'EIO' });
    done += n;
  }
  return bytes.length;
}

/** Makes a rename or a new name durable; not possible on every platform (Windows), so best effort. */
export function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // The file's own fsync still holds its bytes.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Creates `path` with `content`; EEXIST when anything has the name (a file, a link, a FIFO). A failed write leaves nothing. */
export function createFile(path: string, content: string | Buffer, options: { mode?: number; folderMode?: number } = {}): void {
  ensureFolder(dirname(path), options.folderMode);
  const fd = openOwnFile(path, CREATE_FLAGS, options.mode ?? 0o600);
  try {
    writeAll(fd, typeof content === 'string' ? Buffer.from(content) : content);
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
}

/**
 * Writes `content` over the file in place and cuts it to that length: for a file that shrinks when
 * the disk is full (a token removed from the credentials store), since its blocks are allocated
 * already. Not atomic (a crash in the middle leaves a damaged file), so only the fallback.
 */
export function shrinkInPlace(path: string, content: string): void {
  const fd = openOwnFile(path, UPDATE_FLAGS);
  try {
    const bytes = Buffer.from(content);
    writeAll(fd, bytes, 0);
    ftruncateSync(fd, bytes.length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes a folder of the tool's own and what it holds (a service's history on `sandbox --reset`):
 * a link in its place, or inside it, is removed and never followed. True when there was one.
 */
export function removeOwnFolder(path: string): boolean {
  const had = lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  rmSync(path, { recursive: true, force: true });
  return had;
}

/** Removes a file of the tool's own (a link in its place is removed, not followed); nothing there is fine. */
export function removeOwnFile(path: string): void {
  rmSync(path, { force: true });
}
