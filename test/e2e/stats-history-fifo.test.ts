/**
 * A FIFO planted where a month of statistics history is kept: `stats` read it with a plain
 * readFileSync and waited forever (SIGTERM could not stop it either). It is refused by name, as
 * every file the tool keeps, and the statistics are still shown.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

describe('stats with a FIFO in place of a history month file (built binary)', () => {
  it('names the file and why, shows the statistics, and does not wait', async () => {
    const env = isolatedEnv();
    try {
      expect((await jobs(['--sandbox', 'publish', 'examples/adverts/'], { env })).code).toBe(0);
      expect((await jobs(['--sandbox', 'stats', '--all'], { env })).code).toBe(0);
      const folder = join(env.XDG_STATE_HOME!, 'jobs', 'history', 'sandbox');
      const [month] = readdirSync(folder).filter((f) => f.endsWith('.log'));
      const segment = join(folder, month!);
      unlinkSync(segment);
      execFileSync('mkfifo', [segment]);

      const r = await jobs(['--sandbox', 'stats', '--all'], { env, timeoutMs: 10_000 });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^REFERENCE +VIEWS/);
      expect(r.stderr).toContain(
        `jobs-cli: warning: cannot read the history segment ${segment}: it is a FIFO (named pipe), not a file jobs wrote; jobs reads only regular files of its own: remove it; no change shown, nothing recorded`,
      );
    } finally {
      rmSync(env.HOME!, { recursive: true, force: true });
    }
  }, 30_000);
});
