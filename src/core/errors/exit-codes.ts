/**
 * What each exit code means: the one source of the exit code table in `jobs help exit-codes`, the
 * man page's EXIT STATUS, the line in `jobs --help` and docs/exit-codes.md (a test compares them).
 * A new code in ExitCode does not compile until it is described here.
 */
import { ExitCode } from './failures.js';

export interface ExitCodeMeaning {
  /** A few words, for the one-line summary in `jobs --help`. */
  short: string;
  /** The sentence of the table. */
  long: string;
}

export const EXIT_CODE_MEANINGS: Record<keyof typeof ExitCode, ExitCodeMeaning> = {
  ok: { short: 'ok', long: 'success' },
  rejected: { short: 'rejected or partial failure', long: 'the service rejected a request, or a bulk run had failures' },
  usage: { short: 'usage or config', long: 'usage or configuration error (nothing was sent)' },
  invalidInput: { short: 'invalid advert input', long: 'invalid advert input: YAML syntax or local validation (nothing was sent)' },
  unauthorized: { short: 'unauthorized', long: 'authentication failed (401)' },
  notFound: { short: 'not found', long: 'not found (404): the advert does not exist or belongs to another client' },
  quota: { short: 'quota exceeded', long: 'rate quota still exceeded after retries (429)' },
  network: { short: 'network or service error', long: 'network failure, timeout or service error (5xx) after retries' },
  changesPending: { short: 'changes pending', long: '`sync --detailed-exitcode`: changes are pending (reserved for `sync`)' },
  declined: { short: 'declined', long: 'a confirmation was answered no (`delete`, `sync --prune`): nothing was sent' },
  hangup: { short: 'hangup', long: 'stopped by SIGHUP (the terminal closed); what was sent is recorded' },
  interrupted: { short: 'interrupted', long: 'interrupted (Ctrl-C)' },
  terminated: { short: 'terminated', long: 'stopped by SIGTERM (CI cancellation, `timeout`, `docker stop`); what was sent is recorded' },
};

/** Every exit code with its meaning, in numeric order. */
export function exitCodeTable(): { code: number; short: string; long: string }[] {
  return (Object.keys(EXIT_CODE_MEANINGS) as (keyof typeof ExitCode)[])
    .map((key) => ({ code: ExitCode[key] as number, ...EXIT_CODE_MEANINGS[key] }))
    .sort((a, b) => a.code - b.code);
}

/** What a run with failures of different kinds exits with. */
export const MIXED_FAILURES_NOTE =
  "When several adverts fail for different reasons, the exit code is 1; when they all fail the same way, it is that failure's code.";
