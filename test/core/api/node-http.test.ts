// Requests go out through node:http (a fetch only when one is handed in): what a real loopback
// server sees on the wire, connection reuse, and the ways a real connection fails.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/core/errors/failures.js';
import { classifyFailure } from '../../../src/core/events/outcome.js';
import { isolatedEnv, jobs } from '../../e2e/helpers.js';
import { makeClient, rejection, TOKEN } from '../../support/http-client.js';

const ROOT = resolve(import.meta.dirname, '../../..');

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let seen: Seen[];
let connections: number;
let handle: (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function listen(host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

beforeEach(() => {
  nock.enableNetConnect();
  seen = [];
  connections = 0;
  handle = (_req, res) => res.end();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handle(req, res, body);
    });
  });
  server.on('connection', () => connections++);
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('requests through node:http', () => {
  it('sends the JSON body with its length and the headers, and keeps one connection for requests in a row', async () => {
    const port = await listen();
    const { client } = makeClient({ baseUrl: `http://127.0.0.1:${port}` });
    for (let i = 0; i < 5; i++) await client.postEvent(`app-${i}`, { kind: 'recruiter_like', data: { note: 'café ✓' } });
    expect(seen).toHaveLength(5);
    const body = JSON.stringify({ kind: 'recruiter_like', data: { note: 'café ✓' } });
    expect(seen[4]).toMatchObject({ method: 'POST', url: '/job_applications/app-4/events', body });
    expect(seen[4]!.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      accept: 'application/json',
      authorization: `Bearer ${TOKEN}`,
    });
    expect(connections).toBe(1);
  });

  it('reaches a service named by an IPv6 address, and one named localhost', async () => {
    const port = await listen('::1');
    await makeClient({ baseUrl: `http://[::1]:${port}` }).client.delete('A');
    // localhost resolves to 127.0.0.1 here: a second server listens there (loopback only).
    const v4 = createServer((req, res) => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: '' });
      res.end();
    });
    await new Promise<void>((resolve) => v4.listen(port, '127.0.0.1', resolve));
    try {
      await makeClient({ baseUrl: `http://localhost:${port}/` }).client.delete('B');
    } finally {
      v4.closeAllConnections();
      await new Promise((resolve) => v4.close(resolve));
    }
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['DELETE /jobs/A', 'DELETE /jobs/B']);
  });

  it('does not follow a redirect: it is reported, and the place it points to gets nothing', async () => {
    const port = await listen();
    handle = (req, res) => {
      if (req.url!.startsWith('/jobs/')) res.writeHead(302, { Location: `http://127.0.0.1:${port}/elsewhere` }).end();
      else res.end();
    };
    const error = await rejection<ApiError>(makeClient({ baseUrl: `http://127.0.0.1:${port}` }).client.update('A', { title: 'x' }));
    expect(error.message).toContain(`unexpected redirect (302) to http://127.0.0.1:${port}/elsewhere`);
    expect(seen.map((s) => s.url)).toEqual(['/jobs/A']);
  });

  it('a service that never answers: the attempt times out and its connection is closed', async () => {
    const port = await listen();
    const closed: Promise<void> = new Promise((resolve) => server.once('connection', (socket: Socket) => socket.once('close', () => resolve())));
    handle = () => undefined; // never answers
    const error = await rejection<ApiError>(
      makeClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 200, retries: 0 }).client.postEvent('7', { kind: 'recruiter_view' }),
    );
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('POST /job_applications/7/events: no response within 200ms (timeout)');
    await closed;
  });

  it('statistics whose body breaks off are asked again, then reported as a broken response', async () => {
    const port = await listen();
    handle = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '200' });
      res.write('{"views": 1, "lik');
      setTimeout(() => res.socket!.destroy(), 20);
    };
    const { client, waits } = makeClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 2 });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^GET \/jobs\/A\/stats: .*connection .* while reading the response/);
  });

  it('a body far over the cap is cut off there, and the connection is not left to stream the rest', async () => {
    const port = await listen();
    const closed: Promise<void> = new Promise((resolve) => server.once('connection', (socket: Socket) => socket.once('close', () => resolve())));
    // 64 MiB that the server would take its time to send: the client stops at 1 MiB.
    handle = (_req, res) => {
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      const chunk = 'A'.repeat(1024 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once('drain', more);
        else res.end();
      };
      more();
    };
    const error = await rejection<ApiError>(makeClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0 }).client.delete('A'));
    expect(error.details).toEqual([`the service said (text/plain), cut off: ${'A'.repeat(200)}…`]);
    await closed;
  });

  it('a fetch handed in is used instead, with redirects left to the caller', async () => {
    const port = await listen();
    const calls: { url: string; init: RequestInit }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(null, { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    await makeClient({ baseUrl: `http://127.0.0.1:${port}`, fetch }).client.delete('A');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: `http://127.0.0.1:${port}/jobs/A`, init: { method: 'DELETE', redirect: 'manual' } });
    expect(connections).toBe(0);
  });
});

