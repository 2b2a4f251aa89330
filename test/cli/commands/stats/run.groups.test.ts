/** `jobs stats <group>`: the places of an advert written for several places, each row and their total. */
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SyncState } from '../../../../src/core/sync/state.js';
import { runJobs, SERVICE, serviceEnv } from '../../../commands/harness.js';
import { tempDir } from '../../../support/temp-dirs.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-20T09:00:00Z');
const counters = (views: number, likes: number, applications: number, unviewed: number) => ({ views, likes, applications, applications_unviewed: unviewed });

let dir: string;
beforeEach(() => {
  dir = tempDir('jobs-groups-');
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  const state = SyncState.load(join(dir, 'state.json'));
  const record = (group?: string) => ({
    file: 'eng.yaml',
    document: 0,
    hash: 'h'.repeat(32),
    fields: {},
    published_at: '2026-11-01T00:00:00.000Z',
    ...(group ? { group } : {}),
  });
  state.put(SERVICE, 'ACME-0042-berlin', record('ACME-0042'));
  state.put(SERVICE, 'ACME-OSLO', record('ACME-0042'));
  state.put(SERVICE, 'ACME-0050', record());
  state.save();
});
afterEach(() => {
  vi.useRealTimers();
  nock.cleanAll();
});

function replies(stats: Record<string, ReturnType<typeof counters>>): void {
  const scope = nock(SERVICE);
  for (const [reference, value] of Object.entries(stats)) scope.get(`/jobs/${reference}/stats`).reply(200, value);
}

describe('jobs stats of a group of places', () => {
  it('shows each place, then the total with its change; an advert of its own stays one row', async () => {
    const args = ['stats', 'ACME-0042', 'ACME-0050', '--state', join(dir, 'state.json'), '--history-dir', join(dir, 'history')];
    replies({ 'ACME-0042-berlin': counters(100, 10, 4, 1), 'ACME-OSLO': counters(50, 5, 1, 0), 'ACME-0050': counters(7, 0, 0, 0) });
    const first = await runJobs(args, { env: serviceEnv });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split('\n').slice(0, 5)).toEqual([
      'REFERENCE               VIEWS  LIKES  APPLICATIONS  UNVIEWED  LIKE RATE  APPLY RATE',
      'ACME-0042-berlin          100     10             4         1      10.0%        4.0%',
      'ACME-OSLO                  50      5             1         0      10.0%        2.0%',
      'ACME-0050                   7      0             0         0       0.0%        0.0%',
      '= ACME-0042 (2 places)    150     15             5         1      10.0%        3.3%',
    ]);

    vi.setSystemTime(NOW + DAY);
    replies({ 'ACME-0042-berlin': counters(110, 12, 4, 1), 'ACME-OSLO': counters(60, 5, 2, 1), 'ACME-0050': counters(7, 0, 0, 0) });
    const second = await runJobs([...args, '--json'], { env: serviceEnv });
    expect(JSON.parse(second.stdout).groups).toEqual([
      {
        reference: 'ACME-0042',
        places: ['ACME-0042-berlin', 'ACME-OSLO'],
        views: 170,
        likes: 17,
        applications: 6,
        applications_unviewed: 2,
        like_rate: 0.1,
        application_rate: 6 / 170,
      },
    ]);
    vi.setSystemTime(NOW + 2 * DAY);
    replies({ 'ACME-0042-berlin': counters(111, 12, 4, 1), 'ACME-OSLO': counters(61, 5, 2, 1), 'ACME-0050': counters(7, 0, 0, 0) });
    const third = await runJobs(args, { env: serviceEnv });
    expect(third.stdout).toContain('= ACME-0042 (2 places)  172 (+2)  17 (±0)');
  });
});
