/**
 * Ctrl-C (or SIGTERM) stops a `validate` of a large folder within a few hundred files, on one
 * thread and with workers, instead of being heard only once every file is checked.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realisticAdvertYaml } from '../../bench/generate.mjs';
import { isolatedEnv, jobsDriven, type DrivenRun } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const FILES = 3000;
const dir = tempDir('jobs-interrupt-');
for (let i = 0; i < FILES; i++) writeFileSync(join(dir, `ad-${String(i).padStart(4, '0')}.yaml`), realisticAdvertYaml(i));

/**
 * Runs `jobs validate - .` and sends `signal` while it reads stdin (the first path, so no file is
 * checked yet): once the child has taken in more than a pipe holds, it is running, its signal
 * handlers in place. Once it says it heard the signal, stdin ends and the folder is checked (so the
 * run stops at the first look at the signal, after 256 files on one thread).
 */
function interrupted(signal: NodeJS.Signals, env: Record<string, string>, flags: string[] = []): Promise<DrivenRun> {
  const comments = `# ${'x'.repeat(1000)}\n`.repeat(300);
  return jobsDriven(['validate', ...flags, '-', '.'], {
    cwd: dir,
    env: isolatedEnv(env),
    timeoutMs: 30_000,
    // Stdin ends once the child says it heard the signal.
    drive: (child, _stdout, stderr) => {
      if (stderr.includes('stopping') && child.stdin.writable) child.stdin.end(realisticAdvertYaml(FILES));
    },
    feed: (child) => child.stdin.write(comments, () => child.kill(signal)),
  });
}

describe('jobs validate of 3,000 files, interrupted (built binary)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const [how, env, threads] of [
    ['on one thread', { JOBS_WORKERS: '0' }, /^checked on one thread$/],
    ['on one thread and a worker', { JOBS_WORKERS: '1' }, /^checking on this thread and 1 worker thread$/],
  ] as const) {
    it(`stops soon after Ctrl-C ${how}: exit 130, how far it got, no verdict`, async () => {
      const r = await interrupted('SIGINT', env, ['--verbose']);
      // --verbose says how the run used threads: the case is the one named.
      expect(
        r.stderr.split('\n').filter((l) => threads.test(l)),
        r.stderr,
      ).toHaveLength(1);
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      const lines = r.stderr.split('\n');
      expect(lines).toContain('jobs-cli: interrupted; stopping (press Ctrl-C again to quit at once)');
      const stopped = /^jobs-cli: stopped after checking (\d+) files?; the rest were not checked$/.exec(lines.find((l) => l.includes('stopped after')) ?? '');
      expect(stopped, r.stderr).not.toBeNull();
      // Stdin and at most a few batches of files.
      expect(Number(stopped![1])).toBeLessThan(1000);
      expect(r.stderr).not.toContain('valid');
    }, 60_000);
  }

  it('stops on SIGTERM with exit 143', async () => {
    const r = await interrupted('SIGTERM', { JOBS_WORKERS: '0' });
    expect(r.code).toBe(143);
    expect(r.stderr).toMatch(
      /^jobs-cli: terminated \(SIGTERM\); stopping \(send it again to quit at once\)\njobs-cli: stopped after checking \d+ files?; the rest were not checked\n$/,
    );
  }, 60_000);

  it('with --output json, stdout is one error document whose exit code is the exit status (143 on SIGTERM)', async () => {
    const r = await interrupted('SIGTERM', { JOBS_WORKERS: '0' }, ['--output', 'json']);
    expect(r.code).toBe(143);
    const doc = JSON.parse(r.stdout) as { error: { exit_code: number; message: string } };
    expect(doc.error.exit_code).toBe(143);
    expect(doc.error.message).toMatch(/^stopped after checking \d+ files?; the rest were not checked$/);
  }, 60_000);
});
