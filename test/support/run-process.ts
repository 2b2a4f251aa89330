/**
 * Runs a program to its end, collecting what it prints, within a time limit (a hung child fails the
 * test instead of CI). stdin is closed at once, or given `input` and then closed.
 */
import { spawn } from 'node:child_process';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs: number;
  /** How the failure names the command (default: the file and its arguments). */
  label?: string;
}

export function runProcess(file: string, args: readonly string[], options: RunOptions): Promise<Run> {
  return new Promise((done, fail) => {
    const piped = options.input !== undefined;
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: [piped ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${options.label ?? `${file} ${args.join(' ')}`}: did not finish in ${options.timeoutMs} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    if (piped) child.stdin!.end(options.input);
  });
}
