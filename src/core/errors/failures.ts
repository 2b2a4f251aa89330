import type { ErrorTree } from './tree.js';

/** Exit codes, kept stable; what each means is in exit-codes.ts (jobs help exit-codes, docs/exit-codes.md). */
export const ExitCode = {
  ok: 0,
  rejected: 1,
  usage: 2,
  invalidInput: 3,
  unauthorized: 4,
  notFound: 5,
  quota: 6,
  network: 7,
  changesPending: 8,
  /** A confirmation was answered no (`delete`, `sync --prune`): nothing was sent. */
  declined: 9,
  /** SIGHUP, SIGINT (Ctrl-C), SIGTERM: 128 + the signal's number, as shells report them. */
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Base of every error the tool expects; the CLI maps it to an exit code and prints `message`. */
export abstract class JobsError extends Error {
  abstract readonly exitCode: ExitCode;
  /** Extra lines shown under the message (hints, rendered trees). */
  details: string[] = [];
  /** The command already wrote its result document (--json): the error must not add a second one. */
  documented = false;
  constructor(message: string, options?: { cause?: unknown; details?: string[] }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options?.details) this.details = options.details;
  }
}

/** Bad flags, arguments or configuration: nothing was sent. */
export class UsageError extends JobsError {
  readonly exitCode = ExitCode.usage;
}

/** A configuration problem (bad config file, missing credentials): nothing was sent. */
export class ConfigError extends JobsError {
  readonly exitCode = ExitCode.usage;
}

/** Advert input that is unreadable or invalid: nothing was sent. */
export class InvalidInputError extends JobsError {
  readonly exitCode = ExitCode.invalidInput;
}

/** The user cancelled (Ctrl-C, or answered no to a prompt that guards the whole run). */
export class CancelledError extends JobsError {
  readonly exitCode = ExitCode.interrupted;
}

/** The user answered no to a confirmation that guards the whole run: nothing was sent. */
export class DeclinedError extends JobsError {
  readonly exitCode = ExitCode.declined;
}

/** A catch handler for the check before a run sends anything: a CancelledError says so too. */
export function stoppedBeforeSending(error: unknown): never {
  throw error instanceof CancelledError ? new CancelledError(`${error.message}; nothing was sent`) : error;
}

export type ApiErrorKind = 'rejected' | 'unauthorized' | 'not_found' | 'quota' | 'network' | 'server' | 'timeout' | 'bad_response';

/** A failed exchange with the service, after any retries. */
export class ApiError extends JobsError {
  readonly exitCode: ExitCode;
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    /** HTTP status, when a response arrived. */
    readonly status: number | undefined,
    /** The error tree the service sent, when it sent one. */
    readonly tree: ErrorTree | undefined,
    options?: { cause?: unknown; details?: string[] },
  ) {
    super(message, options);
    this.exitCode = exitCodeForKind(kind);
  }
}

export function exitCodeForKind(kind: ApiErrorKind): ExitCode {
  switch (kind) {
    case 'unauthorized':
      return ExitCode.unauthorized;
    case 'not_found':
      return ExitCode.notFound;
    case 'quota':
      return ExitCode.quota;
    case 'network':
    case 'server':
    case 'timeout':
      return ExitCode.network;
    case 'rejected':
    case 'bad_response':
      return ExitCode.rejected;
  }
}

/** A run that finished but had failures, already reported item by item. */
export class PartialFailureError extends JobsError {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode = ExitCode.rejected) {
    super(message);
    this.exitCode = exitCode;
  }
}
