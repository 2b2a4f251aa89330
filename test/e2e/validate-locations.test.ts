/**
 * `validate` checks every place of an advert written for several places (`locations:`) and reports
 * each finding at its list item, the same on one thread and on worker threads (a run of 1,000 files
 * or more), and in the report formats (SARIF, GitHub annotations, JUnit).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const body = (reference: string, where: string) =>
  `reference: ${reference}\ntitle: T\norganization_name: O\ncompany_description: C\njob_description: J\ncontract_id: 1\nsalary_id: 1\nsalary_text: S\nindustry_id: 1\ndepartment_id: 1\nseniority: 0\neducation: 0\n${where}recruiter:\n  email: r@example.com\n`;

// Lines 13-21: Berlin, Austin (no state: the US needs one), a second Berlin (the same reference).
const MANY_PLACES = body(
  'ACME-0042',
  'locations:\n  - country: DE\n    city: Berlin\n  - country: US\n    city: Austin\n  - country: DE\n    city: berlin\n  - country: FR\n    city: Lyon\n',
);

const expected = [
  '✖ places.yaml:16:5: locations[1].state: is missing: it is required because location.country is US (also for CA, MX) [missing]',
  `✖ places.yaml:18:5: this place's reference "ACME-0042-berlin" is already the reference of the place at line 14: give one of them its own \`reference:\` (a place's reference is the file's reference and its city)`,
  // Another file took the reference a place makes first.
  '✖ places.yaml:20:5: reference "ACME-0042-lyon" is already used by ad-0000.yaml:1:12; each advert needs its own',
];

describe('validate of adverts for several places', () => {
  const dir = tempDir('jobs-places-');
  // Read in name order: ad-0000 ... ad-0999, then places.yaml; ad-0000 takes a reference a place makes.
  for (let i = 0; i < 1000; i++)
    writeFileSync(join(dir, `ad-${String(i).padStart(4, '0')}.yaml`), body(i === 0 ? 'ACME-0042-lyon' : `AD-${i}`, 'location:\n  country: NO\n  city: Oslo\n'));
  writeFileSync(join(dir, 'places.yaml'), MANY_PLACES);

  it('reports each place at its list item, on one thread and on worker threads alike', async () => {
    const runs = await Promise.all(
      ['0', '1'].map((n) => jobs(['validate', '.', '--verbose'], { cwd: dir, env: isolatedEnv({ JOBS_WORKERS: n }), timeoutMs: 60_000 })),
    );
    for (const r of runs) {
      expect(r.stdout.trimEnd().split('\n')).toEqual(expected);
      expect(r.code).toBe(3);
    }
    expect(runs[0]!.stderr).toContain('checked on one thread');
    expect(runs[1]!.stderr).toContain('1 worker thread');
  }, 120_000);

  it('points SARIF, GitHub annotations and JUnit at the list item', async () => {
    const file = join(dir, 'places.yaml');
    const sarif = await jobs(['validate', file, '--output', 'sarif'], { cwd: dir, env: isolatedEnv() });
    const results = (
      JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] }
    ).runs[0]!.results;
    expect(results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.region.startLine]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
      ['missing', 16],
      ['duplicate_reference', 18],
    ]);
    const github = await jobs(['validate', file, '--output', 'github'], { cwd: dir, env: isolatedEnv() });
    expect(github.stdout).toMatch(/^::error file=places\.yaml,line=16,col=5,/m);
    expect(github.stdout).toMatch(/^::error file=places\.yaml,line=18,col=5,/m);
    const junit = await jobs(['validate', file, '--output', 'junit'], { cwd: dir, env: isolatedEnv() });
    expect(junit.stdout).toContain('places.yaml:16:5');
    expect(junit.stdout).toContain('places.yaml:18:5');
  }, 60_000);

  it('reports a field the places share once, at its line', async () => {
    const one = tempDir('jobs-places-');
    writeFileSync(
      join(one, 'eng.yaml'),
      MANY_PLACES.replace('title: T', 'title: ""')
        .replace('  - country: US\n    city: Austin\n', '  - country: US\n    city: Austin\n    state: TX\n')
        .replace('city: berlin', 'city: Paris'),
    );
    const r = await jobs(['validate', 'eng.yaml'], { cwd: one, env: isolatedEnv() });
    expect(r.stdout).toBe('✖ eng.yaml:2:8: title: must not be blank [blank]\n');
    expect(r.stderr).toBe('✖ 1 error: 4 adverts in 1 file checked, 4 invalid\n');
    expect(r.code).toBe(3);
  });

  it('refuses location and locations together, at the list (exit 3)', async () => {
    const one = tempDir('jobs-places-');
    writeFileSync(join(one, 'eng.yaml'), MANY_PLACES.replace('locations:\n', 'location:\n  country: NO\n  city: Oslo\nlocations:\n'));
    const r = await jobs(['validate', 'eng.yaml'], { cwd: one, env: isolatedEnv() });
    // At the list (its first item), below the `location` it doubles.
    expect(r.stdout).toBe(
      '✖ eng.yaml:17:3: the advert gives both `location` and `locations`: keep `location` for one place, or move it into the `locations` list (one advert is published per place)\n',
    );
    expect(r.code).toBe(3);
  });
});
