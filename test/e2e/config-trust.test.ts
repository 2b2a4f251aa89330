/**
 * A JavaScript config found by searching from the working directory is not run: `validate` runs on
 * pull requests in CI, and a pull request can add a `.jobsrc.cjs` anywhere up the tree. Named with
 * --config or JOBS_CONFIG it is run. The built binary, so cosmiconfig loads files as it does for users.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { advertYaml } from '../commands/harness.js';
import { isolatedEnv, jobs } from './helpers.js';

/** A project under a private HOME (the search stops there), with a config that leaves a marker when run. */
function project(name: string, code: string): { dir: string; env: Record<string, string>; marker: string } {
  const env = isolatedEnv();
  const dir = join(env.HOME!, 'work', 'project');
  mkdirSync(join(dir, 'adverts', 'team'), { recursive: true });
  writeFileSync(join(dir, 'adverts', 'team', 'a.yaml'), advertYaml('E2E-1'));
  mkdirSync(dirname(join(dir, name)), { recursive: true });
  writeFileSync(join(dir, name), code);
  return { dir, env, marker: join(dir, 'ran.marker') };
}

const CONFIGS: Array<[string, string]> = [
  ['.jobsrc.cjs', "require('node:fs').writeFileSync(require('node:path').join(__dirname, 'ran.marker'), 'ran');\nmodule.exports = { concurrency: 2 };\n"],
  [
    'jobs.config.mjs',
    "import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('ran.marker', import.meta.url), 'ran');\nexport default { concurrency: 2 };\n",
  ],
];

describe('JavaScript config files', () => {
  it.each(CONFIGS)('%s found by the search: validate does not run it, says so and how to load it, and exits 0', async (name, code) => {
    const { dir, env, marker } = project(name, code);
    // From a sub-folder: the file is found further up the tree.
    const r = await jobs(['validate', '.'], { cwd: join(dir, 'adverts', 'team'), env });
    expect(existsSync(marker)).toBe(false);
    expect(r.stderr).toBe(
      `jobs-cli: warning: ${join('~', 'work', 'project', name)} was not loaded: a JavaScript config found by searching from the working directory is not run, ` +
        `because any checkout (a pull request in CI, say) could bring one; name it with --config ${join('~', 'work', 'project', name)} or JOBS_CONFIG to run it, or write the settings as .jobsrc.yaml\n` +
        '✔ 1 advert in 1 file: all valid\n',
    );
    expect(r.code).toBe(0);
  });

  it.each(CONFIGS)('%s named with --config or JOBS_CONFIG is run', async (name, code) => {
    const { dir, env, marker } = project(name, code);
    const flag = await jobs(['--config', name, 'validate', 'adverts/'], { cwd: dir, env });
    expect(flag.stderr).toBe('✔ 1 advert in 1 file: all valid\n');
    expect(flag.code).toBe(0);
    expect(existsSync(marker)).toBe(true);

    const other = project(name, code);
    const viaEnv = await jobs(['validate', 'adverts/'], { cwd: other.dir, env: { ...other.env, JOBS_CONFIG: join(other.dir, name) } });
    expect(viaEnv.stderr).toBe('✔ 1 advert in 1 file: all valid\n');
    expect(existsSync(other.marker)).toBe(true);
  });
});

describe("cosmiconfig's meta config", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  // cosmiconfig() reads .config/config.js (and package.json's "cosmiconfig" key) in the working
  // folder with its own loaders; jobs searches with cosmiconfig's explorer alone, so a checkout
  // cannot run code, nor add places to search, that way. A JavaScript user config is what made
  // cosmiconfig() run before (it ran the planted file).
  function withUserJavaScript(name: string, code: string) {
    const p = project(name, code);
    made.push(p.env.HOME!);
    mkdirSync(join(p.env.XDG_CONFIG_HOME!, 'jobs'));
    writeFileSync(join(p.env.XDG_CONFIG_HOME!, 'jobs', 'config.cjs'), 'module.exports = { concurrency: 2 };\n');
    return p;
  }

  it('a .config/config.js in the working folder is not run', async () => {
    const { dir, env, marker } = withUserJavaScript(
      '.config/config.js',
      "require('node:fs').writeFileSync(require('node:path').join(__dirname, '..', 'ran.marker'), 'ran');\n",
    );
    const r = await jobs(['validate', 'adverts/'], { cwd: dir, env });
    expect(r.stderr).toBe('✔ 1 advert in 1 file: all valid\n');
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('search places added by package.json\'s "cosmiconfig" key are not searched', async () => {
    const { dir, env } = withUserJavaScript('package.json', JSON.stringify({ cosmiconfig: { searchPlaces: ['planted.yaml'] } }));
    writeFileSync(join(dir, 'planted.yaml'), 'concurrency: not-a-number\n');
    const r = await jobs(['config', 'path'], { cwd: dir, env });
    expect(r.stdout).not.toContain('planted.yaml');
    expect(r.code).toBe(0);
  });
});
