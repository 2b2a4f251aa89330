/**
 * The packed package's install is quiet and builds nothing: `npm pack` with its scripts (prepack
 * takes the `prepare` script out of the packed package.json, postpack puts the file back), then
 * `npm install -g` of the tarball into a temporary prefix WITH install scripts allowed to run, which
 * must print no warning and leave dist/ as packed. And `npm publish --dry-run` runs clean.
 *
 * It works on a copy of the package's files, so the checkout's package.json and dist/ are never
 * touched while other tests read them (JOBS_PACK_NO_BUILD=1: the copy's dist/ is the built one).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isolatedEnv } from '../e2e/helpers.js';
import { startSecretService } from '../support/secret-service.js';
import { tempDir } from '../support/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function npm(args: string[], cwd: string, extra: Record<string, string> = {}): Promise<Run> {
  return exec(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, cwd, extra);
}

function exec(file: string, args: string[], cwd: string, extra: Record<string, string> = {}, input?: string): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) env[k] = v;
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  return new Promise((done, fail) => {
    const child = spawn(file, args, { cwd, env: { ...env, ...extra }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${file} ${args.join(' ')} did not finish in time\n${stdout}\n${stderr}`));
    }, 90_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

let work: string;
let copy: string;
let manifestBefore: string;
let tarball: string | undefined;
let installedAt: string | undefined;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cli.cjs'))) throw new Error('dist/ is missing: run `npm run build` before this test (npm test does)');
  work = tempDir('jobs-pack-install-');
  copy = join(work, 'package');
  mkdirSync(copy);
  for (const entry of ['package.json', 'bin', 'dist', 'schemas', 'README.md', 'LICENSE', 'CHANGELOG.md', 'scripts/prepack.mjs']) {
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  manifestBefore = readFileSync(join(copy, 'package.json'), 'utf8');
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const noWarnings = (text: string) => text.split('\n').filter((line) => /\bwarn\b|WARN/i.test(line));

describe('the packed package', () => {
  it('has no prepare script, installs with scripts allowed without a warning, and builds nothing', async () => {
    expect(JSON.parse(manifestBefore).scripts.prepare, 'a clone and a git install still build through prepare').toBe('npm run build');
    const pack = await npm(['pack', '--json', '--pack-destination', work], copy, { JOBS_PACK_NO_BUILD: '1' });
    expect(pack.code, pack.stderr).toBe(0);
    // postpack put the file back byte for byte.
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(manifestBefore);
    const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string }[];
    tarball = join(work, info!.filename);

    const prefix = join(work, 'prefix');
    const install = await npm(
      ['install', '--global', '--prefix', prefix, '--prefer-offline', '--foreground-scripts', '--no-audit', '--no-fund', tarball],
      work,
    );
    expect(install.code, install.stderr).toBe(0);
    expect(noWarnings(install.stderr)).toEqual([]);
    expect(noWarnings(install.stdout)).toEqual([]);
    // --foreground-scripts would show "> jobs-cli@0.1.0 prepare" had any lifecycle script of ours run.
    expect(install.stdout + install.stderr).not.toMatch(/jobs-cli@[^ ]+ (prepare|build|install|postinstall)/);
    const installed = process.platform === 'win32' ? join(prefix, 'node_modules', 'jobs-cli') : join(prefix, 'lib', 'node_modules', 'jobs-cli');
    installedAt = prefix;
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.prepare).toBeUndefined();
    expect(readFileSync(join(installed, 'dist/cli.cjs'))).toEqual(readFileSync(join(copy, 'dist/cli.cjs')));
    expect(existsSync(join(installed, 'scripts'))).toBe(false);
    // ajv-formats is for the build only (scripts/generate-validators.mjs): not installed, not required by dist/.
    expect(existsSync(join(installed, 'node_modules', 'ajv-formats'))).toBe(false);
    const chunks = readdirSync(join(installed, 'dist/chunks')).map((f) => `dist/chunks/${f}`);
    for (const file of ['dist/cli.cjs', 'dist/validate-worker.cjs', 'dist/index.js', ...chunks])
      expect(readFileSync(join(installed, file), 'utf8')).not.toContain('ajv-formats');
  }, 150_000);

  it('npm publish --dry-run runs clean (to a loopback registry it never contacts)', async () => {
    const registry = 'http://127.0.0.1:9/';
    const publish = await npm(['publish', '--dry-run', '--fetch-retries=0', '--registry', registry, '--//127.0.0.1:9/:_authToken=dry-run'], copy, {
      JOBS_PACK_NO_BUILD: '1',
    });
    expect(publish.code, publish.stderr).toBe(0);
    expect(noWarnings(publish.stderr)).toEqual([]);
    expect(publish.stdout).toContain('+ jobs-cli@');
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(manifestBefore);
  }, 150_000);

  it("the CI recipe's install and validate steps work with JOBS_PACKAGE set to the packed tarball", async () => {
    expect(tarball, 'the first test packs it').toBeDefined();
    const recipe = parse(readFileSync(join(ROOT, 'examples/.github/workflows/adverts.yml'), 'utf8')) as {
      jobs: Record<string, { steps: Array<{ name?: string; run?: string }> }>;
    };
    const steps = recipe.jobs.validate!.steps;
    const install = steps.find((s) => s.name === 'Install jobs')!.run!;
    const validate = steps.find((s) => s.name === 'Validate adverts')!.run!;
    expect(install).toContain('"$JOBS_PACKAGE"');
    const project = join(work, 'project');
    mkdirSync(project);
    cpSync(join(ROOT, 'examples/adverts'), join(project, 'adverts'), { recursive: true });
    const sh = (line: string) => exec('bash', ['-c', line], project, { JOBS_PACKAGE: tarball!, NO_COLOR: '1', npm_config_prefer_offline: 'true' });
    const installed = await sh(install);
    expect(installed.code, installed.stderr).toBe(0);
    const checked = await sh(validate);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stderr).toContain('✔ 3 adverts in 2 files: all valid');
  }, 150_000);

  it('the installed package finds its optional keyring module and stores the token in a real Secret Service', async () => {
    expect(installedAt, 'the first test installs it').toBeDefined();
    const keyring = await startSecretService();
    try {
      const env = { ...isolatedEnv(keyring.env), PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
      const login = await exec(join(installedAt!, 'bin', 'jobs-cli'), ['login', '--with-token'], work, env, 'tok-from-package');
      expect(login.code, login.stderr).toBe(0);
      expect(login.stdout).toBe('Stored the token for profile "default" in the OS keyring (service "jobs-cli", account "default").\n');
      expect(keyring.secretTool(['lookup', 'service', 'jobs-cli', 'username', 'default']).stdout).toBe('tok-from-package');
    } finally {
      keyring.stop();
    }
  }, 60_000);
});
