/**
 * `jobs --sandbox report` after a fast-forward: the page is "generated" at the sandbox's time (the
 * period's end), not a month before it, and stderr counts the adverts as the page does (issue 30).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';

describe('jobs --sandbox report after a fast-forward, with a deleted advert', () => {
  it('is generated at the sandbox clock, and stderr counts live and deleted adverts as the page does', async () => {
    const env = isolatedEnv();
    const dir = mkdtempSync(join(tmpdir(), 'jobs-report-clock-'));
    try {
      const run = async (...args: string[]) => {
        const r = await jobs(args, { env, cwd: dir, timeoutMs: 60_000 });
        expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
        return r;
      };
      await run('--sandbox', 'publish', join(ROOT, 'examples/adverts'));
      await run('--sandbox', 'stats', '--all');
      await run('--sandbox', 'delete', 'ACME-0042', '--yes');
      const forward = await run('sandbox', '--fast-forward', '30d');
      const clockDay = /clock is now at (\d{4}-\d{2}-\d{2})/.exec(forward.stderr)![1]!;

      const report = await run('--sandbox', 'report', '--file', 'r.html');
      const page = readFileSync(join(dir, 'r.html'), 'utf8');
      const [, to] = /(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(page)!.slice(1);
      expect(to).toBe(clockDay);
      expect(page).toContain(`generated ${clockDay} `);
      // The page: 2 adverts, 1 deleted; stderr says the same.
      expect(page).toContain('<div class="value">2</div><div class="label">Adverts <span class="sub">(1 deleted)</span>');
      expect(report.stderr).toMatch(/^wrote r\.html: 2 adverts \(and 1 deleted\) over \d+ days, \d+ needs? attention\n$/);
      const json = JSON.parse((await run('--sandbox', 'report', '--file', 'r.html', '--json')).stdout);
      expect(json.generated_at.slice(0, 10)).toBe(clockDay);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(env.HOME!, { recursive: true, force: true });
    }
  }, 120_000);
});
