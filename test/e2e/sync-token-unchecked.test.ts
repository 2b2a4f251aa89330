/**
 * A sync with nothing to send makes no request, so a wrong token goes unnoticed: the run says so
 * plainly instead of passing for a checked one (issue 30), and a sync that sends does check it.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';

describe('sync with a wrong token', () => {
  it('says the token was not checked when nothing was sent, and fails (exit 4) when something is', async () => {
    const s = await liveSandbox();
    const dir = mkdtempSync(join(tmpdir(), 'jobs-sync-token-'));
    try {
      cpSync(join(ROOT, 'examples/adverts'), dir, { recursive: true });
      const first = await jobs(['sync', '.'], { cwd: dir, env: s.env });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).not.toContain('not checked');

      const wrong = { ...s.env, JOBS_TOKEN: 'not-the-token' };
      const before = s.log.length;
      const idle = await jobs(['sync', '.'], { cwd: dir, env: wrong });
      expect(s.log.length).toBe(before);
      expect(idle.stderr).toContain("\n✔ in sync: 3 unchanged (nothing was sent, so the token was not checked: 'jobs-cli doctor' checks it)\n");
      expect(idle.code).toBe(0);
      // The check it names finds the wrong token.
      expect((await jobs(['doctor'], { cwd: dir, env: wrong })).code).toBe(4);
      // A sync that sends finds it too.
      const forced = await jobs(['sync', '.', '--force'], { cwd: dir, env: wrong });
      expect(forced.code).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(s.env.HOME!, { recursive: true, force: true });
    }
  });
});
