/**
 * `jobs rules [place]` through the built binary, with the fixture data (JOBS_TEST_RULES=places):
 * every rule with what a user needs to act on it, a place's rules (those of the places it is in and
 * inside it), --stale against today, the config's level, and the built-in data of this build.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const env = (extra: Record<string, string> = {}) => {
  const e = isolatedEnv({ JOBS_TEST_RULES: 'places', JOBS_TODAY: '2026-11-27', ...extra });
  dirs.push(e.HOME!);
  return e;
};

describe('jobs rules', () => {
  it('lists each rule: id, place, in force from, whom it covers, what it asks, not checked, source, last checked', async () => {
    const r = await jobs(['rules', 'US-CO'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'US-CO/pay-range  Colorado (state)',
        '  Pay range, a general description of benefits, and the application deadline in every posting',
        '  in force: from 2021-01-01 (in force today)',
        '  covers: employers with 1 or more employees (counted anywhere); remote jobs: covered (Covers remote jobs that could be performed in Colorado (7 CCR 1103-18, Rule 11.1))',
        '  asks: pay range (open ended refused, link refused); benefits; application deadline',
        "  not checked: How to apply (the service's own apply flow is assumed to satisfy it)",
        '  source: C.R.S. § 8-5-201, https://leg.colorado.gov/sites/default/files/images/olls/crs2023-title-08.pdf',
        '  also: 7 CCR 1103-18 (COMPS Order #39), Rule 11, https://cdle.colorado.gov/laws-regulations-guidance',
        '  last checked: 2026-11-27',
        '',
        '',
      ].join('\n'),
    );
  });

  it('a place lists the rules of the places it is in and inside it', async () => {
    const ids = async (...args: string[]) =>
      JSON.parse((await jobs(['rules', '--json', ...args], { env: env() })).stdout).rules.map((r: { id: string }) => r.id);
    expect(await ids('US')).toEqual(['US-CO/pay-range', 'US-NY/new-york-city/pay-range']);
    expect(await ids('us-ny')).toEqual(['US-NY/new-york-city/pay-range']);
    expect(await ids()).toEqual(['AT/minimum-pay', 'CA-ON/job-posting', 'US-CO/pay-range', 'US-NY/new-york-city/pay-range']);
  });

  it('--stale lists the rules last checked more than 12 months before today', async () => {
    const json = JSON.parse((await jobs(['rules', '--stale', '--json'], { env: env() })).stdout);
    expect(json).toMatchObject({ format_version: 1, today: '2026-11-27', rules: [{ id: 'AT/minimum-pay', checked: '2024-06-01', stale: true }] });
    expect(JSON.parse((await jobs(['rules', '--stale', '--json'], { env: env({ JOBS_TODAY: '2025-06-01' }) })).stdout).rules).toEqual([]);
    expect((await jobs(['rules', '--stale'], { env: env({ JOBS_TODAY: '2025-06-01' }) })).stderr).toBe('no rule was last checked more than 12 months ago\n');
  });

  it('says what the config makes of a rule, and refuses a place it does not know (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-rules-cmd-'));
    dirs.push(dir);
    writeFileSync(join(dir, '.jobsrc.yaml'), 'rules:\n  CA-ON/job-posting: off\n');
    expect((await jobs(['rules', 'CA-ON'], { cwd: dir, env: env() })).stdout).toMatch(
      /^CA-ON\/job-posting {2}Ontario \(province\) {2}\(the config sets it to off\)\n/,
    );
    const bad = await jobs(['rules', 'Narnia'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"Narnia" is not a place jobs knows');
  });

  it('without a data set of a test, lists the rules built in (none is said so)', async () => {
    const e = isolatedEnv();
    dirs.push(e.HOME!);
    const r = await jobs(['rules', '--json'], { env: e });
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout).rules)).toBe(true);
  });
});
