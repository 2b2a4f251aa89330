/**
 * Issue 26 as a whole: a folder of Markdown adverts, one for several places and one with dates, goes
 * through validate, sync over simulated days (the embedded sandbox's clock moved with
 * `jobs sandbox --fast-forward`), stats and report, with the built binary.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const DAY = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const markdown = (front: string, body: string) =>
  [
    '---',
    'title: Backend Engineer',
    'organization_name: ACME Robotics',
    'company_description: Warehouse robots.',
    'contract_id: 1',
    'salary_id: 3',
    'salary_text: 650 000 NOK',
    'industry_id: 12',
    'department_id: 4',
    'seniority: 3',
    'education: 3',
    'recruiter:',
    '  email: hiring@acme.example',
    front.trimEnd(),
    '---',
    '',
    body,
  ].join('\n');

describe('Markdown adverts for several places, opening and closing on their dates', () => {
  it('validates at the .md line, creates each place with the body, opens and closes on the days, and stats and report group them with days left', async () => {
    const env = isolatedEnv();
    const now = Date.now();
    const noon = Math.ceil((now - DAY / 2) / DAY) * DAY + DAY / 2;
    mkdirSync(join(env.XDG_STATE_HOME!, 'jobs'), { recursive: true });
    writeFileSync(join(env.XDG_STATE_HOME!, 'jobs', 'sandbox-clock.json'), `${JSON.stringify({ offset_ms: noon - now })}\n`);
    const opens = date(noon + 1 * DAY);
    const closes = date(noon + 3 * DAY);
    const dir = tempDir('jobs-issue26-');
    writeFileSync(join(dir, 'README.md'), '# Our adverts\n\nNot an advert: skipped.\n');
    // Line 15 of places.md is `locations:`; the second place (US, no state) starts on line 18.
    const places = (second: string) =>
      markdown(
        `reference: ACME-0042\nlocations:\n  - country: NO\n    city: Oslo\n${second}jobs:\n  closes: ${closes}\n`,
        'Plan the routes of our robots.\n\n- Node.js\n- Postgres\n',
      );
    writeFileSync(join(dir, 'places.md'), places('  - country: US\n    city: Austin\n'));
    writeFileSync(
      join(dir, 'later.md'),
      markdown(`reference: ACME-0050\nlocation:\n  country: NO\n  city: Bergen\njobs:\n  opens: ${opens}\n`, 'Support our robots.\n'),
    );
    const run = (...args: string[]) => jobs(['--sandbox', ...args], { env, timeoutMs: 30_000 });

    // A place's mistake is found at its line in the .md file; nothing is sent.
    const invalid = await run('validate', dir);
    expect(invalid.code).toBe(3);
    expect(invalid.stdout).toContain('places.md:18:5: locations[1].state: is missing');
    writeFileSync(join(dir, 'places.md'), places('  - country: US\n    city: Austin\n    state: TX\n'));
    const valid = await run('validate', dir);
    expect(valid.code, valid.stdout + valid.stderr).toBe(0);

    // Day 0: both places are created, each with the body as its job description; the later advert waits.
    const day0 = await run('sync', dir);
    expect(day0.code, day0.stderr).toBe(0);
    expect(day0.stdout).toContain('+ ACME-0042-oslo  places.md  (place of ACME-0042)');
    expect(day0.stdout).toContain('+ ACME-0042-austin  places.md  (place of ACME-0042)');
    expect(day0.stdout).toContain(`+ ACME-0050 (opens ${opens})`);
    const data = JSON.parse(readFileSync(join(env.XDG_STATE_HOME!, 'jobs', 'sandbox.json'), 'utf8'));
    const text = JSON.stringify(data);
    expect(text).toContain(JSON.stringify('Plan the routes of our robots.\n\n- Node.js\n- Postgres\n'));
    expect(text).not.toContain('ACME-0050');

    // stats of the group: each place, a total, and days left.
    const stats = await run('stats', 'ACME-0042', '--no-record');
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toMatch(/REFERENCE .* DAYS LEFT\n/);
    expect(stats.stdout).toMatch(/ACME-0042-austin .* 3\n/);
    expect(stats.stdout).toMatch(/= ACME-0042 \(2 places\)/);
    expect(stats.stdout).toContain(`ACME-0042-oslo: 3 days left (closes ${closes})`);

    // Day 1: the later advert opens.
    expect((await run('sandbox', '--fast-forward', '1d')).code).toBe(0);
    const day1 = await run('sync', dir);
    expect(day1.code, day1.stderr).toBe(0);
    expect(day1.stdout).toContain('✔ created ACME-0050');

    // Day 4, after the closing day: both places are deleted with --yes, without --prune.
    expect((await run('sandbox', '--fast-forward', '3d')).code).toBe(0);
    const day4 = await run('sync', dir, '--yes');
    expect(day4.code, day4.stderr).toBe(0);
    expect(day4.stdout).toContain(`- ACME-0042-oslo (closed ${closes})`);
    expect(day4.stdout).toContain('✔ deleted ACME-0042-austin');
    expect(day4.stdout).toContain('✔ deleted ACME-0042-oslo');

    // The report holds what is left.
    const report = await run('report', '--file', join(dir, 'report.html'), '--json');
    expect(report.code, report.stderr).toBe(0);
    const model = JSON.parse(report.stdout);
    expect(model.adverts.map((a: { reference: string }) => a.reference)).toContain('ACME-0050');
  }, 120_000);
});
