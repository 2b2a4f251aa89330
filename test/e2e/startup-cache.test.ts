/**
 * bin/jobs.js compiles dist/cli.cjs with the V8 code cache the build made (dist/cli.cache): a
 * cache V8 refuses costs a start about twice as long, silently. The build writes the bundle as the
 * function bin/jobs.js compiles and takes the cache from a run of bin/jobs.js (scripts/build.mjs,
 * scripts/code-cache.mjs); should they come to differ, every run falls back to a cache of its own
 * in the user's cache folder, which these tests see.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advertYaml } from '../../bench/generate.mjs';
import { BIN, isolatedEnv, ROOT } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

function validate(bin: string, env: Record<string, string>, cwd: string) {
  const r = spawnSync(process.execPath, [bin, 'validate', 'one.yaml'], { cwd, env, encoding: 'utf8', timeout: 15_000 });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/1 advert in 1 file: all valid/);
}

describe("the built CLI's code cache", () => {
  // By the Node that made it: npm test builds it; .ci/run makes it again for its Node 24 run.
  it('is accepted: a run makes no cache of its own', () => {
    const dir = tempDir('jobs-startup-cache-');
    writeFileSync(join(dir, 'one.yaml'), advertYaml(1));
    const env = isolatedEnv();
    validate(BIN, env, dir);
    expect(existsSync(join(env.XDG_CACHE_HOME!, 'jobs'))).toBe(false);
  });

  it('when missing, is made once in the user cache folder by the first run and used by the next', () => {
    const dir = tempDir('jobs-startup-cache-');
    writeFileSync(join(dir, 'one.yaml'), advertYaml(1));
    // A copy of the package without dist/cli.cache.
    const pkg = join(dir, 'pkg');
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    rmSync(join(pkg, 'dist', 'cli.cache'));
    const env = isolatedEnv();
    const bin = join(pkg, 'bin', 'jobs.js');
    validate(bin, env, dir);
    const own = readdirSync(join(env.XDG_CACHE_HOME!, 'jobs'));
    expect(own).toEqual([expect.stringMatching(/^cli-v[\d.]+-\d+-\d+\.cache$/)]);
    const made = statSync(join(env.XDG_CACHE_HOME!, 'jobs', own[0]!)).mtimeMs;
    validate(bin, env, dir);
    // Accepted: a refused cache would be written again.
    expect(readdirSync(join(env.XDG_CACHE_HOME!, 'jobs'))).toEqual(own);
    expect(statSync(join(env.XDG_CACHE_HOME!, 'jobs', own[0]!)).mtimeMs).toBe(made);
  });

  it('the rest of the CLI (dist/cli-rest.cjs) is not read by validate, and its cache is accepted when sync loads it', () => {
    const dir = tempDir('jobs-startup-cache-');
    writeFileSync(join(dir, 'one.yaml'), advertYaml(1));
    mkdirSync(join(dir, 'adverts'));
    writeFileSync(join(dir, 'adverts', 'one.yaml'), advertYaml(1));
    const env = isolatedEnv();
    const sync = (bin: string) =>
      spawnSync(process.execPath, [bin, '--sandbox', 'sync', 'adverts', '--dry-run'], { cwd: dir, env, encoding: 'utf8', timeout: 15_000 });
    const r = sync(BIN);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/BENCH-000001/);
    // Accepted: a refused cache would be remade in the user's cache folder.
    expect(existsSync(join(env.XDG_CACHE_HOME!, 'jobs'))).toBe(false);

    // A copy of the package without dist/cli-rest.cjs: validate does not miss it, sync does.
    const pkg = join(dir, 'pkg');
    for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    rmSync(join(pkg, 'dist', 'cli-rest.cjs'));
    const bin = join(pkg, 'bin', 'jobs.js');
    validate(bin, env, dir);
    expect(sync(bin).status).not.toBe(0);
  });
});
