import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { History } from '../../../../src/core/history/store.js';
import { runJobs, SERVICE, serviceEnv } from '../../../commands/harness.js';
import { tempDir } from '../../../support/temp-dirs.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-20T09:00:00Z');
const counters = (views: number, likes: number, applications: number, unviewed: number) => ({ views, likes, applications, applications_unviewed: unviewed });

let dir: string;
beforeEach(() => {
  dir = tempDir('jobs-history-');
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
  nock.cleanAll();
});

function replies(stats: Record<string, ReturnType<typeof counters>>): void {
  const scope = nock(SERVICE);
  for (const [reference, value] of Object.entries(stats)) scope.get(`/jobs/${reference}/stats`).reply(200, value);
}

describe('jobs stats with a history', () => {
  it('records a snapshot per advert in a folder per service, and shows the change since the last one', async () => {
    replies({ 'A-1': counters(100, 10, 4, 0) });
    const first = await runJobs(['stats', 'A-1', '--history-dir', dir], { env: serviceEnv });
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('(+');
    expect(readdirSync(dir)).toEqual([encodeURIComponent('https://jobs.example.test/api')]);
    expect(readFileSync(join(dir, readdirSync(dir)[0]!, '2026-11.log'), 'utf8')).toBe(`${NOW / 1000} 100 10 4 0 A-1;\n`);

    vi.setSystemTime(NOW + DAY);
    replies({ 'A-1': counters(112, 10, 6, 2) });
    const second = await runJobs(['stats', 'A-1', '--history-dir', dir], { env: { ...serviceEnv, JOBS_BASE_URL: 'HTTPS://Jobs.Example.TEST:443/api/' } });
    expect(second.stdout).toContain('A-1        112 (+12)  10 (±0)        6 (+2)    2 (+2)       8.9%        5.4%');
    expect(second.stdout).toContain('(change since the last snapshot)');
    expect(second.stdout).toContain('A-1: 2 unviewed applications waiting');
    expect(readdirSync(dir).length).toBe(1);
  });

  it('--since 7d compares with the snapshot a week ago; --no-record adds nothing', async () => {
    const h = new History(dir, SERVICE);
    for (let d = 10; d >= 1; d--) h.append([{ reference: 'A-1', at: NOW - d * DAY, ...counters(100 - d * 5, 10, 4, 0) }]);
    replies({ 'A-1': counters(100, 10, 5, 0) });
    const r = await runJobs(['stats', 'A-1', '--since', '7d', '--json', '--no-record', '--history-dir', dir], { env: serviceEnv });
    expect(r.code).toBe(0);
    const [row] = JSON.parse(r.stdout).stats;
    expect(row.change).toEqual({ since: new Date(NOW - 7 * DAY).toISOString(), views: 35, likes: 0, applications: 1, applications_unviewed: 0 });
    expect(h.read().length).toBe(10);
  });

  it('--needs-attention keeps adverts with waiting applications or a quiet week; --sort orders them', async () => {
    const h = new History(dir, SERVICE);
    h.append([
      { reference: 'QUIET', at: NOW - 8 * DAY, ...counters(50, 5, 3, 0) },
      { reference: 'FINE', at: NOW - 8 * DAY, ...counters(50, 5, 3, 0) },
      { reference: 'WAITING', at: NOW - 8 * DAY, ...counters(50, 5, 3, 0) },
    ]);
    replies({ QUIET: counters(90, 9, 3, 0), FINE: counters(90, 9, 7, 0), WAITING: counters(300, 9, 7, 4) });
    const r = await runJobs(['stats', 'QUIET', 'FINE', 'WAITING', '--needs-attention', '--sort', 'views', '--history-dir', dir], { env: serviceEnv });
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^[A-Z]+ /.test(l) && !l.startsWith('REFERENCE'));
    expect(rows.map((l) => l.split(' ')[0])).toEqual(['WAITING', 'QUIET']);
    expect(r.stdout).toContain('QUIET: views but no new applications for a week');
    expect(r.stdout).toContain('WAITING: 4 unviewed applications waiting');

    replies({ FINE: counters(95, 9, 8, 0) });
    const none = await runJobs(['stats', 'FINE', '--needs-attention', '--history-dir', dir], { env: serviceEnv });
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe('nothing needs attention (1 advert checked)\n');
  });

  it('--history draws a sparkline per counter with first and last values', async () => {
    const h = new History(dir, SERVICE);
    for (let d = 7; d >= 1; d--) h.append([{ reference: 'A-1', at: NOW - d * DAY, ...counters(10 * (8 - d), 1, 8 - d, 0) }]);
    replies({ 'A-1': counters(80, 1, 8, 0) });
    const r = await runJobs(['stats', 'A-1', '--history', '--history-dir', dir], { env: serviceEnv });
    expect(r.stdout).toContain('A-1  8 snapshots, 2026-11-13 09:00 → 2026-11-20 09:00 UTC');
    expect(r.stdout).toContain('  views         ▁▂▃▄▅▆▇█  10 → 80 (+70)');
    expect(r.stdout).toContain('  likes         ▁▁▁▁▁▁▁▁  1 → 1 (±0)');
  });

  it('refuses an unknown --sort column and a bad --since before sending anything (exit 2)', async () => {
    const sort = await runJobs(['stats', 'A-1', '--sort', 'colour', '--history-dir', dir], { env: serviceEnv });
    expect(sort.code).toBe(2);
    expect(sort.stderr).toContain('--sort: unknown column "colour"; expected one of reference, views');
    const since = await runJobs(['stats', 'A-1', '--since', 'a week', '--history-dir', dir], { env: serviceEnv });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since: expected a duration such as 7d');
  });
});

describe('jobs report', () => {
  it('writes the page to stdout with --file -, and refuses a bad --since (exit 2)', async () => {
    new History(dir, SERVICE).append([{ reference: 'A-1', at: NOW - DAY, ...counters(10, 1, 1, 1) }]);
    const r = await runJobs(['report', '--file', '-', '--history-dir', dir], { env: serviceEnv });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^<!doctype html>\n/);
    expect(r.stdout).toContain('<li><span class="name"><strong>A-1</strong></span><span class="why">1 unviewed application waiting</span></li>');
    expect(r.stderr).toBe('wrote the report to stdout: 1 advert over 1 day, 1 needs attention\n');
    const bad = await runJobs(['report', '--since', 'soon', '--history-dir', dir], { env: serviceEnv });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since: expected a duration such as 7d');
  });
});

describe('jobs stats with an unusable history', () => {
  it('still shows the statistics, and says why nothing was recorded', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    replies({ 'A-1': counters(100, 10, 4, 0) });
    const r = await runJobs(['stats', 'A-1', '--history-dir', file], { env: serviceEnv });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('A-1          100     10             4         0      10.0%        4.0%');
    expect(r.stderr).toMatch(
      /^jobs: warning: the history in .*not-a-folder\/https%3A%2F%2Fjobs.example.test%2Fapi could not be used \((ENOTDIR|EEXIST)\): no change shown, nothing recorded; pass --history-dir <dir> or --no-record\n$/,
    );
  });
});
