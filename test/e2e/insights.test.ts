import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, isolatedEnv, jobs } from './helpers.js';

const DAY = 86_400_000;

describe('insights on a fresh machine: publish, fast-forward the embedded sandbox, report', () => {
  it('records a snapshot per simulated day at the sandbox\'s dates, and the report shows them', async () => {
    const env = isolatedEnv();
    const published = await jobs(['--sandbox', 'publish', 'examples/adverts/'], { env });
    expect(published.code).toBe(0);
    const before = Date.now();

    const ff = await jobs(['sandbox', '--fast-forward', '10d'], { env, timeoutMs: 30_000 });
    expect(ff.code).toBe(0);
    expect(ff.stderr).toMatch(/the embedded sandbox's clock is now at \d{4}-\d{2}-\d{2} \(10 days ahead of real time/);
    expect(ff.stderr).toContain('recorded 10 daily snapshots of 3 adverts');
    const folder = join(env.XDG_STATE_HOME!, 'jobs', 'history', 'sandbox');
    const lines = readdirSync(folder).flatMap((f) => readFileSync(join(folder, f), 'utf8').trim().split('\n'));
    expect(lines.length).toBe(30);
    const times = [...new Set(lines.map((l) => Number(l.split(' ')[0]) * 1000))].sort();
    expect(times.length).toBe(10);
    expect(times[0]! - before).toBeGreaterThan(DAY - 60_000);
    expect(times[9]! - times[0]!).toBe(9 * DAY);

    // stats now runs at the sandbox's time: the change over a week comes from the history.
    const stats = await jobs(['--sandbox', 'stats', 'ACME-0042', '--since', '7d', '--json'], { env });
    expect(stats.code).toBe(0);
    const [row] = JSON.parse(stats.stdout).stats;
    expect(Date.parse(row.change.since)).toBe(times[2]);
    expect(row.change.views).toBeGreaterThan(0);

    const report = await jobs(['--sandbox', 'report', '--file', 'out/report.html', '--json'], { env, cwd: env.HOME! });
    expect(report.code).toBe(0);
    const doc = JSON.parse(report.stdout);
    expect(doc.service).toBe('sandbox');
    expect(doc.adverts.map((a: { reference: string }) => a.reference)).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
    expect(doc.totals.length).toBe(10);
    expect(doc.totals[9].views).toBeGreaterThan(doc.totals[0].views);
    expect(readFileSync(join(env.HOME!, 'out/report.html'), 'utf8')).toContain('<h2>Funnel</h2>');

    // --reset puts the clock back.
    expect((await jobs(['sandbox', '--reset'], { env })).code).toBe(0);
    expect(readdirSync(join(env.XDG_STATE_HOME!, 'jobs'))).not.toContain('sandbox-clock.json');
  }, 60_000);

  it('says what to do when there is no history yet (exit 2)', async () => {
    const env = isolatedEnv();
    const r = await jobs(['--sandbox', 'report'], { env, cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no snapshots of sandbox in ');
    expect(r.stderr).toContain('run jobs stats --all (or jobs stats <reference...>) first');
  });
});