describe('a connection that is never made', () => {
  it('is given up after the connect timeout, and any call is repeated: nothing was sent', async () => {
    // Accepts the TCP connection and never says a word: the TLS handshake, part of connecting, hangs.
    const silent = createNetServer((socket) => socket.on('error', () => undefined).resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const url = `https://127.0.0.1:${port}`;
    try {
      const { client, waits, trace } = makeClient({ baseUrl: url, connectTimeoutMs: 300, retries: 1 });
      const error = await rejection<ApiError>(client.postEvent('7', { kind: 'recruiter_view' }));
      expect(error.message).toBe(`cannot reach ${url}/ (connection timed out) after 1 retry`);
      expect(waits).toEqual([250]);
      expect(trace.filter((l) => l.startsWith('> POST'))).toHaveLength(2);
      // The events journal holds such an event as failed (never sent), not uncertain.
      expect(classifyFailure(error)).toBe('failed');
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('https', () => {
  // A self-signed certificate for 127.0.0.1 that expires in 2126 (made once with openssl req -x509),
  // kept as a fixture so that npm test needs no openssl.
  const cert = readFileSync(join(ROOT, 'test/fixtures/tls/loopback-cert.pem'));
  const key = readFileSync(join(ROOT, 'test/fixtures/tls/loopback-key.pem'));

  async function tlsService(): Promise<{ port: number; requests: string[]; close: () => Promise<void> }> {
    const requests: string[] = [];
    const tls = createTlsServer({ cert, key }, (req, res) => {
      requests.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ views: 3, likes: 1, applications: 2, applications_unviewed: 1 }));
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    return {
      port: (tls.address() as AddressInfo).port,
      requests,
      close: async () => {
        tls.closeAllConnections();
        await new Promise((resolve) => tls.close(resolve));
      },
    };
  }

  it('a certificate nobody vouches for is a TLS error, not repeated, and nothing is sent', async () => {
    const service = await tlsService();
    try {
      const { client, waits } = makeClient({ baseUrl: `https://127.0.0.1:${service.port}` });
      const error = await rejection<ApiError>(client.stats('A'));
      expect(error.message).toBe(
        `cannot reach https://127.0.0.1:${service.port}/ (TLS error DEPTH_ZERO_SELF_SIGNED_CERT); the service's certificate is not signed by an authority this machine trusts: if it is your organisation's own CA (or a proxy that inspects TLS), set ca_file in the profile, JOBS_CA_FILE or NODE_EXTRA_CA_CERTS to its PEM file`,
      );
      expect(waits).toEqual([]);
      expect(service.requests).toEqual([]);
      expect(classifyFailure(error)).toBe('failed');
    } finally {
      await service.close();
    }
  });

  it('https:// to a port that speaks plain http says so, and is not repeated', async () => {
    const port = await listen();
    const { client, waits } = makeClient({ baseUrl: `https://127.0.0.1:${port}` });
    const error = await rejection<ApiError>(client.postEvent('7', { kind: 'recruiter_view' }));
    expect(error.message).toBe(`cannot reach https://127.0.0.1:${port}/ (TLS error: no TLS on that port (is the service http://?))`);
    expect(waits).toEqual([]);
    expect(seen).toEqual([]);
    expect(classifyFailure(error)).toBe('failed');
  });

  it('the built jobs reaches an https service whose certificate NODE_EXTRA_CA_CERTS vouches for', async () => {
    const service = await tlsService();
    try {
      const env = isolatedEnv({
        JOBS_BASE_URL: `https://127.0.0.1:${service.port}`,
        JOBS_TOKEN: TOKEN,
        NODE_EXTRA_CA_CERTS: join(ROOT, 'test/fixtures/tls/loopback-cert.pem'),
      });
      const r = await jobs(['stats', 'ACME-1', '--json'], { env });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout).stats).toMatchObject([{ reference: 'ACME-1', views: 3, applications: 2 }]);
      expect(service.requests).toEqual([`GET /jobs/ACME-1/stats Bearer ${TOKEN}`]);
    } finally {
      await service.close();
    }
  });
});
