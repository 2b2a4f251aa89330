/**
 * A proxy that accepts the connection and never answers: the request waited the 10 s connect limit
 * whatever --timeout said, then blamed a "timeout" without naming the proxy. Now --timeout bounds
 * the tunnel too, and the proxy is named. A TCP server on loopback that accepts and stays silent.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

let server: Server;
const sockets = new Set<Socket>();
let proxy: string;

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('a silent proxy (built binary)', () => {
  it('gives up within --timeout and names the proxy', async () => {
    const env = isolatedEnv({ HTTPS_PROXY: proxy, JOBS_TOKEN: 'tok_SILENT_4711', JOBS_BASE_URL: 'https://jobs.example.com' });
    const started = Date.now();
    const r = await jobs(['--timeout', '1s', '--retries', '0', 'delete', 'ACME-1', '--yes'], { env }).finally(() =>
      rmSync(env.HOME!, { recursive: true, force: true }),
    );
    const took = Date.now() - started;
    expect(r.code).toBe(7);
    expect(r.stdout + r.stderr).toMatch(
      new RegExp(
        `cannot reach https://jobs\\.example\\.com/ \\(the proxy ${proxy.replace(/\./g, '\\.')} (did not open a connection to the service within 1s \\(--timeout\\)|accepted the connection but did not answer the tunnel request \\(CONNECT\\) within \\d+ ms)\\); check HTTPS_PROXY`,
      ),
    );
    expect(sockets.size).toBeGreaterThan(0);
    // Before: 10 s (the connect limit), whatever --timeout said.
    expect(took).toBeLessThan(5000);
  }, 20_000);
});
