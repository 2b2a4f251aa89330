/**
 * The one append log: a file of whole lines that only grows, opened through openOwnFile (never a
 * link, FIFO or device). Each append is all or nothing: when a write is cut short (a full disk, a
 * file size limit), the file is cut back to where that append began, so no half line stays behind
 * and what the file holds is exactly the appends that succeeded. A torn last line left by a crash
 * is cut off when the log is opened, and a last line missing its newline gets one.
 *
 * Durability per caller (the `sync()` call is theirs):
 * - the events journal fsyncs each group of `planned` lines before the posts they announce go out
 *   (exactly-once events rest on it), and marks each post as begun with an unsynced `patch`;
 * - the sync log does not fsync: a line lost to a power cut means an advert posted again with the
 *   same content (a PUT is idempotent), and an fsync per advert would cost a large sync dearly;
 * - the history and the sandbox journal do not fsync: a lost snapshot or sandbox change is
 *   harmless (the next `stats` run records one again; the sandbox is a test double).
 */
import { closeSync, fstatSync, fsync, fsyncSync, ftruncateSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { APPEND_FLAGS, ensureFolder, openOwnFile, READ_APPEND_FLAGS, UPDATE_FLAGS } from './open.js';
import { writeAll } from './replace.js';
import { codeOf } from './errors.js';

export interface AppendLogOptions {
  /** Mode of a new file (default 0600). */
  mode?: number;
  /** Create the folder when missing, with this mode. */
  folderMode?: number;
  /** Bytes up to the end of the last whole line, when the caller read the file: a torn tail is cut there. */
  completeBytes?: number;
  /** The last line is whole but lacks its newline: one is added before the next append. */
  missingNewline?: boolean;
  /** Without completeBytes: look at the last byte and add a newline when it is not one. */
  endWithNewline?: boolean;
}

export class AppendLog {
  /** The file's length after the last append that succeeded. */
  private committed: number;
  private fd: number | undefined;
  /** For positioned writes (patch): a descriptor without O_APPEND, opened on first use. */
  private updateFd: number | undefined;

  private constructor(
    readonly path: string,
    fd: number,
    committed: number,
  ) {
    this.fd = fd;
    this.committed = committed;
  }

  /** Opens (creating) the log; throws the file system's error, or NotOwnFileError for a link, FIFO or device. */
  static open(path: string, options: AppendLogOptions = {}): AppendLog {
    const flags = options.endWithNewline ? READ_APPEND_FLAGS : APPEND_FLAGS;
    let fd: number;
    try {
      fd = openOwnFile(path, flags, options.mode ?? 0o600);
    } catch (error) {
      // The folder is made on first use only, not before every append (the sandbox appends per request).
      if (options.folderMode === undefined || codeOf(error) !== 'ENOENT') throw error;
      ensureFolder(dirname(path), options.folderMode);
      fd = openOwnFile(path, flags, options.mode ?? 0o600);
    }
    try {
      let size = fstatSync(fd).size;
      if (options.completeBytes !== undefined && options.completeBytes < size) {
        ftruncateSync(fd, options.completeBytes);
        size = options.completeBytes;
      }
      let newline = options.missingNewline === true && size > 0;
      if (options.endWithNewline && size > 0) {
        const last = Buffer.alloc(1);
        readSync(fd, last, 0, 1, size - 1);
        newline = last[0] !== 0x0a;
      }
      const log = new AppendLog(path, fd, size);
      if (newline) log.append('\n');
      return log;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** The file's inode (a log replaced by another process is a new one). */
  get ino(): number {
    return fstatSync(this.descriptor()).ino;
  }

  /** Bytes the log holds (every append that succeeded). */
  get size(): number {
    return this.committed;
  }

  /**
   * Appends `text` whole, or not at all: a write cut short is undone (the file is cut back) and
   * the file system's error thrown, with `undone: false` on it when even the cut failed.
   */
  append(text: string | Buffer): void {
    const fd = this.descriptor();
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    try {
      writeAll(fd, bytes);
    } catch (error) {
      this.undo(error);
      throw error;
    }
    this.committed += bytes.length;
  }

  /**
   * Appends `bytes` with the caller's own write and fsync (the journal's, off the main thread and
   * counted by its tests), whole or not at all: when a write or the fsync fails, the file is cut
   * back to where this append began and the error rethrown. Returns the offset it began at.
   */
  async appendWith(
    bytes: Buffer,
    write: (fd: number, bytes: Buffer, offset: number) => Promise<number>,
    sync?: (fd: number) => Promise<void>,
  ): Promise<number> {
    const fd = this.descriptor();
    const start = this.committed;
    try {
      for (let done = 0; done < bytes.length;) {
        const written = await write(fd, bytes, done);
        // A write that takes nothing would loop for ever.
        if (written <= 0) throw Object.assign(new Error('the file took no bytes'), { code: 'EIO' });
        done += written;
      }
      if (sync) await sync(fd);
    } catch (error) {
      this.undo(error);
      throw error;
    }
    this.committed += bytes.length;
    return start;
  }

  /**
   * Overwrites bytes already in the file, in place and of the same length (no new block is needed,
   * so it works on a full disk), then fsyncs: the journal's way to mark an event not sent when not
   * even one more line fits.
   */
  overwrite(offset: number, bytes: Buffer): void {
    if (offset + bytes.length > this.committed) throw new Error(`${this.path}: an overwrite past the end`);
    // A second descriptor without O_APPEND: on Linux a positioned write to an O_APPEND one appends.
    const fd = openOwnFile(this.path, UPDATE_FLAGS);
    try {
      writeAll(fd, bytes, offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Overwrites bytes already in the file, in place and of the same length, without an fsync: the
   * next sync (or a later group's) carries it to disk. Within one boot a reader sees it at once, so
   * it survives a kill of this process, though not a crash of the machine (see util/boot-id.ts).
   */
  patch(offset: number, bytes: Buffer): void {
    if (offset + bytes.length > this.committed) throw new Error(`${this.path}: a patch past the end`);
    if (this.updateFd === undefined) {
      const fd = openOwnFile(this.path, UPDATE_FLAGS);
      // The same file as the log's own descriptor, not one put in its place since.
      if (fstatSync(fd).ino !== this.ino) {
        closeSync(fd);
        throw Object.assign(new Error(`${this.path} was replaced while it was written`), { code: 'ESTALE' });
      }
      this.updateFd = fd;
    }
    writeAll(this.updateFd, bytes, offset);
  }

  /** The caller's own fsync (the journal's, counted by its tests) of what was appended; undoSince when it fails. */
  syncWith(sync: (fd: number) => Promise<void>): Promise<void> {
    return sync(this.descriptor());
  }

  /** fsync: what was appended is on disk. */
  syncNow(): void {
    fsyncSync(this.descriptor());
  }

  /** fsync off the main thread. */
  sync(): Promise<void> {
    const fd = this.descriptor();
    return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
  }

  /**
   * Cuts the file back to its length after the last append that succeeded (and fsyncs that): for a
   * group of appends whose fsync failed, so that the file holds none of them rather than some.
   */
  undoSince(length: number): void {
    this.committed = length;
    this.undo(undefined);
  }

  close(): void {
    if (this.updateFd !== undefined) closeSync(this.updateFd);
    this.updateFd = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private undo(cause: unknown): void {
    try {
      ftruncateSync(this.fd!, this.committed);
      fsyncSync(this.fd!);
    } catch {
      if (cause && typeof cause === 'object') Object.assign(cause, { undone: false });
    }
  }

  private descriptor(): number {
    if (this.fd === undefined) throw new Error(`${this.path}: the log is closed`);
    return this.fd;
  }
}
