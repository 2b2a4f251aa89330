/**
 * Fault drills: a sync killed mid-run, interrupted with Ctrl-C, throttled by a small quota, hit by
 * random 5xx and by connections dropped after the service acted. Afterwards every advert exists
 * exactly once: created once (one 201 each), and recorded in the state.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAdverts } from '../../bench/generate.mjs';
import { BIN, jobs } from './helpers.js';
import { liveSandbox, type LiveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

function folder(count: number): string {
  return generateAdverts(join(tempDir('jobs-faults-'), 'adverts'), count);
}

function expectEachCreatedOnce(s: LiveSandbox, dir: string, count: number) {
  expect(s.count(/^POST \/jobs 201/)).toBe(count);
  expect(s.sandbox.state().adverts).toHaveLength(count);
  const state = JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8'));
  expect(Object.keys(state.services[s.baseUrl].adverts)).toHaveLength(count);
}

/** Spawns a sync and sends `signal` once `after` adverts are reported done. */
function syncUntil(
  dir: string,
  env: Record<string, string>,
  after: number,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, 'sync', '.'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`sync did not stop in time: ${stdout.split('\n').length} lines\n${stderr}`));
    }, 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (!sent && stdout.split('\n').filter((l) => l.startsWith('✔')).length >= after) {
        sent = true;
        child.kill(signal);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      done({ code, signal: sig, stdout, stderr });
    });
  });
}

describe('sync under faults (built binary, sandbox on 127.0.0.1)', () => {
  it('killed mid-run, then run again: every advert published exactly once', async () => {
    const s = await liveSandbox({ latencyMs: 15 });
    const dir = folder(120);
    const killed = await syncUntil(dir, s.env, 30, 'SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect(s.count(/^POST \/jobs 201/)).toBeLessThan(120);
    const rerun = await jobs(['sync', '.'], { cwd: dir, env: s.env, timeoutMs: 30_000 });
    expect(rerun.code).toBe(0);
    expectEachCreatedOnce(s, dir, 120);
  });

  it('Ctrl-C: no new requests, in-flight ones finish, state saved, exit 130; a rerun resumes', async () => {
    const s = await liveSandbox({ latencyMs: 15 });
    const dir = folder(100);
    const interrupted = await syncUntil(dir, s.env, 20, 'SIGINT');
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain('interrupted');
    const saved = JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8'));
    const recorded = Object.keys(saved.services[s.baseUrl].adverts).length;
    expect(recorded).toBe(s.count(/^POST \/jobs 201/));
    expect(recorded).toBeLessThan(100);
    const rerun = await jobs(['sync', '.'], { cwd: dir, env: s.env, timeoutMs: 30_000 });
    expect(rerun.code).toBe(0);
    expect(rerun.stderr).toContain(`${100 - recorded} created, ${recorded} unchanged`);
    expectEachCreatedOnce(s, dir, 100);
  });

  it('a 429 storm under a small quota turns into waiting, not failures', async () => {
    const s = await liveSandbox({ quota: { limit: 10, windowMs: 1000 } });
    const dir = folder(30);
    const r = await jobs(['sync', '.', '--concurrency', '8'], { cwd: dir, env: s.env, timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(s.count(/ 429 /)).toBeGreaterThan(0);
    expectEachCreatedOnce(s, dir, 30);
  });

  it('random 500 and 503 answers are retried until every advert exists once', async () => {
    const s = await liveSandbox({ failRate: 0.25, seed: 7 });
    const dir = folder(40);
    const r = await jobs(['sync', '.', '--retries', '8'], { cwd: dir, env: s.env, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(s.count(/ 50[03] /)).toBeGreaterThan(0);
    expectEachCreatedOnce(s, dir, 40);
  });

  it('a connection dropped after the service acted: the repeat is adopted, not duplicated', async () => {
    const s = await liveSandbox();
    // A proxy that forwards every request but, for every 7th, hangs up instead of answering.
    let n = 0;
    const proxy = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const upstream = await fetch(`${s.baseUrl}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (++n % 7 === 0) {
        req.socket.destroy();
        return;
      }
      res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
      res.end(body);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const dir = folder(30);
      const r = await jobs(['sync', '.'], { cwd: dir, env: { ...s.env, JOBS_BASE_URL: url }, timeoutMs: 30_000 });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/\d+ adopted/);
      expect(s.count(/^POST \/jobs 201/)).toBe(30);
      expect(s.sandbox.state().adverts).toHaveLength(30);
    } finally {
      await new Promise((done) => proxy.close(done));
    }
  });
});
