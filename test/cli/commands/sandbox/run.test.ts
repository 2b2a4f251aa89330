import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Context, GlobalOptions } from '../../../../src/cli/context.js';
import { UsageError } from '../../../../src/core/errors/failures.js';
import { parseQuota, parseSandboxFlags, reachability, runSandbox, type RawSandboxFlags } from '../../../../src/cli/commands/sandbox/run.js';
import { isolatedEnv, jobs } from '../../../e2e/helpers.js';
import { advert, call } from '../../../support/sandbox-server.js';
import { tempDir } from '../../../support/temp-dirs.js';

function fakeContext(env: Record<string, string | undefined>, globals: Partial<GlobalOptions> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const controller = new AbortController();
  const ctx: Context = {
    name: 'jobs',
    io: { stdin: (async function* () {})(), stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } },
    env,
    cwd: tempDir('jobs-sandbox-cmd-'),
    globals: { output: 'human', quiet: false, verbose: false, color: false, input: false, sandbox: false, ...globals },
    signal: controller.signal,
    config: () => Promise.reject(new Error('not used')),
    client: () => Promise.reject(new Error('not used')),
  };
  return { ctx, out: () => out.join(''), err: () => err.join(''), stop: () => controller.abort() };
}

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('jobs sandbox: flags', () => {
  const cwd = '/work/project';

  it('has loopback defaults: port 4010, host 127.0.0.1, token sandbox', () => {
    expect(parseSandboxFlags({}, cwd)).toEqual({ port: 4010, host: '127.0.0.1', tokens: ['sandbox'], reset: false });
  });

  it('reads every flag', () => {
    const raw: RawSandboxFlags = {
      port: '0',
      host: '::1',
      token: ['a', 'b', 'a'],
      data: 'state.json',
      quota: '60/m',
      latency: '250',
      failRate: '0.25',
      seed: '7',
      reset: true,
    };
    expect(parseSandboxFlags(raw, cwd)).toEqual({
      port: 0,
      host: '::1',
      tokens: ['a', 'b'],
      dataFile: '/work/project/state.json',
      quota: { limit: 60, windowMs: 60_000 },
      latencyMs: 250,
      failRate: 0.25,
      seed: 7,
      reset: true,
    });
  });

  it('reads --max-body as bytes, k or m', () => {
    expect(parseSandboxFlags({ maxBody: '4096' }, cwd).maxBodyBytes).toBe(4096);
    expect(parseSandboxFlags({ maxBody: '256k' }, cwd).maxBodyBytes).toBe(256 * 1024);
    expect(parseSandboxFlags({ maxBody: '2M' }, cwd).maxBodyBytes).toBe(2 * 1024 * 1024);
    expect(() => parseSandboxFlags({ maxBody: '12' }, cwd)).toThrow('--max-body: expected a size from 1k to 64m');
    expect(() => parseSandboxFlags({ maxBody: 'huge' }, cwd)).toThrow(UsageError);
  });

  it('reads quotas as <n>/<unit> or <n>/<k><unit>', () => {
    expect(parseQuota('10/s')).toEqual({ limit: 10, windowMs: 1000 });
    expect(parseQuota('100/10s')).toEqual({ limit: 100, windowMs: 10_000 });
    expect(parseQuota('1000/h')).toEqual({ limit: 1000, windowMs: 3_600_000 });
  });

  it.each([
    [{ port: '70000' }, '--port'],
    [{ port: 'http' }, '--port'],
    [{ quota: '60' }, '--quota'],
    [{ quota: '0/m' }, '--quota'],
    [{ quota: '5/d' }, '--quota'],
    [{ latency: '-5' }, '--latency'],
    [{ failRate: '1.5' }, '--fail-rate'],
    [{ failRate: 'often' }, '--fail-rate'],
    [{ seed: 'x' }, '--seed'],
    [{ token: ['has space'] }, '--token'],
    [{ host: 'a b' }, '--host'],
  ] as [RawSandboxFlags, string][])('rejects %o with a UsageError naming %s', (raw, flag) => {
    expect(() => parseSandboxFlags(raw, cwd)).toThrow(UsageError);
    expect(() => parseSandboxFlags(raw, cwd)).toThrow(flag);
  });
});

