/**
 * Why a file of the tool's own could not be written, in words, and the error that says so. Every
 * writer in the storage layer throws StorageError: the message names the file and the cause
 * ("the disk is full (ENOSPC)"), and the exit code is 2 (the run could not start or its result
 * could not be kept; nothing more was sent). Callers that already sent something wrap it into
 * their own outcome (a bulk run's exit 1) and keep the cause.
 */
import { ExitCode, JobsError } from '../errors/failures.js';

/** A path that is a symbolic link, FIFO, device or folder where the tool writes a file of its own. */
export class NotOwnFileError extends Error {
  readonly code = 'ENOTOWN';
  constructor(
    readonly path: string,
    /** In words: "a symbolic link", "a FIFO (named pipe)", ... */
    readonly kind: string,
  ) {
    super(`${path} is ${kind}`);
  }
}

export class StorageError extends JobsError {
  readonly exitCode: ExitCode;
  /** The file system's code (ENOSPC, EROFS, EACCES, ELOOP, ENOTOWN, ...). */
  readonly code: string;
  constructor(
    message: string,
    readonly path: string,
    cause: unknown,
    options: { details?: string[]; exitCode?: ExitCode } = {},
  ) {
    super(message, { cause, ...(options.details ? { details: options.details } : {}) });
    this.exitCode = options.exitCode ?? ExitCode.usage;
    this.code = codeOf(cause);
  }
}

export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? (error as Error | undefined)?.message ?? String(error);
}

/** Why a write failed, in words with the code: "the disk is full (ENOSPC)". */
export function whyUnwritable(error: unknown): string {
  if (error instanceof NotOwnFileError) return `it is ${error.kind}; jobs does not write through it`;
  const code = codeOf(error);
  switch (code) {
    case 'ENOSPC':
      return 'the disk is full (ENOSPC)';
    case 'EDQUOT':
      return 'the disk quota is used up (EDQUOT)';
    case 'EFBIG':
      return 'the file is larger than this process may write (EFBIG)';
    case 'EROFS':
      return 'the file system is read-only (EROFS)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'ELOOP':
      return 'it is a symbolic link; jobs does not write through links (ELOOP)';
    case 'ENOTDIR':
      return 'a part of the path is not a folder (ENOTDIR)';
    case 'EISDIR':
      return 'it is a folder (EISDIR)';
    case 'ENXIO':
      return 'it is a FIFO or device, not a regular file (ENXIO)';
    case 'EIO':
      return 'an input/output error (EIO)';
    default:
      return code;
  }
}

/** The same, to be put in parentheses: "the disk is full: ENOSPC". */
export function reasonInWords(error: unknown): string {
  return whyUnwritable(error).replace(/ \(([A-Z0-9]+)\)$/, ': $1');
}

/** "cannot read <file>: <why>" as a StorageError, for a file of the tool's own (see readOwnFile). */
export function cannotRead(display: string, path: string, error: unknown, options: { what?: string } = {}): StorageError {
  if (error instanceof StorageError) return error;
  const why =
    error instanceof NotOwnFileError ? `it is ${error.kind}, not a file jobs wrote; jobs reads only regular files of its own: remove it` : whyUnwritable(error);
  return new StorageError(`cannot read ${options.what ? `${options.what} ` : ''}${display}: ${why}`, path, error);
}

/** "cannot write <file>: <why>" as a StorageError. */
export function cannotWrite(
  display: string,
  path: string,
  error: unknown,
  options: { what?: string; details?: string[]; exitCode?: ExitCode; after?: string } = {},
): StorageError {
  if (error instanceof StorageError) return error;
  return new StorageError(
    `cannot write ${options.what ? `${options.what} ` : ''}${display}: ${whyUnwritable(error)}${options.after ?? ''}`,
    path,
    error,
    options,
  );
}
