/**
 * The public API is a contract (semver, CHANGELOG.md): etc/jobs-cli.api.md records every name and
 * signature src/index.ts exports, and a change to that surface fails here until the report is
 * updated (`npm run api:update`), so it shows in review.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('the API report', () => {
  it('etc/jobs-cli.api.md is the public surface src/index.ts exports', () => {
    const r = spawnSync(process.execPath, ['scripts/api-report.mjs'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  }, 150_000);
});