describe('jobs sandbox: running', () => {
  it('prints the base URL, tokens and how to point jobs at it; logs requests; stops cleanly on abort', async () => {
    const f = fakeContext({});
    const running = runSandbox(f.ctx, { port: '0', token: ['tok-1', 'tok-2'] });
    const baseUrl = await waitFor(() => /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(f.out())?.[1], 'the banner');
    expect(f.out()).toContain('Tokens: tok-1, tok-2');
    expect(f.out()).toContain(`JOBS_BASE_URL=${baseUrl} JOBS_TOKEN=tok-1 jobs publish`);
    expect((await call(baseUrl, 'POST', '/jobs', { body: advert('A'), auth: 'tok-2' })).status).toBe(201);
    await waitFor(() => (f.err().includes('POST /jobs 201') ? true : undefined), 'the request log');
    expect(f.err()).not.toContain('tok-2');
    f.stop();
    await expect(running).resolves.toBe(0);
    expect(f.err()).toContain('Sandbox stopped.');
    await expect(fetch(`${baseUrl}/jobs/A/stats`)).rejects.toThrow();
  });

  it('on 0.0.0.0: warns that every interface listens, and prints the loopback URL, which jobs accepts', async () => {
    const f = fakeContext({});
    const running = runSandbox(f.ctx, { port: '0', host: '0.0.0.0' });
    const baseUrl = await waitFor(() => /JOBS_BASE_URL=(\S+)/.exec(f.out())?.[1], 'the banner');
    try {
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const port = new URL(baseUrl).port;
      expect(f.out()).toContain(`Sandbox listening on http://0.0.0.0:${port} (from this machine: ${baseUrl})`);
      expect(f.err()).toContain('jobs: warning: listening on every network interface (0.0.0.0): other machines can reach the sandbox');
      expect(f.err()).toContain(`from this machine use ${baseUrl}; jobs sends a token over plain http only to loopback addresses`);
      expect(f.err()).toContain('allow_insecure_http');
      // The URL works as printed: the client sends its token there (404: the advert does not exist).
      const stats = await jobs(['stats', 'NOPE'], { env: isolatedEnv({ JOBS_BASE_URL: baseUrl, JOBS_TOKEN: 'sandbox' }) });
      expect(stats.stderr).toContain('NOPE');
      expect(stats.code).toBe(5);
    } finally {
      f.stop();
      await running;
    }
  });

  it('on a loopback address: no warning', async () => {
    const f = fakeContext({});
    const running = runSandbox(f.ctx, { port: '0', host: '127.0.0.1' });
    await waitFor(() => /JOBS_BASE_URL=(\S+)/.exec(f.out())?.[1], 'the banner');
    f.stop();
    await running;
    expect(f.err()).not.toContain('warning');
  });

  it('on another address of this machine: warns, and says how the client can be allowed to use it', () => {
    const reach = reachability('192.0.2.10', 'http://192.0.2.10:4010');
    expect(reach.url).toBe('http://192.0.2.10:4010');
    expect(reach.warnings).toEqual([
      'warning: listening on 192.0.2.10: other machines can reach the sandbox, and its tokens are not secret',
      'jobs sends a token over plain http only to loopback addresses: to use http://192.0.2.10:4010, set allow_insecure_http: true in the user config, or run the sandbox on 127.0.0.1',
    ]);
    expect(reachability('::', 'http://[::]:4010').url).toBe('http://127.0.0.1:4010');
    expect(reachability('localhost', 'http://127.0.0.1:4010')).toEqual({ url: 'http://127.0.0.1:4010', warnings: [] });
  });

  it('prints one JSON document with --json', async () => {
    const f = fakeContext({}, { output: 'json' });
    const running = runSandbox(f.ctx, { port: '0' });
    const line = await waitFor(() => (f.out().endsWith('\n') ? f.out() : undefined), 'the JSON line');
    f.stop();
    await running;
    const doc = JSON.parse(line) as { base_url: string; tokens: string[]; data_file: null };
    expect(doc).toEqual({ format_version: 1, base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), tokens: ['sandbox'], data_file: null });
  });

  it('reports a port in use as a UsageError', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const f = fakeContext({});
      await expect(runSandbox(f.ctx, { port: String(port) })).rejects.toThrow(/in use.*--port/);
      await expect(runSandbox(f.ctx, { port: String(port) })).rejects.toBeInstanceOf(UsageError);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('--reset --data clears that file, then serves from an empty state', async () => {
    const f = fakeContext({});
    const dataFile = join(f.ctx.cwd, 'state.json');
    writeFileSync(dataFile, 'garbage that would not load');
    const running = runSandbox(f.ctx, { port: '0', data: 'state.json', reset: true });
    const baseUrl = await waitFor(() => /listening on (\S+)/.exec(f.out())?.[1], 'the banner');
    expect((await call(baseUrl, 'GET', '/jobs/A/stats')).status).toBe(404);
    expect((await call(baseUrl, 'POST', '/jobs', { body: advert('A') })).status).toBe(201);
    f.stop();
    await running;
    expect(JSON.parse(readFileSync(dataFile, 'utf8')).adverts).toHaveLength(1);
  });

  it('--reset alone clears the --sandbox state and exits', async () => {
    const state = tempDir('jobs-sandbox-cmd-');
    const file = join(state, 'jobs', 'sandbox.json');
    const f = fakeContext({ XDG_STATE_HOME: state });
    expect(await runSandbox(f.ctx, { reset: true })).toBe(0);
    expect(f.err()).toContain('already empty');
    mkdirSync(join(state, 'jobs'), { recursive: true });
    writeFileSync(file, '{}');
    const g = fakeContext({ XDG_STATE_HOME: state });
    expect(await runSandbox(g.ctx, { reset: true })).toBe(0);
    expect(g.err()).toContain(`Cleared the --sandbox state (${file})`);
    expect(existsSync(file)).toBe(false);
  });
});
