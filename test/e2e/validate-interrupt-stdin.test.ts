/**
 * Stdin as large as a file checked on a worker of its own (over 1 MiB) is checked there too: the
 * main thread only reads it. Before, `cat big.yaml | jobs validate -` (and `publish --dry-run -`)
 * was checked on the main thread, which heard SIGTERM only when done, seconds later.
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, jobsDriven, type DrivenRun } from './helpers.js';

// Quoted keys: the fast reader leaves them to the yaml package, the slow path (seconds for 3 MB).
const big = `reference: BIG\n${Array.from({ length: 150_000 }, (_, i) => `"unknown_${i}": x\n`).join('')}`;

/** Feeds `big` on stdin, sends `signal` a second after it is all written; resolves with how long the exit took after it. */
async function busy(args: string[], signal: NodeJS.Signals): Promise<DrivenRun & { afterSignal: number }> {
  let sentAt = 0;
  const r = await jobsDriven(args, {
    env: isolatedEnv({ JOBS_WORKERS: '0' }),
    timeoutMs: 60_000,
    drive: () => {},
    feed: (child) =>
      child.stdin.end(big, () =>
        setTimeout(() => {
          sentAt = Date.now();
          child.kill(signal);
        }, 1000),
      ),
  });
  return { ...r, afterSignal: Date.now() - sentAt };
}

describe('a signal while large stdin is checked (built binary)', () => {
  it('validate -: SIGTERM ends it within a second, exit 143, no verdict', async () => {
    const r = await busy(['validate', '-'], 'SIGTERM');
    expect(r.code, r.stderr).toBe(143);
    expect(r.afterSignal).toBeLessThan(1000);
    expect(r.stderr).toContain('jobs-cli: stopped after checking 0 files; the rest were not checked\n');
    expect(r.stdout).toBe('');
  }, 70_000);

  it('validate -: Ctrl-C ends it within a second, exit 130', async () => {
    const r = await busy(['validate', '-'], 'SIGINT');
    expect(r.code, r.stderr).toBe(130);
    expect(r.afterSignal).toBeLessThan(1000);
  }, 70_000);

  it('publish --dry-run -: SIGTERM ends it within a second, exit 143, nothing sent', async () => {
    const r = await busy(['publish', '--dry-run', '-'], 'SIGTERM');
    expect(r.code, r.stderr).toBe(143);
    expect(r.afterSignal).toBeLessThan(1000);
    expect(r.stderr).toContain('nothing was sent\n');
  }, 70_000);

  // A guard, not the fix's proof: the check moved to a worker still gives the same verdict.
  it('unstopped, large stdin still gets its verdict, from validate and from publish', async () => {
    // 1.2 MB: over the size checked on a worker.
    const input = `reference: BIG\n${Array.from({ length: 60_000 }, (_, i) => `"unknown_${i}": x\n`).join('')}`;
    const v = await jobs(['validate', '-'], { input, timeoutMs: 60_000 });
    expect(v.code, v.stderr).toBe(3);
    expect(v.stdout).toMatch(/<stdin>:2:\d+: unknown_0: is not a known field/);
    const p = await jobs(['publish', '--dry-run', '-'], { input, timeoutMs: 60_000 });
    expect(p.code, p.stderr).toBe(3);
    expect(p.stdout).toMatch(/<stdin>:2:\d+: unknown_0: is not a known field/);
    expect(p.stderr).toContain('nothing was sent');
  }, 130_000);
});
