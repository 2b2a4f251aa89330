/**
 * What `export jsonld` and `export site` write into a project (JSON-LD, pages, the sitemap, the
 * manifest) leaves the project's own `prettier --check .` passing, whatever the project's Prettier
 * settings: each output folder gets the formatter guard of tool-folder.ts. Through the built binary.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const PRETTIER = join(ROOT, 'node_modules/prettier/bin/prettier.cjs');
const prettierCheck = (cwd: string) => spawnSync(process.execPath, [PRETTIER, '--check', '.'], { cwd, encoding: 'utf8', timeout: 60_000 });

describe('exports into a project', () => {
  it("export jsonld and export site leave the project's prettier --check . passing", async () => {
    const dir = tempDir('jobs-export-checks-');
    writeFileSync(join(dir, '.prettierrc'), '{ "semi": false, "useTabs": true }\n');
    writeFileSync(join(dir, 'index.js'), 'export const a = 1\n');
    mkdirSync(join(dir, 'adverts'));
    cpSync(join(ROOT, 'examples/adverts'), join(dir, 'adverts'), { recursive: true });
    // The examples as they are: the check is about what the tool adds.
    writeFileSync(join(dir, '.prettierignore'), 'adverts/*.yaml\n');
    expect(prettierCheck(dir).status).toBe(0);
    const env = isolatedEnv();

    const jsonld = await jobs(['export', 'jsonld', 'adverts', '--out', 'out/'], { cwd: dir, env });
    expect(jsonld.code, jsonld.stderr).toBe(0);
    const site = await jobs(['export', 'site', 'adverts/', '--out', 'site', '--site-url', 'https://e.x/'], { cwd: dir, env });
    expect(site.code, site.stderr).toBe(0);
    // Run again: the guard, now the tool's, is kept and not removed as stale.
    expect((await jobs(['export', 'site', 'adverts/', '--out', 'site', '--site-url', 'https://e.x/'], { cwd: dir, env })).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'site/.jobs-manifest.json'), 'utf8')).files).toContain('.prettierrc.yaml');

    const check = prettierCheck(dir);
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    // Prettier did look at the project: a file outside the output folders that is not formatted still fails it.
    writeFileSync(join(dir, 'index.js'), 'export const a = 1;\n');
    expect(prettierCheck(dir).stderr).toContain('index.js');
  });
});
