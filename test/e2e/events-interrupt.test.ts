/**
 * Ctrl-C while `events` checks its input (the first pass, before anything is posted) stops it:
 * exit 130, nothing sent, no journal written; a dry run likewise.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobsDriven } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const dir = tempDir('jobs-events-interrupt-');
const events = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `{"application_id":"app-${from + i}","kind":"recruiter_view"}\n`).join('');

describe('jobs events, interrupted while it checks its input (built binary)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const dry of [false, true]) {
    it(`stops with exit 130 and sends nothing${dry ? ' (dry run)' : ''}`, async () => {
      const journal = join(dir, `run-${dry}.journal`);
      // An unreachable service: a post would fail, not pass unseen.
      const env = isolatedEnv({ JOBS_BASE_URL: 'http://127.0.0.1:9', JOBS_TOKEN: 'tok_test' });
      const r = await jobsDriven(['events', '-', '--format', 'ndjson', '--journal', journal, ...(dry ? ['--dry-run'] : [])], {
        env,
        timeoutMs: 30_000,
        // Stdin ends once the child says it heard the signal: the check then starts, already stopped.
        drive: (child, _stdout, stderr) => {
          if (stderr.includes('stopping') && child.stdin.writable) child.stdin.end(events(5000, 100));
        },
        // Once the child has taken in more than a pipe holds, it is reading: its handlers are in place.
        feed: (child) => child.stdin.write(events(0, 5000), () => child.kill('SIGINT')),
      });
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        '\njobs-cli: interrupted; stopping (press Ctrl-C again to quit at once)\njobs-cli: interrupted while checking <stdin>; nothing was sent\n',
      );
      expect(existsSync(journal)).toBe(false);
    }, 60_000);
  }
});
