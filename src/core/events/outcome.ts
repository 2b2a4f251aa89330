/**
 * What a failed post means for the journal. A clear failure (a 4xx, a 429 after retries, a
 * connection that was never made) left no trace at the service: it is not journaled and the next
 * run tries again. An uncertain one (a timeout, a 500, a connection broken after sending) may have
 * been recorded: it is journaled as uncertain and not posted again unless asked, because a repeat
 * would notify the applicant twice.
 */
import { ApiError, CancelledError, ExitCode, JobsError, PartialFailureError } from '../errors/failures.js';
import { classifyConnectFailure } from '../api/retry-policy.js';

export type FailureClass = 'uncertain' | 'failed';

/**
 * 503 (unavailable) is an answer that the request was not taken on. A 502 or 504 comes from a
 * gateway that may well have passed the request on before the answer was lost: uncertain.
 */
const NOT_PASSED_ON = new Set([503]);

export function classifyFailure(error: unknown): FailureClass {
  if (error instanceof ApiError) {
    switch (error.kind) {
      case 'timeout':
        return 'uncertain';
      case 'server':
        return error.status !== undefined && NOT_PASSED_ON.has(error.status) ? 'failed' : 'uncertain';
      case 'network': {
        // A response had begun: the request certainly arrived.
        if (error.status !== undefined) return 'uncertain';
        // The retry rules know which failures came before anything was sent: those repeated for every
        // call (no connection: refused, not found, not made in time) and those never repeated (TLS).
        // A connection broken once open (repeated only when harmless) may have carried the post.
        return classifyConnectFailure(error.cause).retry === 'if-repeatable' ? 'uncertain' : 'failed';
      }
      default:
        // rejected (4xx), unauthorized, not_found, quota, bad_response: the service answered no.
        return 'failed';
    }
  }
  // Cancelled mid-request, or something unexpected: whether it was sent is unknown.
  if (error instanceof CancelledError || !(error instanceof JobsError)) return 'uncertain';
  return 'failed';
}

/** Any thrown value as a JobsError, so every result carries a message and an exit code. */
export function asJobsError(error: unknown): JobsError {
  if (error instanceof JobsError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new PartialFailureError(`unexpected error: ${message}`, ExitCode.rejected);
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'unauthorized';
}
