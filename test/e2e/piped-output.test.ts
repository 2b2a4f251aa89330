/**
 * Output into a pipe arrives whole: the binary exits only once stdout has handed over everything it
 * wrote. Before, process.exit dropped what the pipe had not taken yet, and
 * `jobs events big.ndjson --dry-run | wc -l` counted about 1,700 of 20,000 lines.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

describe('output into a pipe', () => {
  it('every line of a long dry run reaches the reader', () => {
    const dir = tempDir('jobs-piped-');
    const lines = 20_000;
    writeFileSync(join(dir, 'big.ndjson'), Array.from({ length: lines }, (_, i) => `{"application_id":"app_${i}","kind":"recruiter_view"}\n`).join(''));
    const env = { ...isolatedEnv(), JOBS_BASE_URL: 'http://127.0.0.1:9', JOBS_TOKEN: 'unused' };
    // A shell pipeline, as a user types it: the reader is another process, not this test's buffer.
    const run = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" events big.ndjson --dry-run | wc -l`], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(Number(run.stdout.trim())).toBe(lines);
    expect(run.stderr).toContain(`${lines} events: ${lines} would be posted; nothing was sent`);
  });
});
