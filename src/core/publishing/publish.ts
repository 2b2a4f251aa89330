/**
 * Publishing one advert: create it, and for an upsert, update it when the service answers that
 * the reference is taken (the interface has no way to ask first). The update sends the whole
 * advert minus the immutable reference, so the service converges on the file.
 */
import type { JobsClient } from '../api/client.js';
import { ApiError, JobsError } from '../errors/failures.js';
import { hasError } from '../errors/tree.js';
import { StorageError } from '../storage/errors.js';
import type { CheckedAdvert } from '../validation/check.js';

export type PublishMode = 'upsert' | 'create';
export type PublishStatus = 'created' | 'updated' | 'failed';

export interface PublishOutcome {
  advert: CheckedAdvert;
  status: PublishStatus;
  error?: JobsError;
}

export function isTaken(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'rejected' && error.tree !== undefined && hasError(error.tree, ['reference'], 'taken');
}

/**
 * A failure after which no other request of the run can succeed, so none is started: credentials
 * the service refuses (401), or the embedded sandbox unable to keep a change (its journal or data
 * file is a planted link, the disk is full; see sandbox/embedded.ts), which each advert would only
 * meet again.
 */
export function stopsTheRun(error: JobsError | undefined): boolean {
  return (error instanceof ApiError && error.kind === 'unauthorized') || error instanceof StorageError;
}

export async function publishAdvert(client: JobsClient, advert: CheckedAdvert, mode: PublishMode, signal?: AbortSignal): Promise<PublishOutcome> {
  try {
    // A repeated POST after a timeout is safe here: if the first one landed, the repeat says taken.
    await client.create(advert.payload, { signal, retryPost: mode === 'upsert' });
    return { advert, status: 'created' };
  } catch (error) {
    if (mode === 'upsert' && isTaken(error) && advert.reference !== undefined) {
      try {
        const { reference: _immutable, ...patch } = advert.payload;
        await client.update(advert.reference, patch, { signal });
        return { advert, status: 'updated' };
      } catch (updateError) {
        return { advert, status: 'failed', error: asJobsError(updateError) };
      }
    }
    return { advert, status: 'failed', error: asJobsError(error) };
  }
}

function asJobsError(error: unknown): JobsError {
  if (error instanceof JobsError) return error;
  throw error;
}
