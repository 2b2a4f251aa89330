/**
 * A trusted JavaScript config that fails, and a --config file no loader reads: the built binary
 * reports the file, and exits 2, rather than passing the config over unsaid or saying "config file".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

describe('config loader errors', () => {
  it('a user config.cjs failing with ENOENT is an error naming it, not "no config file found"', async () => {
    const env = isolatedEnv();
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'jobs'));
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.cjs'), "require('node:fs').readFileSync('/nonexistent-jobs-file');\n");
    const r = await jobs(['config', 'list'], { cwd: env.HOME, env });
    expect(r.stderr).toBe(
      `jobs-cli: ${join('config', 'jobs', 'config.cjs')}: cannot be read: ENOENT: no such file or directory, open '/nonexistent-jobs-file'\n`,
    );
    expect(r.code).toBe(2);
  });

  it('--config of a JavaScript file that throws a string names the file', async () => {
    const env = isolatedEnv();
    writeFileSync(join(env.HOME!, 'c.cjs'), 'throw "boom";\n');
    const r = await jobs(['config', 'list', '--config', 'c.cjs'], { cwd: env.HOME, env });
    expect(r.stderr).toBe('jobs-cli: c.cjs: cannot be read: boom\n');
    expect(r.code).toBe(2);
  });

  it('--config of a file with an extension no loader reads names the file and the extensions read', async () => {
    const env = isolatedEnv();
    writeFileSync(join(env.HOME!, 'c.toml'), 'a = 1\n');
    const r = await jobs(['config', 'list', '--config', 'c.toml'], { cwd: env.HOME, env });
    expect(r.stderr).toBe(
      'jobs-cli: c.toml: cannot be read: no loader for extension ".toml": name it with .yaml, .yml, no extension, .json, .js, .cjs, .mjs\n',
    );
    expect(r.code).toBe(2);
  });
});

describe('package.json with "jobs": null', () => {
  it('is passed over by the settings as by `jobs config path`: the .jobsrc.yml after it applies', async () => {
    const env = isolatedEnv();
    writeFileSync(join(env.HOME!, 'package.json'), '{"name": "x", "jobs": null}\n');
    writeFileSync(join(env.HOME!, '.jobsrc.yml'), 'retries: 1\n');
    const path = await jobs(['config', 'path'], { cwd: env.HOME, env });
    expect(path.stdout).toContain('project config  .jobsrc.yml\n');
    const list = await jobs(['config', 'get', 'retries'], { cwd: env.HOME, env });
    expect(list.stdout).toBe('1\n');
    expect(list.code).toBe(0);
  });
});
