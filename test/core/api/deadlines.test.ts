/**
 * Attempts started together share one timeout signal (api/deadlines.ts): one that hangs still
 * times out, its neighbours still succeed, and a caller's signal cancels only its own request.
 */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { Deadlines } from '../../../src/core/api/deadlines.js';
import type { ApiError, CancelledError } from '../../../src/core/errors/failures.js';
import { BASE, makeClient, rejection, useNock } from '../../support/http-client.js';

useNock();

describe('attempts in one window', () => {
  it('a hanging POST times out while the seven sent with it succeed', async () => {
    const scope = nock(BASE)
      .post('/job_applications/slow/events')
      .delay(3000)
      .reply(200)
      .post(/\/job_applications\/fast\d\/events/)
      .times(7)
      .reply(200);
    const { client } = makeClient({ timeoutMs: 400 });
    const fast = Array.from({ length: 7 }, (_, i) => client.postEvent(`fast${i}`, { kind: 'recruiter_like' }));
    const slow = rejection<ApiError>(client.postEvent('slow', { kind: 'recruiter_like' }));
    await expect(Promise.all(fast)).resolves.toHaveLength(7);
    const error = await slow;
    scope.done();
    expect(error.message).toBe('POST /job_applications/slow/events: no response within 400ms (timeout)');
  });

  it("a caller's signal cancels its own request, not the others of its window", async () => {
    const scope = nock(BASE).post('/job_applications/a/events').delay(300).reply(200).post('/job_applications/b/events').delay(300).reply(200);
    const { client } = makeClient({ timeoutMs: 30_000 });
    const stop = new AbortController();
    const cancelled = rejection<CancelledError>(client.postEvent('a', { kind: 'recruiter_like' }, { signal: stop.signal }));
    const other = client.postEvent('b', { kind: 'recruiter_like' });
    setTimeout(() => stop.abort(), 20);
    expect((await cancelled).message).toBe('POST /job_applications/a/events: cancelled');
    await expect(other).resolves.toBeUndefined();
    scope.done();
  });
});

describe('Deadlines', () => {
  it('aborts no sooner than the timeout, and not at all once every attempt of the window ended', async () => {
    const deadlines = new Deadlines(64, () => 'timeout');
    const started = performance.now();
    const first = deadlines.start();
    const second = deadlines.start();
    expect(second.signal).toBe(first.signal);
    const aborted = new Promise<number>((resolve) => first.signal.addEventListener('abort', () => resolve(performance.now() - started)));
    second.end();
    // Still one attempt in flight: the signal aborts, after the whole timeout.
    expect(await aborted).toBeGreaterThanOrEqual(63);
    expect(first.signal.reason).toBe('timeout');
    first.end();

    const ended = deadlines.start();
    expect(ended.signal).not.toBe(first.signal);
    ended.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ended.signal.aborted).toBe(false);
  });
});

describe('many attempts at once, through the real transport (loopback)', () => {
  it('300 posts in flight together: all answered, and Node warns of no listener leak', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.end(), 20));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const { port } = server.address() as { port: number };
      const { client } = makeClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 10_000 });
      nock.enableNetConnect('127.0.0.1');
      const posts = Array.from({ length: 300 }, (_, i) => client.postEvent(`a${i}`, { kind: 'recruiter_view' }));
      await expect(Promise.all(posts)).resolves.toHaveLength(300);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
