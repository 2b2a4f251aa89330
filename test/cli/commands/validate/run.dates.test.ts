/**
 * `jobs validate` of dated adverts (src/cli/commands/validate.ts): a closing date that has passed is
 * a warning at its line in every format, and the exit code stays 0; closes before opens is an error.
 */
import { describe, expect, it } from 'vitest';
import { advertYaml, runJobs, tempFolder } from '../../../commands/harness.js';

const folder = () =>
  tempFolder({ 'closed.yaml': advertYaml('C-1', 'jobs:\n  closes: 2026-11-30\n'), 'open.yaml': advertYaml('O-1', 'jobs:\n  closes: 2026-12-01\n') });
const env = { JOBS_TODAY: '2026-12-01' };

describe('validate of dated adverts', () => {
  it('warns of an advert whose closing date has passed, at that line, and exits 0', async () => {
    const r = await runJobs(['validate', '.'], { cwd: folder(), env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('⚠ closed.yaml:19:11: jobs.closes: has passed: the advert is closed, and sync deletes it from the service [closed]\n');
    expect(r.stderr).toBe('✔ 2 adverts in 2 files: all valid (1 warning)\n');
    // Nothing to warn of the day before.
    expect((await runJobs(['validate', '.'], { cwd: folder(), env: { JOBS_TODAY: '2026-11-30' } })).stdout).toBe('');
  });

  it('gives the warning to --json, GitHub, SARIF and Code Quality as a warning, and leaves JUnit without it', async () => {
    const dir = folder();
    const json = JSON.parse((await runJobs(['validate', '.', '--json'], { cwd: dir, env })).stdout);
    expect(json.valid).toBe(true);
    expect(json.summary).toMatchObject({ errors: 0, warnings: 1 });
    expect(json.warnings).toEqual([expect.objectContaining({ file: 'closed.yaml', line: 19, path: 'jobs.closes', rule: 'closed', severity: 'warning' })]);
    const github = await runJobs(['validate', '.', '--output', 'github'], { cwd: dir, env });
    expect(github.code).toBe(0);
    expect(github.stdout).toMatch(/^::warning file=closed\.yaml,line=19,col=11,title=jobs%3A closed::jobs\.closes: has passed/);
    const sarif = JSON.parse((await runJobs(['validate', '.', '--output', 'sarif'], { cwd: dir, env })).stdout);
    expect(sarif.runs[0].results.map((r: { level: string; ruleId: string }) => `${r.level} ${r.ruleId}`)).toEqual(['warning closed']);
    const quality = JSON.parse((await runJobs(['validate', '.', '--output', 'codequality'], { cwd: dir, env })).stdout);
    expect(quality.map((i: { severity: string }) => i.severity)).toEqual(['minor']);
    const junit = await runJobs(['validate', '.', '--output', 'junit'], { cwd: dir, env });
    expect(junit.code).toBe(0);
    expect(junit.stdout).not.toContain('<failure');
  });

  it('refuses an advert that closes before it opens (exit 3), at the line of closes', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1', 'jobs:\n  opens: 2026-12-10\n  closes: 2026-12-01\n') });
    const r = await runJobs(['validate', '.'], { cwd: dir, env });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('✖ a.yaml:20:11: jobs.closes: is before jobs.opens: the advert would never be up [before_opens]\n');
  });
});
