/**
 * vitest's globalSetup: the run's own temp folder (TMPDIR for every test file and what it spawns), and
 * the check at the end that the suite left nothing in it: a leftover is listed and fails the run (exit
 * 1), then removed, so a failing run does not litter the machine either. See temp-dirs.ts.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OWNER = 'JOBS_TEST_RUN_TMPDIR';

export default function setup(): (() => void) | undefined {
  // vitest calls a globalSetup once for the root and once per project, in one process: the first call owns the run.
  if (process.env[OWNER]) return undefined;
  const outer = tmpdir();
  const run = mkdtempSync(join(outer, 'jobs-test-run-'));
  // Others may pass through, as through /tmp: squid, started as root, drops to its own user to write its logs.
  chmodSync(run, 0o755);
  process.env[OWNER] = run;
  process.env.TMPDIR = run;
  return () => {
    const left = readdirSync(run);
    rmSync(run, { recursive: true, force: true, maxRetries: 3 });
    process.env.TMPDIR = outer;
    delete process.env[OWNER];
    if (left.length === 0) return;
    process.stderr.write(
      `\nthe tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder (removed now): ${left.slice(0, 20).join(', ')}${left.length > 20 ? ', ...' : ''}\n` +
        '  Make temp folders with tempDir() from test/support/temp-dirs.ts, or remove what a test makes in its afterEach/afterAll.\n',
    );
    process.exitCode = 1;
  };
}
