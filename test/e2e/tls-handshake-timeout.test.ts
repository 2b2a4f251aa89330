/**
 * A server that accepts TCP but never answers TLS, with `--timeout 1`: the request was never sent,
 * and the error says so, naming the service (`cannot reach https://host:port/ (the connection and
 * its TLS handshake did not finish within 1s (--timeout))`), exit 7, no stack trace. Before, it was
 * "no response within 1s (timeout)" without the host, as if the request might have arrived, and an
 * events run journaled such events as uncertain (not posted again without --retry-uncertain).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

let server: Server;
const sockets = new Set<Socket>();
let base: string;

beforeAll(async () => {
  // Accepts, reads nothing, answers nothing.
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  base = `https://127.0.0.1:${port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const env = () => isolatedEnv({ JOBS_BASE_URL: base, JOBS_TOKEN: 'tok-0123456789abcdef' });

describe('a TLS handshake that never ends (built binary)', () => {
  it('stats: a clear error naming the service, exit 7, no stack, within the timeout', async () => {
    const started = Date.now();
    const r = await jobs(['stats', 'ACME-1', '--timeout', '1', '--retries', '0'], { env: env() });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain(`cannot reach ${base}/ (the connection and its TLS handshake did not finish within 1s (--timeout))`);
    expect(r.stderr).not.toMatch(/\n\s+at |ECANCELED|unexpected error/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('events: nothing was sent, so the events are failed (a rerun posts them), not uncertain', async () => {
    const dir = tempDir('jobs-tls-events-');
    writeFileSync(join(dir, 'e.ndjson'), '{"application_id":"1","kind":"recruiter_view"}\n');
    const r = await jobs(['events', 'e.ndjson', '--timeout', '1', '--retries', '0'], { cwd: dir, env: env() });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('1 event: 0 posted, 1 failed');
    expect(r.stderr).not.toContain('uncertain');
  });
});
