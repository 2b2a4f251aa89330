import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, tempFolder } from '../../../commands/harness.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const env = { JOBS_TODAY: '2026-11-27' };

describe('jobs export jsonld (in-process)', () => {
  it('employmentType from the config by contract name or id; a name not in constants.contract is said, once', async () => {
    dir = tempFolder({
      '.jobsrc.yaml': 'constants:\n  contract: { permanent: 1 }\nexport:\n  employment_type: { permanent: FULL_TIME, "2": PART_TIME, freelance: CONTRACTOR }\n',
      'ads/a.yaml': advertYaml('A-1', 'jobs:\n  closes: 2026-12-31\n  pay: { min: 1000, max: 2000, currency: EUR, per: month }\n').replace(
        /^salary_text: .*\n/m,
        '',
      ),
      'ads/b.yaml': advertYaml('B-1', 'jobs:\n  closes: 2026-12-31\n  pay: { min: 1000, max: 2000, currency: EUR, per: month }\n')
        .replace(/^salary_text: .*\n/m, '')
        .replace('contract_id: 1', 'contract_id: 2'),
      'ads/c.yaml': advertYaml('C-1', 'jobs:\n  closes: 2026-12-31\n  pay: { min: 1000, max: 2000, currency: EUR, per: month }\n')
        .replace(/^salary_text: .*\n/m, '')
        .replace('contract_id: 1', 'contract_id: 3'),
    });
    const r = await runJobs(['export', 'jsonld', 'ads'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const types = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { identifier: { value: string }; employmentType?: string })
      .map((p) => [p.identifier.value, p.employmentType ?? null]);
    expect(types).toEqual([
      ['A-1', 'FULL_TIME'],
      ['B-1', 'PART_TIME'],
      ['C-1', null],
    ]);
    expect(r.stderr).toContain('ads/c.yaml:6:14: contract_id: Google recommends employmentType: this contract has no employment type in the config');
    expect(r.stderr.match(/export\.employment_type\.freelance: no contract of that name in constants\.contract/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('left out of every posting');
  });

  it('--json: one document with the postings, what was left out and the warnings; stderr quiet', async () => {
    dir = tempFolder({
      'ads/a.yaml': advertYaml('A-1'),
      'ads/old.yaml': advertYaml('OLD-1', 'jobs:\n  closes: 2026-11-01\n'),
      'ads/later.yaml': advertYaml('LATER-1', 'jobs:\n  opens: 2027-01-01\n'),
    });
    const r = await runJobs(['--json', 'export', 'jsonld', join(dir, 'ads')], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as {
      postings: { title: string }[];
      left: { reference: string; why: string; date: string }[];
      notes: string[];
      warnings: { rule: string }[];
    };
    expect(doc.postings.map((p) => p.title)).toEqual(['Engineer']);
    expect(doc.left.map(({ reference, why, date }) => ({ reference, why, date }))).toEqual([
      { reference: 'LATER-1', why: 'not_open', date: '2027-01-01' },
      { reference: 'OLD-1', why: 'closed', date: '2026-11-01' },
    ]);
    expect(doc.notes).toEqual([expect.stringContaining('employmentType is left out of every posting')]);
    expect(doc.warnings.map((w) => w.rule).sort()).toEqual(['closed', 'not_open', 'recommended', 'recommended']);
  });
});
