/**
 * One advert whose request throws something no layer named (a bug below, a check missing) is that
 * advert's failure: the run goes on, and the successes of the others are recorded.
 */
import { describe, expect, it } from 'vitest';
import type { JobsClient } from '../../../src/core/api/client.js';
import { executePlan, type ChangeResult } from '../../../src/core/sync/execute.js';
import type { Plan, PlannedChange } from '../../../src/core/sync/plan.js';
import type { SyncState } from '../../../src/core/sync/state.js';

describe('executePlan', () => {
  it('a TypeError from one delete: that advert fails, the other two are recorded', async () => {
    const put: string[] = [];
    const removed: string[] = [];
    const state = {
      adverts: () => new Map(),
      put: (_s: string, reference: string) => put.push(reference),
      remove: (_s: string, reference: string) => removed.push(reference),
    } as unknown as SyncState;
    const client = {
      delete: async (reference: string) => {
        if (reference === 'BAD') throw new TypeError('something below broke');
      },
    } as unknown as JobsClient;
    const change = (reference: string): PlannedChange => ({ action: 'delete', reference, file: `${reference}.yaml` });
    const plan: Plan = {
      changes: [change('A-1'), change('BAD'), change('C-3')],
      counts: { create: 0, update: 0, unchanged: 0, delete: 3, orphan: 0, waiting: 0, closed: 0 },
    };
    const seen: ChangeResult[] = [];
    const never = new AbortController().signal;
    const outcome = await executePlan(plan, {
      client,
      state,
      service: 's',
      concurrency: 1,
      failFast: false,
      stop: never,
      abort: never,
      onResult: (r) => seen.push(r),
    });
    expect(outcome.results.map((r) => `${r.change.reference} ${r.status}`)).toEqual(['A-1 deleted', 'BAD failed', 'C-3 deleted']);
    expect(outcome.results[1]!.error?.message).toBe('unexpected error: something below broke');
    expect(outcome.results[1]!.error?.exitCode).toBe(1);
    expect(removed).toEqual(['A-1', 'C-3']);
    expect(outcome.notStarted).toBe(0);
  });
});
