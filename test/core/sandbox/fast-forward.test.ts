/**
 * The sandbox's part of `--fast-forward`: it only moves its own clock (the history's part, reading
 * statistics through the client and recording them, is history/fast-forward.ts, covered end to end
 * by test/e2e/insights.test.ts). The emulator stands alone: no file of it imports the service's client.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMovableSandbox } from '../../../src/core/sandbox/fast-forward.js';
import { tempDir } from '../../support/temp-dirs.js';

const SANDBOX = join(import.meta.dirname, '../../../src/core/sandbox');

describe('the movable embedded sandbox', () => {
  it('moves its clock in memory and saves it only when asked; the next start begins there', async () => {
    const home = tempDir('jobs-ff-');
    const env = { HOME: home, XDG_STATE_HOME: join(home, 'state') };
    const clock = join(home, 'state', 'jobs', 'sandbox-clock.json');
    const sandbox = await openMovableSandbox(env);
    try {
      expect(sandbox.startOffsetMs).toBe(0);
      expect(sandbox.references).toEqual([]);
      sandbox.moveTo(3 * 86_400_000);
      expect(sandbox.now() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 5_000);
      // The sandbox answers at its own time (the X-Sandbox-Time header the history dates snapshots by).
      const reply = await fetch(`${sandbox.baseUrl}/jobs/NONE/stats`, { headers: { authorization: `Bearer ${sandbox.token}` } });
      expect(Number(new Date(reply.headers.get('x-sandbox-time') ?? 0)) - Date.now()).toBeGreaterThan(3 * 86_400_000 - 5_000);
      expect(existsSync(clock)).toBe(false);
      sandbox.saveClock();
      expect(JSON.parse(readFileSync(clock, 'utf8'))).toEqual({ offset_ms: 3 * 86_400_000 });
    } finally {
      await sandbox.close();
    }
    const again = await openMovableSandbox(env);
    await again.close();
    expect(again.startOffsetMs).toBe(3 * 86_400_000);
  });

  it('no file of the emulator imports the service client or the history', () => {
    const offending = readdirSync(SANDBOX)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /from '\.\.\/(api\/client|history\/)/.test(readFileSync(join(SANDBOX, f), 'utf8')));
    expect(offending).toEqual([]);
  });
});
