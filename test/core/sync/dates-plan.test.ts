/**
 * The plan step of advert dates (src/core/sync/dates-plan.ts) through syncFolder, against nock: what
 * goes over the wire on each day, and what does not.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { syncFolder } from '../../../src/core/sync/sync-folder.js';
import { applyDates } from '../../../src/core/sync/dates-plan.js';
import { dayOf } from '../../../src/core/adverts/dates.js';
import type { Plan } from '../../../src/core/sync/plan.js';
import { advertBody, advertYaml, SERVICE, tempFolder } from '../../commands/harness.js';
import { tempDir } from '../../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const isolated = () => {
  const home = tempDir('jobs-dates-');
  return { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
};

const dated = (reference: string, block: string) => advertYaml(reference, `jobs:\n${block}`);

describe('adverts that open and close on their dates', () => {
  it('sends the advert without its jobs block, byte for byte what it would be without one', async () => {
    const dir = tempFolder({ 'a.yaml': dated('A-1', '  opens: 2026-12-01\n  closes: 2026-12-31\n') });
    const bodies: string[] = [];
    nock(SERVICE)
      .post('/jobs', (body) => (bodies.push(JSON.stringify(body)), true))
      .reply(201);
    const result = await syncFolder({ dir, baseUrl: SERVICE, token: 't', env: isolated(), today: '2026-12-01' });
    expect(result.exitCode).toBe(0);
    expect(bodies).toEqual([JSON.stringify(advertBody('A-1'))]);
    expect(bodies[0]).not.toMatch(/jobs|opens|closes|2026-12/);
  });

  it('does not create an advert before its opening day, and creates it on that day', async () => {
    const env = isolated();
    const dir = tempFolder({ 'a.yaml': dated('A-1', '  opens: 2026-12-03\n') });
    const before = await syncFolder(
      { dir, baseUrl: SERVICE, token: 't', env, today: '2026-12-02' },
      { onSend: (n) => expect(n, 'nothing is sent before the opening day').toBe(0) },
    );
    expect(before.exitCode).toBe(0);
    expect(before.counts).toMatchObject({ waiting: 1 });
    const dry = await syncFolder({ dir, baseUrl: SERVICE, env, today: '2026-12-02', dryRun: true });
    expect(dry.plan).toEqual([{ action: 'waiting', reference: 'A-1', file: 'a.yaml', opens: '2026-12-03' }]);
    nock(SERVICE).post('/jobs', advertBody('A-1')).reply(201);
    const on = await syncFolder({ dir, baseUrl: SERVICE, token: 't', env, today: '2026-12-03' });
    expect(on.results.map((r) => `${r.status} ${r.reference}`)).toEqual(['created A-1']);
    expect(nock.isDone()).toBe(true);
  });

  it('deletes an advert after its closing day without --prune, once the deletion is confirmed', async () => {
    const env = isolated();
    const dir = tempFolder({ 'a.yaml': dated('A-1', '  closes: 2026-12-03\n'), 'b.yaml': advertYaml('B-2') });
    nock(SERVICE).post('/jobs').times(2).reply(201);
    expect((await syncFolder({ dir, baseUrl: SERVICE, token: 't', env, today: '2026-12-03' })).counts).toMatchObject({ created: 2 });
    // The day after: unchanged on disk, so the state's sum alone finds the folder unchanged; the dates still count.
    const confirmed: string[] = [];
    const refused = syncFolder(
      { dir, baseUrl: SERVICE, token: 't', env, today: '2026-12-04' },
      {
        confirmDeletions: (plan) => {
          confirmed.push(...plan.changes.filter((c) => c.action === 'delete').map((c) => `${c.reference} closed ${c.closed}`));
          throw new Error('declined');
        },
      },
    );
    await expect(refused).rejects.toThrow('declined');
    expect(confirmed).toEqual(['A-1 closed 2026-12-03']);
    nock(SERVICE).delete('/jobs/A-1').reply(204);
    const done = await syncFolder({ dir, baseUrl: SERVICE, token: 't', env, today: '2026-12-04' }, { confirmDeletions: () => undefined });
    expect(done.results.map((r) => `${r.status} ${r.reference}`)).toEqual(['deleted A-1']);
    expect(nock.isDone()).toBe(true);
    const state = readFileSync(join(dir, '.jobs-state'), 'utf8');
    expect(state).not.toContain('"A-1"');
    // Deleted and closed: nothing more to do, ever.
    const after = await syncFolder({ dir, baseUrl: SERVICE, token: 't', env, today: '2026-12-05' }, { onSend: (n) => expect(n, 'nothing to send').toBe(0) });
    expect(after.counts).toMatchObject({ closed: 1, unchanged: 1 });
  });

  it('a change to the dates alone sends nothing', async () => {
    const env = isolated();
    const dir = tempFolder({ 'a.yaml': dated('A-1', '  closes: 2026-12-10\n') });
    nock(SERVICE).post('/jobs').reply(201);
    await syncFolder({ dir, baseUrl: SERVICE, token: 't', env, today: '2026-12-01' });
    writeFileSync(join(dir, 'a.yaml'), dated('A-1', '  opens: 2026-11-01\n  closes: 2026-12-20\n'));
    const again = await syncFolder({ dir, baseUrl: SERVICE, token: 't', env, today: '2026-12-01' }, { onSend: (n) => expect(n).toBe(0) });
    expect(again.counts).toMatchObject({ unchanged: 1 });
    expect(again.results).toEqual([]);
  });

  it('applyDates leaves deletions and orphans alone, and a plan without dates as it was', () => {
    const plan: Plan = {
      changes: [
        { action: 'unchanged', reference: 'A', file: 'a.yaml' },
        { action: 'orphan', reference: 'B', file: 'b.yaml' },
        { action: 'update', reference: 'C', file: 'c.yaml' },
      ],
      counts: { create: 0, update: 1, unchanged: 1, delete: 0, orphan: 1, waiting: 0, closed: 0 },
    };
    expect(applyDates(plan, new Map(), 0)).toBe(plan);
    const today = dayOf('2026-12-05')!;
    const moved = applyDates(
      plan,
      new Map([
        ['B', { closes: '2026-12-01' }],
        ['C', { opens: '2026-12-10' }],
      ]),
      today,
    );
    expect(moved.changes.map((c) => `${c.action} ${c.reference}`)).toEqual(['unchanged A', 'orphan B', 'delete C']);
    expect(moved.changes[2]).toMatchObject({ opens: '2026-12-10' });
    expect(moved.counts).toMatchObject({ delete: 1, update: 0, orphan: 1 });
  });
});
