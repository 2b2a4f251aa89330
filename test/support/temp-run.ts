/**
 * vitest's globalSetup: the run's own temp folder (TMPDIR for every test file and what it spawns), and
 * the check at the end that the suite left nothing in it: a leftover is listed and fails the run (exit
 * 1), then removed, so a failing run does not litter the machine either. See temp-dirs.ts.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OWNER = 'JOBS_TEST_RUN_TMPDIR';

/** The folder Node's compile cache takes in TMPDIR by default (module.enableCompileCache()). */
export const NODE_CACHE = 'node-compile-cache';

export default function setup(): (() => void) | undefined {
  // vitest calls a globalSetup once for the root and once per project, in one process: the first call owns the run.
  if (process.env[OWNER]) return undefined;
  const outer = tmpdir();
  const run = mkdtempSync(join(outer, 'jobs-test-run-'));
  // Others may pass through, as through /tmp: squid, started as root, drops to its own user to write its logs.
  chmodSync(run, 0o755);
  process.env[OWNER] = run;
  process.env.TMPDIR = run;
  // Node 22+ keeps a compile cache in TMPDIR when a tool asks for one (npm, npx prettier on Node 24 do):
  // Node's, not the suite's, so it lives beside the run's folder and goes with it.
  const cache = mkdtempSync(join(outer, 'jobs-test-node-cache-'));
  process.env.NODE_COMPILE_CACHE = cache;
  return () => {
    const left = readdirSync(run).filter((name) => name !== NODE_CACHE);
    rmSync(run, { recursive: true, force: true, maxRetries: 3 });
    rmSync(cache, { recursive: true, force: true, maxRetries: 3 });
    delete process.env.NODE_COMPILE_CACHE;
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
