/**
 * Headless Chromium (Debian's `chromium`) for tests of the HTML report: dump the DOM after the
 * page's script ran, or take a screenshot. Each run gets its own profile folder (tests run in
 * parallel) and a hard timeout. No skip when it is missing: CI installs it (.ci/run).
 */
import { spawn } from 'node:child_process';
import { tempDir } from './temp-dirs.js';

export interface BrowserRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Lines the page wrote to its console (errors, uncaught exceptions), from Chromium's log. */
  console: string[];
  ms: number;
}

/** The flags every test run of Chromium gets: headless, no network of its own, its own profile folder. */
export function chromiumFlags(profile: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--hide-scrollbars',
    `--user-data-dir=${profile}`,
  ];
}

/** The browser to run: Debian's `chromium`, or $CHROMIUM. */
export const chromiumBinary = (): string => process.env.CHROMIUM ?? 'chromium';

export function chromium(args: string[], timeoutMs = 90_000): Promise<BrowserRun> {
  const profile = tempDir('jobs-chromium-');
  const base = [...chromiumFlags(profile), '--enable-logging=stderr', '--v=0'];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(chromiumBinary(), [...base, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: profile } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`chromium ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run chromium (install it: apt-get install -y chromium): ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, console: stderr.split('\n').filter((l) => /:CONSOLE[:(]/.test(l)), ms: performance.now() - started });
    });
  });
}
