import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STALE_MS, lockPathFor, withLock } from '../../../src/core/storage/lock.js';
import { advert, start } from '../../support/sandbox-server.js';
import { tempDir } from '../../support/temp-dirs.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dataFile(): string {
  const dir = tempDir('jobs-sandbox-lock-');
  dirs.push(dir);
  return join(dir, 'state.json');
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function holder(pid: number, at: number): string {
  return JSON.stringify({ pid, host: hostname(), at, id: 'someone-else' });
}

describe('sandbox data file lock', () => {
  it('takes over a lock left by a process that is gone, and leaves no lock behind', async () => {
    const file = dataFile();
    writeFileSync(lockPathFor(file), holder(deadPid(), Date.now()));
    const s = await start({ dataFile: file });
    const t = performance.now();
    expect((await s.call('POST', '/jobs', { body: advert('AFTER-CRASH') })).status).toBe(201);
    expect(performance.now() - t).toBeLessThan(STALE_MS / 2);
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']);
  });

  it('takes over a lock older than STALE_MS even if its process still runs', async () => {
    const file = dataFile();
    writeFileSync(lockPathFor(file), holder(process.pid, Date.now() - STALE_MS - 1000));
    expect(await withLock(file, () => 'ran')).toBe('ran');
    expect(existsSync(lockPathFor(file))).toBe(false);
  });

  it('waits while a live process holds a fresh lock, then runs', async () => {
    const file = dataFile();
    const lock = lockPathFor(file);
    writeFileSync(lock, holder(process.pid, Date.now()));
    let ran = false;
    const waiting = withLock(file, () => (ran = true));
    await new Promise((r) => setTimeout(r, 200));
    expect(ran).toBe(false);
    rmSync(lock);
    await waiting;
    expect(ran).toBe(true);
  });

  it('releases the lock when the work throws', async () => {
    const file = dataFile();
    await expect(
      withLock(file, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(lockPathFor(file))).toBe(false);
  });
});
