/**
 * The package as users get it, for the pack tests (pack.test.ts, and pack.real.test.ts, which reads
 * its man pages with man): `npm pack`, installed globally into a temporary prefix (offline: the
 * dependencies are in npm's cache after `npm ci`).
 */
import { existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { expect } from 'vitest';
import { runProcess, type Run } from '../support/run-process.js';
import { tempDir } from '../support/temp-dirs.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const LIMIT_MS = 120_000;

/** npm's own variables (set when the suite runs under `npm test`) must not steer the nested npm. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) env[k] = v;
  // The node running this suite comes first, so the installed bin's `#!/usr/bin/env node` uses it.
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  return { ...env, ...extra };
}

export function exec(file: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Run> {
  return runProcess(file, args, { cwd: options.cwd ?? ROOT, env: options.env ?? cleanEnv(), timeoutMs: options.timeoutMs ?? 30_000 });
}

const npm = (args: string[], cwd = ROOT) => exec(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, timeoutMs: 90_000 });

export interface Packed {
  work: string;
  tarball: string;
  packedFiles: string[];
  prefix: string;
  installed: string;
  bin: string;
}

/** Packs the built tree and installs the tarball into a prefix in a temp folder (removed with the test file). */
export async function packAndInstall(name: string): Promise<Packed> {
  for (const built of ['dist/cli.cjs', 'dist/index.js', 'dist/index.d.ts']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` before this test (npm test does)`);
  }
  const work = tempDir('jobs-pack-');
  // --ignore-scripts: the suite built dist/ already, and a rebuild here would pull it from under
  // the tests running beside this one.
  const pack = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work]);
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  const tarball = join(work, info!.filename);
  const prefix = join(work, 'prefix');
  const install = await npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], work);
  expect(install.code, install.stderr).toBe(0);
  const installed = process.platform === 'win32' ? join(prefix, 'node_modules', name) : join(prefix, 'lib', 'node_modules', name);
  return { work, tarball, packedFiles: info!.files.map((f) => f.path), prefix, installed, bin: join(prefix, 'bin', 'jobs') };
}
