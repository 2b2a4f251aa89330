/**
 * What stood in a new user's way in the first hour (issue 22): each check is what the user sees.
 */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, SERVICE, tempFolder } from './harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('sync without a token', () => {
  it('fails on the credentials before drawing the plan (exit 2, nothing on stdout)', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const r = await runJobs(['sync', '.'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no token: set JOBS_TOKEN');
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('Plan:');
  });

  it('a dry run still needs no token', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    const r = await runJobs(['sync', '.', '--dry-run'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('+ A-1  a.yaml\n');
  });
});
