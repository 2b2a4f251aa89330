/**
 * A server that answers with something that is not HTTP (an SSH banner, a broken status line) is
 * reported as such, over real loopback sockets: the service was reached, it did not speak HTTP.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/core/errors/failures.js';
import { makeClient, rejection } from '../../support/http-client.js';

let server: Server | undefined;
beforeAll(() => nock.enableNetConnect('127.0.0.1'));
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A TCP server that answers each request's head with `reply` and closes the connection. */
async function answering(reply: string): Promise<number> {
  server = createServer((socket) => {
    let head = '';
    let answered = false;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (answered || !head.includes('\r\n\r\n')) return;
      answered = true;
      socket.end(reply);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('a response that is not HTTP', () => {
  it.each([
    ['an SSH banner', 'SSH-2.0-OpenSSH_9.6\r\n', /^HPE_/],
    ['a status line without a number', 'HTTP/1.1 OK fine\r\n\r\n', /^HPE_INVALID_STATUS$/],
  ])('%s: "answered with something that is not HTTP", exit 7', async (_name, reply, code) => {
    const port = await answering(reply);
    const { client } = makeClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 1 });
    const error = await rejection<ApiError>(client.stats('A'));
    const match = /^the service at http:\/\/127\.0\.0\.1:\d+\/ answered with something that is not HTTP \((HPE_[A-Z_]+)\) after 1 retry$/.exec(error.message);
    expect(error.message).not.toContain('cannot reach');
    expect(match, error.message).not.toBeNull();
    expect(match![1]).toMatch(code);
    expect(error.exitCode).toBe(7);
  });
});

describe('a response whose body is not HTTP', () => {
  it('a chunked body with a broken chunk size says so, not "the connection broke"', async () => {
    const port = await answering('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n');
    const { client } = makeClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0 });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toBe('GET /jobs/A/stats: the response (200) turned into something that is not HTTP (HPE_INVALID_CHUNK_SIZE)');
    expect(error.exitCode).toBe(7);
  });
});

describe('a statistics count too large for a number', () => {
  it('1e400 is shown as the service wrote it, not as null', async () => {
    const body = '{"views":1e400,"likes":0,"applications":0,"applications_unviewed":0}';
    const port = await answering(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    const { client } = makeClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0 });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toBe('GET /jobs/A/stats: unexpected response (200): views is not a non-negative integer (got 1e400, too large for any count)');
    expect(error.message).not.toContain('null');
    expect(error.exitCode).toBe(1);
  });
});
