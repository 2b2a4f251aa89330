/**
 * The one lock's stale takeover is race-free: eight processes that find the same stale lock at the
 * same moment (released together at a shared instant) and all try to take it over: exactly one
 * holds it, every round. The children run src/core/storage/lock.ts bundled by esbuild.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../e2e/helpers.js';
import { tempDir } from '../../support/temp-dirs.js';

const LOCK_MODULE = join(tempDir('jobs-lock-module-'), 'lock.mjs');
beforeAll(() => {
  buildSync({ entryPoints: [join(ROOT, 'src/core/storage/lock.ts')], bundle: true, platform: 'node', format: 'esm', outfile: LOCK_MODULE, logLevel: 'silent' });
});
const PROCESSES = 8;
const ROUNDS = 10;

// Each child: imports the lock, says "ready", waits for "go <instant>", spins until that instant,
// tries once and prints "won" or "lost"; a winner holds the lock until its stdin ends.
const CHILD = `
const { tryLock } = await import(${JSON.stringify(LOCK_MODULE)});
const lock = process.argv[1];
process.stdout.write('ready\\n');
let input = '';
process.stdin.setEncoding('utf8').on('data', (d) => {
  input += d;
  const m = /go (\\d+)\\n/.exec(input);
  if (!m || input.includes('tried')) return;
  input += 'tried';
  while (Date.now() < Number(m[1])) {}
  const r = tryLock(lock);
  process.stdout.write('held' in r ? 'won\\n' : 'lost\\n');
  if (!('held' in r)) process.exit(0);
});
process.stdin.on('end', () => process.exit(0));
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

interface Child {
  process: ChildProcessWithoutNullStreams;
  out: string;
  closed: Promise<void>;
}

function startChild(lock: string): Child {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, lock], { stdio: ['pipe', 'pipe', 'pipe'] });
  const c: Child = { process: child, out: '', closed: new Promise((done) => child.on('close', () => done())) };
  child.stdout.setEncoding('utf8').on('data', (d: string) => (c.out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (c.out += d));
  return c;
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the one lock', () => {
  it(`${PROCESSES} processes racing for one stale lock: exactly one takes it, in each of ${ROUNDS} rounds`, { timeout: 180_000 }, async () => {
    expect(existsSync(LOCK_MODULE)).toBe(true);
    const dir = tempDir('jobs-lock-race-');
    dirs.push(dir);
    const lock = join(dir, '.jobs-state.lock');
    const winners: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A lock left by a process that is gone: stale, for every child at once.
      writeFileSync(lock, `${JSON.stringify({ pid: deadPid(), host: hostname(), started_at: 'then' })}\n`);
      const children = Array.from({ length: PROCESSES }, () => startChild(lock));
      try {
        await until(() => children.every((c) => c.out.includes('ready')), 'the children to start');
        const at = Date.now() + 150;
        for (const c of children) c.process.stdin.write(`go ${at}\n`);
        await until(() => children.every((c) => /won|lost/.test(c.out)), 'every child to try');
        const won = children.filter((c) => c.out.includes('won'));
        winners.push(won.length);
        expect(won.length, `round ${round + 1}: ${children.map((c) => c.out.trim().replace(/\n/g, ' ')).join(' | ')}`).toBe(1);
        // The lock names the winner, and no claim or temp file is left beside it.
        expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(won[0]!.process.pid);
        expect(readdirSync(dir)).toEqual(['.jobs-state.lock']);
      } finally {
        for (const c of children) c.process.stdin.end();
        await Promise.all(children.map((c) => c.closed));
      }
    }
    expect(winners).toEqual(Array(ROUNDS).fill(1));
  });
});
