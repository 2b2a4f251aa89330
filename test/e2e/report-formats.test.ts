/**
 * The report formats CI systems read, checked by what nobody here wrote: GitLab Code Quality against
 * GitLab's documented fields (JUnit XML with real JUnit readers: report-formats.real.test.ts). Then the format registry's promises: a
 * command refuses a format it cannot give (exit 2, before it does anything), and a fatal error comes
 * in the format that was asked for.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { advertYaml, tempFolder } from '../commands/harness.js';

const SEVERITIES = ['info', 'minor', 'major', 'critical', 'blocker'];
function checkCodeQuality(doc: unknown): string[] {
  const problems: string[] = [];
  if (!Array.isArray(doc)) return ['not a JSON array'];
  for (const [i, issue] of doc.entries()) {
    const at = `issue ${i}`;
    if (typeof issue?.description !== 'string' || issue.description === '') problems.push(`${at}: description`);
    if (typeof issue?.check_name !== 'string' || issue.check_name === '') problems.push(`${at}: check_name`);
    if (typeof issue?.fingerprint !== 'string' || issue.fingerprint === '') problems.push(`${at}: fingerprint`);
    if (!SEVERITIES.includes(issue?.severity)) problems.push(`${at}: severity ${issue?.severity}`);
    if (typeof issue?.location?.path !== 'string' || issue.location.path === '') problems.push(`${at}: location.path`);
    if (!Number.isInteger(issue?.location?.lines?.begin) || issue.location.lines.begin < 1) problems.push(`${at}: location.lines.begin`);
  }
  const prints = doc.map((d: { fingerprint?: string }) => d?.fingerprint);
  if (new Set(prints).size !== prints.length) problems.push('fingerprints are not unique');
  return problems;
}

const VALID = advertYaml('CI-1');
// Two errors on one advert: a blank title (line 2) and a negative seniority (line 11).
const INVALID = advertYaml('CI-2').replace('title: Engineer', 'title: ""').replace('seniority: 0', 'seniority: -1');

describe('--output codequality', () => {
  it('has GitLab’s required fields, and fingerprints that do not move with the lines', async () => {
    const dir = tempFolder({ 'bad.yaml': INVALID, 'good.yaml': VALID });
    const r = await jobs(['validate', '--output', 'codequality', '.'], { cwd: dir });
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(checkCodeQuality(doc)).toEqual([]);
    expect(doc.map((i: { check_name: string; severity: string; location: unknown }) => [i.check_name, i.severity, i.location])).toEqual([
      ['jobs/blank', 'major', { path: 'bad.yaml', lines: { begin: 2 } }],
      ['jobs/less_than', 'major', { path: 'bad.yaml', lines: { begin: 11 } }],
    ]);
    expect(doc[0].description).toBe('title: must not be blank [blank]');

    // Two comment lines above: the same issues at new lines keep their fingerprints.
    writeFileSync(join(dir, 'bad.yaml'), `# moved\n# down\n${INVALID}`);
    const moved = JSON.parse((await jobs(['validate', '-o', 'codequality', '.'], { cwd: dir })).stdout);
    expect(moved.map((i: { location: { lines: { begin: number } } }) => i.location.lines.begin)).toEqual([4, 13]);
    expect(moved.map((i: { fingerprint: string }) => i.fingerprint)).toEqual(doc.map((i: { fingerprint: string }) => i.fingerprint));
  });

  it('is an empty array when all is well', async () => {
    const dir = tempFolder({ 'good.yaml': VALID });
    const r = await jobs(['validate', '-o', 'codequality', '.'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});

describe('formats a command cannot give, and fatal errors in the chosen format', () => {
  it('stats -o sarif is refused with exit 2 before anything is sent', async () => {
    const s = await liveSandbox();
    const r = await jobs(['stats', 'CI-1', '-o', 'sarif'], { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stats cannot give --output sarif');
    expect(s.log).toEqual([]);
    const sarif = JSON.parse(r.stdout);
    expect(sarif.runs[0].invocations[0]).toMatchObject({ executionSuccessful: false, exitCode: 2 });
  });

  it('--output github: a fatal error is an ::error line; json: the error object; junit: an <error>', async () => {
    const env = isolatedEnv({ JOBS_BASE_URL: 'http://127.0.0.1:9' });
    const dir = tempFolder({ 'a.yaml': VALID });
    // No token anywhere: a configuration error (exit 2) before anything is sent.
    const github = await jobs(['publish', '--output', 'github', 'a.yaml'], { cwd: dir, env });
    expect(github.code).toBe(2);
    expect(github.stdout).toMatch(/^::error title=jobs%3A usage::.*token/);
    const json = await jobs(['publish', '--json', 'a.yaml'], { cwd: dir, env });
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { exit_code: 2 } });
    const junit = await jobs(['publish', '-o', 'junit', 'a.yaml'], { cwd: dir, env });
    expect(junit.code).toBe(2);
    // What JUnit readers make of it: report-formats.real.test.ts.
    expect(junit.stdout).toMatch(/<error [^>]*type="usage"/);
    const cq = await jobs(['publish', '-o', 'codequality', 'a.yaml'], { cwd: dir, env });
    expect(checkCodeQuality(JSON.parse(cq.stdout))).toEqual([]);
    expect(JSON.parse(cq.stdout)[0]).toMatchObject({ severity: 'blocker', check_name: 'jobs/usage' });
  });
});
