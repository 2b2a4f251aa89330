/**
 * What the tool writes into a project's `.jobs/` (the report, the resolved schema) stays out of the
 * project's own checks: git ignores the folder, and the project's `prettier --check .` (Prettier 3,
 * which reads ignore files only where it runs, and the nearest config file) passes with the files
 * there, whatever the project's own Prettier settings. A user's edit of those files is kept.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { History } from '../../../src/core/history/store.js';
import { prepareToolFolder } from '../../../src/core/storage/tool-folder.js';
import { runJobs } from '../../commands/harness.js';
import { tempDir } from '../../support/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const PRETTIER = join(ROOT, 'node_modules/prettier/bin/prettier.cjs');

const prettierCheck = (cwd: string) => spawnSync(process.execPath, [PRETTIER, '--check', '.'], { cwd, encoding: 'utf8', timeout: 60_000 });

/** A project with Prettier settings of its own (no semicolons, tabs) and formatted files. */
function project(): string {
  const dir = tempDir('jobs-tool-folder-');
  writeFileSync(join(dir, '.prettierrc.json'), '{ "semi": false, "useTabs": true }\n');
  writeFileSync(join(dir, 'index.js'), 'export const a = 1\n');
  expect(prettierCheck(dir).status).toBe(0);
  return dir;
}

describe('.jobs/ in a project', () => {
  it("the report and the resolved schema written there leave the project's prettier --check . passing", async () => {
    const dir = project();
    const historyDir = tempDir('jobs-tool-folder-history-');
    new History(historyDir, 'sandbox').append([{ reference: 'R1', at: Date.now() - 60_000, views: 1, likes: 0, applications: 0, applications_unviewed: 0 }]);
    const env = { XDG_CONFIG_HOME: tempDir('jobs-tool-folder-config-'), XDG_STATE_HOME: tempDir('jobs-tool-folder-state-') };
    const report = await runJobs(['--sandbox', 'report', '--history-dir', historyDir], { env, cwd: dir });
    expect(report.code, report.stderr).toBe(0);
    writeFileSync(join(dir, '.jobsrc.yaml'), 'concurrency: 2\n');
    const schema = await runJobs(['schema', 'create', '--resolved', '--write'], { env, cwd: dir });
    expect(schema.code, schema.stderr).toBe(0);
    expect(readdirSync(join(dir, '.jobs')).sort()).toEqual(['.gitignore', '.prettierrc.yaml', 'advert.schema.json', 'report.html']);

    const check = prettierCheck(dir);
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    // Prettier did look at the project: a file outside .jobs/ that is not formatted still fails it.
    writeFileSync(join(dir, 'index.js'), 'export const a = 1;\n');
    expect(prettierCheck(dir).stderr).toContain('index.js');
  });

  it('whatever is written later in a sub-folder of .jobs/ is left alone too', () => {
    const dir = project();
    prepareToolFolder(join(dir, '.jobs'));
    writeFileSync(join(dir, '.jobs', 'preview.html'), '<p>  unformatted   </p><div><span>x</span></div>\n');
    writeFileSync(join(dir, '.jobs', 'export.json'), '{"a":[1,2,3],    "b":2}');
    const nested = join(dir, '.jobs', 'preview');
    prepareToolFolder(join(dir, '.jobs')); // again: the files it wrote are kept
    mkdirSync(nested);
    writeFileSync(join(nested, 'backend.md'), '# Backend\n*  one\n*  two\n');
    expect(prettierCheck(dir).status).toBe(0);
  });

  it("keeps a user's edit of its own files", () => {
    const dir = project();
    prepareToolFolder(join(dir, '.jobs'));
    writeFileSync(join(dir, '.jobs', '.prettierrc.yaml'), 'semi: false\n');
    prepareToolFolder(join(dir, '.jobs'));
    expect(readFileSync(join(dir, '.jobs', '.prettierrc.yaml'), 'utf8')).toBe('semi: false\n');
    expect(readFileSync(join(dir, '.jobs', '.gitignore'), 'utf8')).toContain('*\n');
  });
});
