/**
 * The sync state's name, with the built binary against a sandbox on 127.0.0.1: a folder synced for
 * the first time gets `<dir>/.jobs-state` (no extension), which a project that formats its JSON with
 * Prettier leaves alone; a folder an earlier version synced keeps its `.jobs-state.json`, and each
 * run says how to move it; `stats --all` finds the adverts of either.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

const PRETTIER = join(ROOT, 'node_modules/prettier/bin/prettier.cjs');
const prettierCheck = (cwd: string) => spawnSync(process.execPath, [PRETTIER, '--check', '.'], { cwd, encoding: 'utf8', timeout: 60_000 });

/** A project whose Prettier formats JSON (the default), with its adverts in adverts/. */
function project(): string {
  const dir = tempDir('jobs-state-name-');
  writeFileSync(join(dir, '.prettierrc'), '{ "semi": false }\n');
  writeFileSync(join(dir, 'package.json'), '{\n  "name": "careers",\n  "private": true\n}\n');
  mkdirSync(join(dir, 'adverts'));
  cpSync(join(ROOT, 'examples/adverts'), join(dir, 'adverts'), { recursive: true });
  // The examples as they are: prettier checks what the tool adds, not how the examples are written.
  writeFileSync(join(dir, '.prettierignore'), 'adverts/*.yaml\n');
  expect(prettierCheck(dir).status).toBe(0);
  return dir;
}

/** The references stats --all shows, read with no record of what was published (only the state in the current folder). */
async function statsAll(cwd: string, baseEnv: Record<string, string>): Promise<string[]> {
  const env = isolatedEnv({ JOBS_BASE_URL: baseEnv.JOBS_BASE_URL!, JOBS_TOKEN: baseEnv.JOBS_TOKEN! });
  const r = await jobs(['stats', '--all', '--json'], { cwd, env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).stats.map((x: { reference: string }) => x.reference);
}

describe('the sync state in the synced folder', () => {
  it("a new folder gets .jobs-state, and the project's prettier --check . passes with it", async () => {
    const s = await liveSandbox();
    const dir = project();
    const r = await jobs(['sync', 'adverts'], { cwd: dir, env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('git mv');
    expect(readdirSync(join(dir, 'adverts')).filter((n) => n.startsWith('.'))).toEqual(['.jobs-state']);

    const check = prettierCheck(dir);
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    // The same state under its earlier name is what fails the project's check.
    renameSync(join(dir, 'adverts/.jobs-state'), join(dir, 'adverts/.jobs-state.json'));
    expect(prettierCheck(dir).stderr).toContain('adverts/.jobs-state.json');
    renameSync(join(dir, 'adverts/.jobs-state.json'), join(dir, 'adverts/.jobs-state'));

    expect(await statsAll(join(dir, 'adverts'), s.env)).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
  });

  it('a folder with a .jobs-state.json of an earlier version keeps it, and each run says how to move it', async () => {
    const s = await liveSandbox();
    const dir = project();
    expect((await jobs(['sync', 'adverts'], { cwd: dir, env: s.env })).code).toBe(0);
    renameSync(join(dir, 'adverts/.jobs-state'), join(dir, 'adverts/.jobs-state.json'));

    const again = await jobs(['sync', 'adverts'], { cwd: dir, env: s.env });
    expect(again.code, again.stderr).toBe(0);
    // The records were found: nothing created or adopted again.
    expect(again.stderr).toContain('in sync: 3 unchanged');
    const hints = again.stderr.split('\n').filter((line) => line.includes('git mv'));
    expect(hints).toEqual([
      "jobs-cli: note: adverts/.jobs-state.json is the sync state's earlier name, which a project's formatter (prettier --check .) takes for JSON and fails on; after a run that finished, rename it: git mv adverts/.jobs-state.json adverts/.jobs-state",
    ]);
    expect(existsSync(join(dir, 'adverts/.jobs-state'))).toBe(false);
    expect(await statsAll(join(dir, 'adverts'), s.env)).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);

    // Moved as the note says: the next run uses it, and says nothing more.
    renameSync(join(dir, 'adverts/.jobs-state.json'), join(dir, 'adverts/.jobs-state'));
    const moved = await jobs(['sync', 'adverts'], { cwd: dir, env: s.env });
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain('in sync: 3 unchanged');
    expect(moved.stderr).not.toContain('git mv');
  });

  it('--state names the file as before: an earlier name given there is used without a note', async () => {
    const s = await liveSandbox();
    const dir = project();
    const r = await jobs(['sync', 'adverts', '--state', 'adverts/.jobs-state.json'], { cwd: dir, env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('git mv');
    expect(existsSync(join(dir, 'adverts/.jobs-state.json'))).toBe(true);
    expect(existsSync(join(dir, 'adverts/.jobs-state'))).toBe(false);
  });
});
