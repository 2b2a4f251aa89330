/** What became of each event of a run, and the exit code the results add up to. */
import { ExitCode, type JobsError } from '../errors/failures.js';
import { encodeSegment } from '../config/base-url.js';
import type { JournalStatus } from './journal.js';
import type { EventEntry } from './types.js';

/**
 * posted: accepted now; skipped: accepted in an earlier run; uncertain: sent now without a clear
 * answer; held: uncertain in an earlier run and not sent again; failed: refused or never sent;
 * would_post: --dry-run.
 */
export type EntryStatus = 'posted' | 'skipped' | 'uncertain' | 'held' | 'failed' | 'would_post';

export interface EntryResult {
  entry: EventEntry;
  key: string;
  status: EntryStatus;
  /** The entry's status in the journal before this run. */
  previous?: JournalStatus;
  error?: JobsError;
}

export function emptyCounts(): Record<EntryStatus, number> {
  return { posted: 0, skipped: 0, uncertain: 0, held: 0, failed: 0, would_post: 0 };
}

/** The request an entry makes, as the service sees it. */
export function requestOf(entry: EventEntry) {
  return {
    method: 'POST' as const,
    path: `/job_applications/${encodeSegment(entry.application_id, 'application id')}/events`,
    body: entry.data === undefined ? { kind: entry.kind } : { kind: entry.kind, data: entry.data },
  };
}

/** The exit code a result adds to the run's (see exitCodeOf); undefined when it is done. */
export function resultCode(r: EntryResult): number | undefined {
  if (r.error && (r.status === 'failed' || r.status === 'uncertain')) return r.error.exitCode;
  if (r.status === 'held') return ExitCode.rejected;
  return undefined;
}

/** 0 when everything is done; else the failures' shared exit code (4 whenever the token was refused), else 1. */
export function exitCodeOf(codes: ReadonlySet<number>): number {
  if (codes.has(ExitCode.unauthorized)) return ExitCode.unauthorized;
  if (codes.size === 0) return ExitCode.ok;
  return codes.size === 1 ? [...codes][0]! : ExitCode.rejected;
}
