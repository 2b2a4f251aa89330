/**
 * Carries out a plan with a bounded number of requests in flight. Every success is recorded in the
 * state at once; a failure on one advert does not stop the others (unless fail-fast); a 401, or
 * the embedded sandbox unable to keep a change, stops the run, since nothing else can succeed. Lost state is safe: a create that meets
 * `reference: [taken]` becomes an update and the advert is adopted into the state. When a success
 * cannot be recorded (disk full), no new request is started.
 */
import type { JobsClient } from '../api/client.js';
import { ApiError, ExitCode, JobsError } from '../errors/failures.js';
import type { Finding } from '../errors/findings.js';
import { failureFindings } from '../publishing/failure-findings.js';
import { isTaken, stopsTheRun } from '../publishing/publish.js';
import { runPool } from '../util/pool.js';
import type { CheckedAdvert } from '../validation/check.js';
import { contentHashes } from '../bulk/hash.js';
import type { Plan, PlannedChange } from './plan.js';
import type { ReadAdvert } from '../bulk/reread.js';
import type { SyncState } from './state.js';

export type ResultStatus = 'created' | 'updated' | 'adopted' | 'recreated' | 'deleted' | 'failed';

export interface ChangeResult {
  change: PlannedChange;
  status: ResultStatus;
  error?: JobsError;
  /** The advert as sent, while onResult runs; a run keeps none of them (a failure keeps its findings). */
  advert?: CheckedAdvert;
  /**
   * A failure as reports show it: the service's errors at the advert's lines, or one finding for
   * the advert. Made while the advert is at hand, so that a run of many failures keeps no payload.
   */
  findings?: Finding[];
}

export interface ExecuteOptions {
  client: JobsClient;
  state: SyncState;
  service: string;
  concurrency: number;
  failFast: boolean;
  /** Stops starting new requests (Ctrl-C). */
  stop: AbortSignal;
  /** Aborts requests in flight (a bounded while after stop). */
  abort: AbortSignal;
  onResult: (result: ChangeResult) => void;
  /** Reads the advert of a change planned without it (PlanOptions.keepAdverts false). */
  readAdvert?: ReadAdvert;
}

export interface ExecuteOutcome {
  results: ChangeResult[];
  notStarted: number;
  /**
   * The state could not record a success (disk full, the log became unwritable): no new request was
   * started after it. Those successes are held in memory until the state is saved.
   */
  recordFailure?: unknown;
  /** The successes whose line could not be written to the log. */
  unlogged: ChangeResult[];
}

export async function executePlan(plan: Plan, options: ExecuteOptions): Promise<ExecuteOutcome> {
  const { state, service } = options;
  const unlogged: ChangeResult[] = [];
  let recordFailure: unknown;
  const work = plan.changes.filter((c) => c.action === 'create' || c.action === 'update' || c.action === 'delete');
  // Adverts unchanged in content but moved to another file: record the new place, no request.
  try {
    const recorded = state.adverts(service);
    for (const c of plan.changes) {
      if (c.action !== 'unchanged' || !c.moved) continue;
      const before = recorded.get(c.reference);
      if (before) {
        const textHash = c.textHash ?? before.text_hash;
        // The folder says what the advert's group is now (none: it is no longer one of several places).
        const group = c.group;
        state.put(service, c.reference, {
          file: c.file,
          document: c.document!,
          hash: before.hash,
          ...(textHash === undefined ? {} : { text_hash: textHash }),
          ...(group === undefined ? {} : { group }),
          fields: before.fields,
          published_at: before.published_at,
        });
      }
    }
  } catch (error) {
    return { results: [], notStarted: work.length, unlogged, recordFailure: error };
  }
  const results = await runPool(
    work,
    options.concurrency,
    async (change, _i, stopAll) => {
      const { result, fields } = await apply(change, options);
      if (result.status !== 'failed') {
        try {
          record(result, fields, options);
        } catch (error) {
          recordFailure ??= error;
          unlogged.push(result);
          stopAll();
        }
      } else if (options.failFast || stopsTheRun(result.error)) stopAll();
      options.onResult(result);
      delete result.advert;
      return result;
    },
    options.stop,
  );
  const done = results.filter((r): r is ChangeResult => r !== undefined);
  return { results: done, notStarted: work.length - done.length, unlogged, ...(recordFailure !== undefined ? { recordFailure } : {}) };
}

type Applied = { result: ChangeResult; fields?: Record<string, string> };

async function apply(change: PlannedChange, options: ExecuteOptions): Promise<Applied> {
  const { client } = options;
  const signal = options.abort;
  let advert: CheckedAdvert | undefined;
  try {
    if (change.action === 'delete') {
      try {
        await client.delete(change.reference, { signal });
      } catch (error) {
        // Already gone (deleted elsewhere, or by an earlier attempt): the goal is met.
        if (!(error instanceof ApiError && error.kind === 'not_found')) throw error;
      }
      return { result: { change, status: 'deleted' } };
    }
    if (!change.advert && !options.readAdvert) throw new Error('a change planned without its advert (keepAdverts: false) needs ExecuteOptions.readAdvert');
    advert = change.advert ?? (await options.readAdvert!(change));
    const payload = advert.payload;
    const { fields } = contentHashes(payload);
    const done = (status: ResultStatus): Applied => ({ result: { change, status, advert }, fields });
    const { reference: _immutable, ...patch } = payload;
    if (change.action === 'create') {
      try {
        await client.create(payload, { signal, retryPost: true });
        return done('created');
      } catch (error) {
        if (!isTaken(error)) throw error;
        await client.update(change.reference, patch, { signal });
        return done('adopted');
      }
    }
    try {
      await client.update(change.reference, patch, { signal });
      return done('updated');
    } catch (error) {
      // Deleted on the service since the last sync: publish it again.
      if (!(error instanceof ApiError && error.kind === 'not_found')) throw error;
      await client.create(payload, { signal, retryPost: true });
      return done('recreated');
    }
  } catch (thrown) {
    // Whatever went wrong with this advert is its failure: the others go on and are recorded.
    const error = thrown instanceof JobsError ? thrown : new AdvertFailure(thrown);
    const source = advert?.source ?? { file: change.file };
    const findings = failureFindings(error, source, change.reference, advert?.payload);
    return { result: { change, status: 'failed', error, findings, ...(advert ? { advert } : {}) } };
  }
}

/** An error no layer below named (a bug, or a check missing there), for one advert. */
class AdvertFailure extends JobsError {
  readonly exitCode = ExitCode.rejected;
  constructor(cause: unknown) {
    super(`unexpected error: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

function record(result: ChangeResult, fields: Record<string, string> | undefined, options: ExecuteOptions): void {
  const { change } = result;
  if (result.status === 'deleted') options.state.remove(options.service, change.reference);
  else
    options.state.put(options.service, change.reference, {
      file: change.file,
      document: change.document ?? change.advert?.source.index ?? 0,
      hash: change.hash!,
      ...(change.textHash === undefined ? {} : { text_hash: change.textHash }),
      ...(change.group === undefined ? {} : { group: change.group }),
      fields: fields!,
      published_at: new Date().toISOString(),
    });
}
