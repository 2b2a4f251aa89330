// Requests go out through node:http (a fetch only when one is handed in): what a real loopback
// server sees on the wire, connection reuse, and the ways a real connection fails.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/core/errors/failures.js';
import { makeClient, rejection, TOKEN } from './helpers.js';

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
    const error = await rejection<ApiError>(makeClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 200, retries: 0 }).client.postEvent('7', { kind: 'recruiter_view' }));
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
