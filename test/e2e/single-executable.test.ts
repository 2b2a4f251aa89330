/**
 * The single executable (`npm run build:binary`): built here into a temporary folder, then run with
 * no `node` anywhere on PATH and no node_modules beside it: validate, the sandbox (a server and the
 * embedded one), publish, stats, report, login. It is the CLI on its own, as a recruiter gets it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess, type Run } from '../support/run-process.js';
import { advertYaml } from '../../bench/generate.mjs';
import { ROOT, isolatedEnv } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

let work: string;
let exe: string;
let env: Record<string, string>;

beforeAll(() => {
  work = tempDir('jobs-sea-');
  exe = join(work, 'bin', process.platform === 'win32' ? 'jobs.exe' : 'jobs');
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build-binary.mjs'), '--out', exe], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  expect(built.status, built.stderr).toBe(0);
  expect(built.stderr).toMatch(/built .*jobs(\.exe)? \(\d+\.\d MB, /);
  // PATH has one empty folder: nothing named node can be found, nor anything else.
  const empty = join(work, 'empty');
  mkdirSync(empty);
  env = { ...isolatedEnv(), PATH: empty };
  for (const dir of env.PATH!.split(delimiter)) expect(existsSync(join(dir, 'node'))).toBe(false);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function sea(args: string[], options: { cwd?: string; input?: string; extraEnv?: Record<string, string> } = {}): Promise<Run> {
  return runProcess(exe, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...env, ...options.extraEnv },
    input: options.input ?? '',
    timeoutMs: 30_000,
    label: `jobs ${args.join(' ')}`,
  });
}

describe('the single executable, with no node on PATH', () => {
  it('is one file that names its version', async () => {
    expect(statSync(exe).size).toBeGreaterThan(20 * 1024 * 1024);
    expect(await sea(['--version'])).toEqual({ code: 0, stdout: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`, stderr: '' });
  });

  it('validates (exit 0, and exit 3 with file:line:col)', async () => {
    const ok = await sea(['validate', 'examples/adverts']);
    expect(ok).toEqual({ code: 0, stdout: '', stderr: '✔ 3 adverts in 2 files: all valid\n' });
    const bad = await sea(['validate', 'test/fixtures/invalid']);
    expect(bad.code).toBe(3);
    expect(bad.stdout).toMatch(/mistakes\.yaml:\d+:\d+: /);
  });

  it('names the code of a country written by name (the country list is inside it)', async () => {
    const dir = tempDir('jobs-sea-country-');
    writeFileSync(join(dir, 'norway.yaml'), advertYaml(1).replace(/country: FR/, 'country: Norway'));
    const run = await sea(['validate', 'norway.yaml'], { cwd: dir });
    expect(run.code).toBe(3);
    // Before: "write the country's two-letter code, e.g. NO, FR, US or GB", the list not found.
    expect(run.stdout).toContain('NO (Norway)');
  });

  it('starts its worker threads from the bundle inside it', async () => {
    const FILES = 2000;
    const folder = join(work, 'many');
    mkdirSync(folder);
    for (let i = 0; i < FILES; i++) writeFileSync(join(folder, `a${i}.yaml`), advertYaml(i));
    const threads = await sea(['validate', folder, '--verbose'], { extraEnv: { JOBS_WORKERS: '2' } });
    expect(threads.code, threads.stderr).toBe(0);
    expect(threads.stderr).toContain('checking on this thread and 2 worker threads\n');
    expect(threads.stderr).toContain(`✔ ${FILES} adverts in ${FILES} files: all valid`);
  }, 60_000);

  it('publishes to the embedded sandbox, reads stats, fast-forwards and writes the HTML report', async () => {
    const published = await sea(['--sandbox', 'publish', 'examples/adverts/']);
    expect(published.code, published.stderr).toBe(0);
    expect(published.stderr).toContain('3 created');
    const stats = await sea(['--sandbox', 'stats', 'ACME-0042', '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout).stats[0].reference).toBe('ACME-0042');
    const ff = await sea(['sandbox', '--fast-forward', '3d']);
    expect(ff.code, ff.stderr).toBe(0);
    const report = await sea(['--sandbox', 'report', '--file', join(work, 'report.html')]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(work, 'report.html'), 'utf8')).toContain('<h2>Funnel</h2>');
  });

  it('runs the sandbox server, and publishes to it over HTTP', async () => {
    const server = spawn(exe, ['sandbox', '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        const timer = setTimeout(() => reject(new Error(`no address in 15 s: ${seen}`)), 15_000);
        const look = (d: string) => {
          seen += d;
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        };
        server.stdout.setEncoding('utf8').on('data', look);
        server.stderr.setEncoding('utf8').on('data', look);
      });
      const published = await sea(['--base-url', url, 'publish', 'examples/adverts/'], { extraEnv: { JOBS_TOKEN: 'sandbox' } });
      expect(published.code, published.stderr).toBe(0);
      const stats = await sea(['--base-url', url, 'stats', 'ACME-0043', '--json'], { extraEnv: { JOBS_TOKEN: 'sandbox' } });
      expect(stats.code, stats.stderr).toBe(0);
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('login keeps the token in the 0600 file: the single file has no keyring module', async () => {
    const login = await sea(['login', '--with-token'], { input: 'tok-sea' });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain('the single executable carries no keyring support');
    expect(JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'credentials.json'), 'utf8')).profiles.default).toEqual({ token: 'tok-sea' });
  });
});
