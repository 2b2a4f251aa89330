/**
 * Adverts that open and close on their `jobs:` dates, end to end: the built binary against the
 * embedded sandbox, its clock moved forward a day at a time with `jobs sandbox --fast-forward`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { advertYaml } from '../commands/harness.js';
import { tempDir } from '../support/temp-dirs.js';

const DAY = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('sync of dated adverts over simulated days', () => {
  it('creates an advert on its opening day, deletes one after its closing day (no --prune; --yes without a terminal), and stats shows days left', async () => {
    const env = isolatedEnv();
    // The sandbox's clock is set to the next noon UTC, so that no step of the test crosses a midnight.
    const now = Date.now();
    const noon = Math.ceil((now - DAY / 2) / DAY) * DAY + DAY / 2;
    mkdirSync(join(env.XDG_STATE_HOME!, 'jobs'), { recursive: true });
    writeFileSync(join(env.XDG_STATE_HOME!, 'jobs', 'sandbox-clock.json'), `${JSON.stringify({ offset_ms: noon - now })}\n`);
    const day0 = noon;
    const opens = date(day0 + 2 * DAY);
    const closes = date(day0 + 3 * DAY);
    const dir = tempDir('jobs-dates-e2e-');
    writeFileSync(join(dir, 'opens.yaml'), advertYaml('OPENS-2', `jobs:\n  opens: ${opens}\n`));
    writeFileSync(join(dir, 'closes.yaml'), advertYaml('CLOSES-3', `jobs:\n  closes: ${closes}\n`));
    const run = (...args: string[]) => jobs(['--sandbox', ...args], { env, timeoutMs: 30_000 });

    // Day 0: the advert that opens on day 2 is planned, not created.
    const first = await run('sync', dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`+ OPENS-2 (opens ${opens})`);
    expect(first.stdout).toContain('✔ created CLOSES-3');
    expect(first.stdout).not.toContain('created OPENS-2');
    expect(first.stderr).toContain('1 not open yet');
    expect((await run('stats', 'OPENS-2')).code).toBe(5);

    // stats counts the days left to the closing date from the sandbox's date.
    const stats = await run('stats', 'CLOSES-3', '--no-record');
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/DAYS LEFT\n.*CLOSES-3.* 3\n/);
    expect(stats.stdout).toContain(`Closing this week\n  CLOSES-3: 3 days left (closes ${closes})`);
    const statsJson = JSON.parse((await run('stats', 'CLOSES-3', '--no-record', '--json')).stdout);
    expect(statsJson.stats[0]).toMatchObject({ reference: 'CLOSES-3', closes, days_left: 3 });
    // So does the report, which lists it as closing this week.
    const report = await run('report', '--file', join(dir, 'report.html'), '--json');
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout).closing_this_week).toEqual([{ reference: 'CLOSES-3', title: 'Engineer', closes, days_left: 3 }]);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain(`3 days left (closes ${closes})`);

    // Day 2: created.
    expect((await run('sandbox', '--fast-forward', '2d')).code).toBe(0);
    const second = await run('sync', dir);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('✔ created OPENS-2');
    expect((await run('stats', 'OPENS-2', '--no-record')).code).toBe(0);

    // Day 4, after the closing day: without a terminal and without --yes, refused (exit 2), nothing sent.
    expect((await run('sandbox', '--fast-forward', '2d')).code).toBe(0);
    const refused = await run('sync', dir);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain(`- CLOSES-3 (closed ${closes})`);
    expect(refused.stderr).toContain('refusing to delete 1 advert without confirmation; nothing was sent');
    expect((await run('stats', 'CLOSES-3', '--no-record')).code).toBe(0);
    // validate warns of it, at the line of its closing date, and passes.
    const validate = await run('validate', dir);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain(`closes.yaml:19:11: jobs.closes: has passed: the advert is closed, and sync deletes it from the service [closed]`);

    // With --yes (as the scheduled CI sync runs), deleted, without --prune.
    const deleted = await run('sync', dir, '--yes');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('✔ deleted CLOSES-3');
    expect((await run('stats', 'CLOSES-3', '--no-record')).code).toBe(5);

    // Then nothing is left to do.
    const plan = await run('sync', dir, '--dry-run', '--detailed-exitcode', '--json');
    expect(plan.code).toBe(0);
    const lines = plan.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.type === 'plan_summary')).toMatchObject({ create: 0, delete: 0, closed: 1, unchanged: 1 });
  }, 120_000);
});
