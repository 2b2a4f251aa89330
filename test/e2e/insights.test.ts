import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, isolatedEnv, jobs } from './helpers.js';

const DAY = 86_400_000;

describe('insights on a fresh machine: publish, fast-forward the embedded sandbox, report', () => {
  it("records a snapshot per simulated day at the sandbox's dates, and the report shows them", async () => {
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
    // One snapshot per advert per simulated day (the three adverts' times may straddle a second).
    const stamps = lines.map((l) => Number(l.split(' ')[0]) * 1000).sort();
    const times = stamps.filter((t, i) => i % 3 === 0);
    expect(new Set(stamps.map((t) => new Date(t).toISOString().slice(0, 10))).size).toBe(10);
    expect(times.length).toBe(10);
    expect(times[0]! - before).toBeGreaterThan(DAY - 60_000);
    expect(Math.abs(times[9]! - times[0]! - 9 * DAY)).toBeLessThan(10_000);

    // stats now runs at the sandbox's time: the change over a week comes from the history.
    const stats = await jobs(['--sandbox', 'stats', 'ACME-0042', '--since', '7d', '--json'], { env });
    expect(stats.code).toBe(0);
    const [row] = JSON.parse(stats.stdout).stats;
    expect(Math.abs(Date.parse(row.change.since) - times[2]!)).toBeLessThan(10_000);
    expect(row.change.views).toBeGreaterThan(0);

    const report = await jobs(['--sandbox', 'report', '--file', 'out/report.html', '--json'], { env, cwd: env.HOME! });
    expect(report.code).toBe(0);
    const doc = JSON.parse(report.stdout);
    expect(doc.service).toBe('sandbox');
    expect(doc.adverts.map((a: { reference: string }) => a.reference)).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
    // A total for every day from the first snapshot to the last (the stats run, on day 10).
    const days = doc.totals.map((t: { day: string }) => Date.parse(t.day));
    expect(days.length).toBeGreaterThanOrEqual(10);
    expect(new Date(days[0]).toISOString().slice(0, 10)).toBe(new Date(times[0]!).toISOString().slice(0, 10));
    expect(new Date(days.at(-1)).toISOString().slice(0, 10)).toBe(doc.to.slice(0, 10));
    expect(days.every((d: number, i: number) => i === 0 || d - days[i - 1] === DAY)).toBe(true);
    expect(doc.totals.at(-1).views).toBeGreaterThan(doc.totals[0].views);
    expect(readFileSync(join(env.HOME!, 'out/report.html'), 'utf8')).toContain('<h2>Funnel</h2>');

    // --reset puts the clock back.
    expect((await jobs(['sandbox', '--reset'], { env })).code).toBe(0);
    expect(readdirSync(join(env.XDG_STATE_HOME!, 'jobs'))).not.toContain('sandbox-clock.json');
  }, 60_000);

  it('refuses a bad --fast-forward before touching anything (exit 2)', async () => {
    const env = isolatedEnv();
    const bad = await jobs(['sandbox', '--fast-forward', 'a month'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fast-forward: expected a duration such as 7d');
    const mixed = await jobs(['sandbox', '--fast-forward', '3d', '--data', 'x.json'], { env });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('it does not go with --data or --reset');
    expect(readdirSync(env.XDG_STATE_HOME!)).toEqual([]);
  });

  it('says what to do when there is no history yet (exit 2)', async () => {
    const env = isolatedEnv();
    const r = await jobs(['--sandbox', 'report'], { env, cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no snapshots of sandbox in ');
    expect(r.stderr).toContain('publish adverts, or run jobs-cli stats --all (or jobs-cli stats <reference...>), then jobs-cli report');
  });

  it('npm start, then stats --all and report with no flag, from any folder, each advert by its title', async () => {
    const env = isolatedEnv();
    // `npm start`, as the README's first screen has it.
    expect((await jobs(['--sandbox', 'publish', 'examples/adverts/'], { env })).code).toBe(0);
    const stats = await jobs(['--sandbox', 'stats', '--all', '--json'], { env, cwd: env.HOME! });
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout).stats.map((s: { reference: string }) => s.reference)).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
    const report = await jobs(['--sandbox', 'report', '--file', 'r.html', '--json'], { env, cwd: env.HOME! });
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout).adverts.map((a: { title: string }) => a.title)).toEqual([
      'Backend Engineer (Node.js)',
      'Customer Support Specialist',
      'Field Technician',
    ]);
  }, 60_000);

  it('sandbox --reset forgets the history (the report shows nothing stale or future-dated) and what was published', async () => {
    const env = isolatedEnv();
    expect((await jobs(['--sandbox', 'publish', 'examples/adverts/'], { env })).code).toBe(0);
    expect((await jobs(['sandbox', '--fast-forward', '10d'], { env, timeoutMs: 30_000 })).code).toBe(0);
    const reset = await jobs(['sandbox', '--reset'], { env });
    expect(reset.code).toBe(0);
    expect(reset.stderr).toContain('its statistics history and its record of published adverts');
    const jobsState = join(env.XDG_STATE_HOME!, 'jobs');
    expect(readdirSync(jobsState).filter((f) => !f.endsWith('.lock'))).toEqual(['history']);
    expect(readdirSync(join(jobsState, 'history'))).toEqual([]);

    // Published again and read today: the report starts today, with nothing from before the reset.
    expect((await jobs(['--sandbox', 'publish', 'examples/adverts/backend-engineer.yaml'], { env })).code).toBe(0);
    expect((await jobs(['--sandbox', 'stats', 'ACME-0042'], { env })).code).toBe(0);
    const after = await jobs(['--sandbox', 'report', '--file', 'r.html', '--json'], { env, cwd: env.HOME! });
    expect(after.code).toBe(0);
    const doc = JSON.parse(after.stdout);
    expect(doc.adverts.map((a: { reference: string }) => a.reference)).toEqual(['ACME-0042']);
    expect(doc.totals).toHaveLength(1);
    expect(Date.parse(doc.to)).toBeLessThan(Date.now() + 60_000);
  }, 90_000);
});
