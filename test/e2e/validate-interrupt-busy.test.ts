/**
 * A signal is heard while the check is busy for seconds on one file: files of 150,000 unknown keys
 * (3 MB each, which the yaml package reads in seconds). Before, this thread heard SIGTERM only when
 * the file was done (four such files of 300,000 keys ran on 10 s after SIGTERM). Now a file too
 * large to read at once is checked on a worker of its own, which the signal ends at once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realisticAdvertYaml } from '../../bench/generate.mjs';
import { isolatedEnv, jobsDriven, type DrivenRun } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'jobs-interrupt-busy-'));
// Quoted keys: the fast reader leaves them to the yaml package, the slow path.
const big = `reference: BIG\n${Array.from({ length: 150_000 }, (_, i) => `"unknown_${i}": x\n`).join('')}`;
const one = join(root, 'one');
mkdirSync(one);
for (let i = 1; i <= 4; i++) writeFileSync(join(one, `big-${i}.yaml`), big);
// 1,000 files share the run with a worker; batches of 64 are handed out in name order, two to the
// worker first, so this thread's first batch (files 128 to 191) holds a large file too.
const shared = join(root, 'shared');
mkdirSync(shared);
for (let i = 0; i < 1000; i++) writeFileSync(join(shared, `ad-${String(i).padStart(4, '0')}.yaml`), realisticAdvertYaml(i));
for (const at of ['0000', '0070', '0130']) writeFileSync(join(shared, `ad-${at}-big.yaml`), big);

const homes: string[] = [];
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** Sends `signal` once the run is well into its first large file; resolves with how long the exit took after it. */
async function busy(dir: string, signal: NodeJS.Signals, env: Record<string, string>): Promise<DrivenRun & { afterSignal: number }> {
  let sentAt = 0;
  let armed = false;
  const isolated = isolatedEnv(env);
  homes.push(isolated.HOME!);
  const r = await jobsDriven(['validate', '--verbose', dir], {
    env: isolated,
    timeoutMs: 60_000,
    drive: () => {},
    feed: (child) => {
      child.stdin.end();
      if (armed) return;
      armed = true;
      // Start-up is well under a second; the first large file takes seconds.
      setTimeout(() => {
        sentAt = Date.now();
        child.kill(signal);
      }, 1500);
    },
  });
  return { ...r, afterSignal: Date.now() - sentAt };
}

describe('a signal during seconds of CPU-bound checking (built binary)', () => {
  it('SIGTERM on one thread: exit 143 within a second, how far it got, no verdict', async () => {
    const r = await busy(one, 'SIGTERM', { JOBS_WORKERS: '0' });
    expect(r.code, r.stderr).toBe(143);
    expect(r.afterSignal).toBeLessThan(1000);
    expect(r.stderr).toContain('jobs-cli: terminated (SIGTERM); stopping (send it again to quit at once)\n');
    // Before the last of the four large files (Node 24 checks the first within the 1.5 s before the signal).
    expect(r.stderr).toMatch(/jobs-cli: stopped after checking [0-3] files?; the rest were not checked\n/);
    expect(r.stdout).toBe('');
  }, 70_000);

  it('Ctrl-C on one thread: exit 130 within a second', async () => {
    const r = await busy(one, 'SIGINT', { JOBS_WORKERS: '0' });
    expect(r.code, r.stderr).toBe(130);
    expect(r.afterSignal).toBeLessThan(1000);
    expect(r.stderr).toContain('jobs-cli: interrupted; stopping');
  }, 70_000);

  it('SIGTERM with a worker, both threads in a large file: exit 143 within a second', async () => {
    const r = await busy(shared, 'SIGTERM', { JOBS_WORKERS: '1' });
    expect(r.stderr).toContain('checking on this thread and 1 worker thread\n');
    expect(r.code, r.stderr).toBe(143);
    expect(r.afterSignal).toBeLessThan(1000);
    expect(r.stderr).toMatch(/jobs-cli: stopped after checking \d+ files?; the rest were not checked\n/);
  }, 70_000);
});
