/**
 * `jobs sandbox --reset` empties the embedded sandbox, but a folder's sync state still records
 * what was published there: the next `--sandbox sync` said "in sync" and `stats` answered 404. A
 * sync against a sandbox that holds nothing sends every advert again.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jobs-sync-reset-'));
cpSync(join(ROOT, 'examples/adverts'), join(dir, 'adverts'), { recursive: true });
const env = isolatedEnv();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(env.HOME!, { recursive: true, force: true });
});

describe('--sandbox sync after sandbox --reset (built binary)', () => {
  it('publishes again, says why, and stats then finds the adverts', async () => {
    const first = await jobs(['--sandbox', 'sync', 'adverts'], { cwd: dir, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('holds no adverts');
    expect((await jobs(['--sandbox', 'sync', 'adverts'], { cwd: dir, env })).stderr).toContain('in sync: 3 unchanged');

    const reset = await jobs(['sandbox', '--reset'], { cwd: dir, env });
    expect(reset.stderr).toContain('the next --sandbox sync of a folder sends its adverts again');

    const again = await jobs(['--sandbox', 'sync', 'adverts'], { cwd: dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('jobs-cli: the embedded sandbox holds no adverts (it was reset): every advert the sync state records is sent again\n');
    expect(again.stderr).toContain('in sync: 3 recreated, 0 unchanged');
    const stats = await jobs(['--sandbox', 'stats', 'ACME-0042', '--json'], { cwd: dir, env });
    expect(stats.code, stats.stderr).toBe(0);

    // And once it holds them, a sync finds them unchanged again.
    expect((await jobs(['--sandbox', 'sync', 'adverts'], { cwd: dir, env })).stderr).toContain('in sync: 3 unchanged');
  }, 60_000);
});
