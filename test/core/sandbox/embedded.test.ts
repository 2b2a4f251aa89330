import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../../src/cli/context.js';
import { resetEmbeddedSandbox, sandboxStatePath, startEmbeddedSandbox } from '../../../src/core/sandbox/embedded.js';
import { advert, call } from '../../support/sandbox-server.js';
import { tempDir } from '../../support/temp-dirs.js';

function ctxWith(env: Record<string, string | undefined>, verbose = false, err: string[] = []): Context {
  return {
    name: 'jobs',
    io: { stdin: (async function* () {})(), stdout: { write: () => true }, stderr: { write: (s: string) => err.push(s) } },
    env,
    cwd: '/',
    globals: { output: 'human', quiet: false, verbose, color: false, input: false, sandbox: true },
    signal: new AbortController().signal,
    config: () => Promise.reject(new Error('not used')),
    client: () => Promise.reject(new Error('not used')),
  };
}

describe('embedded sandbox (--sandbox)', () => {
  it('keeps its state under XDG_STATE_HOME, else ~/.local/state', () => {
    expect(sandboxStatePath({ XDG_STATE_HOME: '/x/state', HOME: '/home/u' })).toBe('/x/state/jobs/sandbox.json');
    expect(sandboxStatePath({ HOME: '/home/u' })).toBe('/home/u/.local/state/jobs/sandbox.json');
    // The XDG spec says a relative path is to be ignored.
    expect(sandboxStatePath({ XDG_STATE_HOME: 'rel', HOME: '/home/u' })).toBe('/home/u/.local/state/jobs/sandbox.json');
  });

  it('serves on 127.0.0.1 with token sandbox, and a later run sees what an earlier one stored', async () => {
    const home = tempDir('jobs-embedded-');
    const env = { HOME: home };
    const first = await startEmbeddedSandbox(ctxWith(env));
    expect(first.token).toBe('sandbox');
    expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await call(first.baseUrl, 'POST', '/jobs', { body: advert('ACME-1') })).status).toBe(201);
    expect(existsSync(join(home, '.local/state/jobs/sandbox.json'))).toBe(true);

    const second = await startEmbeddedSandbox(ctxWith(env));
    expect(second.baseUrl).not.toBe(first.baseUrl);
    expect((await call(second.baseUrl, 'GET', '/jobs/ACME-1/stats')).status).toBe(200);

    expect(await resetEmbeddedSandbox(env)).toBe(true);
    expect(await resetEmbeddedSandbox(env)).toBe(false);
    const third = await startEmbeddedSandbox(ctxWith(env));
    expect((await call(third.baseUrl, 'GET', '/jobs/ACME-1/stats')).status).toBe(404);
  });

  it('writes to no terminal itself: each request goes to the log callback, when one is given', async () => {
    const env = { XDG_STATE_HOME: tempDir('jobs-embedded-') };
    const stderr: string[] = [];
    // Even a verbose context's stderr stays empty: showing the lines is the CLI's part (src/cli/client-for.ts).
    const q = await startEmbeddedSandbox(ctxWith(env, true, stderr));
    await call(q.baseUrl, 'GET', '/jobs/X/stats');
    expect(stderr).toEqual([]);
    const lines: string[] = [];
    const v = await startEmbeddedSandbox({ env, log: (line) => lines.push(line) });
    await call(v.baseUrl, 'GET', '/jobs/X/stats');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/jobs\/X\/stats 404 \d+ms$/);
  });

  it('does not keep the process alive, and its state is on disk when the process ends', async () => {
    const dir = tempDir('jobs-embedded-');
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { startEmbeddedSandbox } from ${JSON.stringify(join(process.cwd(), 'src/core/sandbox/embedded.ts'))};
const ctx = { io: { stdout: process.stdout, stderr: process.stderr }, env: { XDG_STATE_HOME: ${JSON.stringify(dir)} },
  globals: { verbose: false } };
const { baseUrl, token } = await startEmbeddedSandbox(ctx);
const res = await fetch(baseUrl + '/jobs', { method: 'POST', headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' },
  body: JSON.stringify(${JSON.stringify(advert('ACME-EXIT'))}) });
console.log(res.status);
`,
    );
    const out = join(dir, 'entry.mjs');
    await build({ entryPoints: [entry], outfile: out, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
    const started = Date.now();
    // No process.exit in the script: it must end on its own, well before the kill timeout.
    const child = spawnSync(process.execPath, [out], { encoding: 'utf8', timeout: 15_000 });
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe('201');
    expect(Date.now() - started).toBeLessThan(2000);
    const state = JSON.parse(readFileSync(join(dir, 'jobs', 'sandbox.json'), 'utf8')) as { adverts: { reference: string }[] };
    expect(state.adverts.map((a) => a.reference)).toEqual(['ACME-EXIT']);
  });
});
