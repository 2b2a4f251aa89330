/**
 * The suite leaves the temp directory as it found it (test/support/temp-dirs.ts): a nested vitest
 * run with this suite's globalSetup and setup file, on test files written here, fails for a folder a
 * test made and left, and for a file left in the run's own folder; a test that uses tempDir() passes,
 * and in every case the temp directory is empty afterwards.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Runs vitest on `files` (name: text) with the suite's temp set-up, TMPDIR a folder of its own. */
function nestedRun(files: Record<string, string>): { code: number | null; output: string; tmp: string } {
  const root = tempDir('jobs-nested-');
  const tmp = tempDir('jobs-nested-tmp-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  const support = join(ROOT, 'test/support');
  writeFileSync(
    join(root, 'vitest.config.mjs'),
    `export default { test: { globals: true, pool: 'forks', include: ['*.test.ts'], globalSetup: [${JSON.stringify(join(support, 'temp-run.ts'))}], setupFiles: [${JSON.stringify(join(support, 'temp-file.ts'))}] } };\n`,
  );
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'JOBS_TEST_RUN_TMPDIR' && !k.startsWith('VITEST')) env[k] = v;
  env.TMPDIR = tmp;
  env.NO_COLOR = '1';
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', root, '--config', join(root, 'vitest.config.mjs')], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, output: `${r.stdout}${r.stderr}`, tmp };
}

const TEMP_DIRS = JSON.stringify(join(ROOT, 'test/support/temp-dirs.ts'));

describe('the temp directory after a run', () => {
  it('a folder a test left fails its file, a file left in the run folder fails the run; both are removed', { timeout: 150_000 }, () => {
    const r = nestedRun({
      'leaves-a-folder.test.ts': `import { mkdtempSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\nimport { tempDir } from ${TEMP_DIRS};\nit('makes two folders', () => {\n  tempDir('jobs-kept-');\n  mkdtempSync(join(tmpdir(), 'jobs-left-'));\n});\n`,
      'leaves-a-file.test.ts': `import { writeFileSync } from 'node:fs';\nimport { join } from 'node:path';\nit('writes beside the files', () => {\n  writeFileSync(join(process.env.JOBS_TEST_RUN_TMPDIR!, 'stray.txt'), 'x');\n});\n`,
    });
    expect(r.code, r.output).toBe(1);
    expect(r.output).toMatch(/this test file left 1 entry in the temp folder: jobs-left-\w{6}\n/);
    expect(r.output).not.toContain('jobs-kept-');
    expect(r.output).toContain('the tests left 1 entry in the temp folder (removed now): stray.txt\n');
    expect(readdirSync(r.tmp)).toEqual([]);
  });

  it('a run whose tests make their folders with tempDir() passes and leaves nothing', { timeout: 150_000 }, () => {
    const r = nestedRun({
      'clean.test.ts': `import { writeFileSync } from 'node:fs';\nimport { join } from 'node:path';\nimport { tempDir } from ${TEMP_DIRS};\nit('makes a folder', () => {\n  writeFileSync(join(tempDir('jobs-clean-'), 'a.txt'), 'a');\n});\n`,
    });
    expect(r.code, r.output).toBe(0);
    expect(readdirSync(r.tmp)).toEqual([]);
  });
});
