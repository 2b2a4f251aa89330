import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tempDir } from '../support/temp-dirs.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/jobs.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A fresh HOME and XDG folders, so no test reads or writes the user's real config; removed when the
 * test file ends. TMPDIR is the test file's own, so what the binary puts there is seen (temp-dirs.ts).
 */
export function isolatedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = tempDir('jobs-e2e-');
  for (const d of ['config', 'state', 'cache']) mkdirSync(join(home, d));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    TMPDIR: tmpdir(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
    NO_COLOR: '1',
    ...extra,
  };
  return env;
}

/** Spawns the built binary; bounded by a timeout so a hung child fails the test instead of CI. */
export function jobs(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: options.env ?? isolatedEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`jobs ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 15_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface DrivenRun extends Run {
  signal: NodeJS.Signals | null;
}

/**
 * Spawns the built binary and calls `drive` with the child and the stdout seen so far each time
 * output arrives, so a test can signal it or close its streams mid-run; bounded by a timeout.
 */
export function jobsDriven(
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
    drive: (child: ChildProcessWithoutNullStreams, stdout: string, stderr: string) => void;
    /** Feeds the child's stdin from the start (it is closed at once otherwise). */
    feed?: (child: ChildProcessWithoutNullStreams) => void;
  },
): Promise<DrivenRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: options.env ?? isolatedEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      options.drive(child, stdout, stderr);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      options.drive(child, stdout, stderr);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`jobs ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
    if (options.feed) options.feed(child);
    else child.stdin.end();
  });
}
