/**
 * The storage layer: the only code in src/ that writes the tool's own files (a test says so,
 * test/architecture/storage.test.ts). docs/files.md lists the files. Four things, one home each:
 *
 * - `openOwnFile(path, flags, mode)` (open.ts): opens for writing with O_NOFOLLOW and O_NONBLOCK and
 *   checks the result is a regular file; a symlink, FIFO, device or folder planted in the file's
 *   place is refused with NotOwnFileError, never written through. `createTemp` makes a temp file
 *   with an unpredictable name (O_EXCL). `readOwnFile` reads one whole the same way (a FIFO is
 *   refused, not waited on); `cannotRead` words its refusal.
 * - `replaceFile(path, content, { durable, mode })` (replace.ts): the one atomic replace (temp file,
 *   then rename); the old file stays whole when anything fails, and no temp file is left.
 * - `AppendLog.open(path, options)` (append-log.ts): the one append log; each `append` is whole or
 *   undone, `sync()` is the caller's durability.
 * - `acquireLock` / `withLock` / `tryWithLockSync` (lock.ts): the one lock, fail-fast or waiting,
 *   with a race-free takeover of a stale lock.
 *
 * Errors: `cannotWrite(display, path, error)` (errors.ts) makes the StorageError every command
 * shows: the file and the cause ("the disk is full (ENOSPC)"), exit 2 unless the caller says.
 * Import the module you need (this file only re-exports): start-up loads what a command uses.
 */
export { AppendLog, type AppendLogOptions } from './append-log.js';
export { cannotRead, cannotWrite, codeOf, NotOwnFileError, StorageError, whyUnwritable } from './errors.js';
export { acquireLock, lockPathFor, tryLock, tryWithLockSync, withLock, type Lock } from './lock.js';
export { assertOwnFileOrNothing, createTemp, ensureFolder, openOwnFile, readOwnFile } from './open.js';
export { removeOwnFile, removeOwnFolder, replaceFile, shrinkInPlace, writeAll, type ReplaceOptions } from './replace.js';
