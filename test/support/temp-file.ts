/**
 * A setup file (vitest's setupFiles): each test file gets its own temp folder inside the run's, and
 * fails when it leaves anything there beyond the folders tempDir() made. See temp-dirs.ts.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dirs.js';
import { NODE_CACHE } from './temp-run.js';

const outer = tmpdir();
const mine = mkdtempSync(join(outer, 'file-'));
chmodSync(mine, 0o755); // as the run's folder (temp-run.ts)
process.env.TMPDIR = mine;

// Removing a test's generated folders (thousands of adverts) can take minutes on a busy machine.
const REMOVAL_MS = 300_000;

// Registered before the file's own hooks, so it runs after them (vitest runs afterAll hooks as a stack).
afterAll(() => {
  removeTempDirs();
  // A process given an environment of its own (no NODE_COMPILE_CACHE) may leave Node's cache here: not the test's.
  const left = readdirSync(mine).filter((name) => name !== NODE_CACHE);
  rmSync(mine, { recursive: true, force: true, maxRetries: 3 });
  process.env.TMPDIR = outer;
  if (left.length > 0) {
    throw new Error(
      `this test file left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder: ${left.slice(0, 20).join(', ')}${left.length > 20 ? ', ...' : ''}\n` +
        '  Make temp folders with tempDir() from test/support/temp-dirs.ts (removed when the file ends), or remove what the test makes in its afterEach/afterAll.',
    );
  }
}, REMOVAL_MS);
