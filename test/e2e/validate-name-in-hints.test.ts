/** A finding's hint names the tool as it was invoked (program-name.ts), like every other message. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

describe('validate: the hint of a Markdown advert without front matter', () => {
  it("says 'jobs-cli init --markdown' to jobs-cli, and 'jobs init --markdown' to the jobs function", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-name-hint-'));
    const env = isolatedEnv();
    try {
      writeFileSync(join(dir, 'a.md'), 'no front matter here\n');
      const asCli = await jobs(['validate', 'a.md'], { cwd: dir, env });
      expect(asCli.stdout).toContain("Add them, or see 'jobs-cli init --markdown'\n");
      expect(asCli.code).toBe(3);
      // The shell function of shell-init names itself jobs through JOBS_CLI_NAME.
      const asJobs = await jobs(['validate', 'a.md'], { cwd: dir, env: { ...env, JOBS_CLI_NAME: 'jobs' } });
      expect(asJobs.stdout).toContain("Add them, or see 'jobs init --markdown'\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(env.HOME!, { recursive: true, force: true });
    }
  });
});
