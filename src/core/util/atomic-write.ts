/**
 * Replacing a file whole: the text goes to an unpredictable temp file (created with O_EXCL, so no
 * link or older file is followed) in the same folder, is synced, and is renamed over the target, so
 * a reader sees the old file or the new one, never half. A failure removes the temp file and leaves
 * the old file as it was. (The storage layer planned in core/storage/ takes this over.)
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { chmod, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const tempBeside = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);

/** `mode` undefined: a new shared file, 0666 less the umask. */
export async function writeAtomically(path: string, text: string, mode: number | undefined, privateDir: boolean): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: privateDir ? 0o700 : 0o777 });
  const temp = tempBeside(path);
  const handle = await open(temp, 'wx', mode ?? 0o666);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // open() applied the umask; the file keeps exactly the mode it had.
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** writeAtomically, synchronously: for a write made while holding a file lock (file-lock.ts). */
export function writeAtomicallySync(path: string, text: string, mode: number, privateDir: boolean): void {
  mkdirSync(dirname(path), { recursive: true, mode: privateDir ? 0o700 : 0o777 });
  const temp = tempBeside(path);
  const fd = openSync(temp, 'wx', mode);
  try {
    const bytes = Buffer.from(text);
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  try {
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Already gone.
    }
    throw error;
  }
}
