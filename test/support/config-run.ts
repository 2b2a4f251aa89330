/** Temporary HOME / XDG dirs, fake streams and an in-process runner for the config tests. */
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { GlobalOptions, Io } from '../../src/cli/context.js';
import { execute } from '../../src/cli/program.js';
import { tempDir } from './temp-dirs.js';

export interface Sandbox {
  /** Parent of home: files here are beyond where the project search stops. */
  root: string;
  home: string;
  xdg: string;
  /** A project directory under home, used as cwd. */
  project: string;
  env: Record<string, string | undefined>;
  write(path: string, text: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeSandbox(): Promise<Sandbox> {
  const root = await realpath(tempDir('jobs-config-test-'));
  const home = join(root, 'home');
  const xdg = join(root, 'xdg');
  const project = join(home, 'work', 'project');
  await mkdir(project, { recursive: true });
  await mkdir(xdg, { recursive: true });
  return {
    root,
    home,
    xdg,
    project,
    // Never the real environment: a JOBS_TOKEN on the test machine must not leak in.
    env: { HOME: home, XDG_CONFIG_HOME: xdg },
    async write(path: string, text: string) {
      const full = path.startsWith('/') ? path : join(project, path);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, text);
      return full;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export function globals(overrides: Partial<GlobalOptions> = {}): GlobalOptions {
  return { output: 'human', quiet: false, verbose: false, color: true, input: true, sandbox: false, ...overrides };
}

export interface Collected {
  text: string;
  isTTY?: boolean;
  write(chunk: string): boolean;
}

export function collector(isTTY = false): Collected {
  const out: Collected = {
    text: '',
    isTTY,
    write(chunk: string) {
      out.text += chunk;
      return true;
    },
  };
  return out;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  /** Text on stdin (not a TTY). */
  stdin?: string;
  /** A terminal: stdin and stderr are TTYs; `typed` is what the user types. */
  tty?: { typed: string };
}

export async function run(argv: string[], options: RunOptions): Promise<RunResult> {
  const stdout = collector(Boolean(options.tty));
  const stderr = collector(Boolean(options.tty));
  let stdin: Io['stdin'];
  if (options.tty) {
    const input = new PassThrough() as PassThrough & { isTTY: boolean };
    input.isTTY = true;
    // Typed after the prompt is up, as a person would.
    setTimeout(() => input.write(options.tty!.typed), 20);
    stdin = input;
  } else {
    stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  }
  const code = await execute(argv, { io: { stdin, stdout, stderr }, env: options.env, cwd: options.cwd, handleSignals: false });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
