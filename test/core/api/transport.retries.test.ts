/**
 * The retry loop as a user meets it: which failures are repeated for which calls, how long the
 * client waits (injected sleep records it), the shared 429 gate, the total bound, timeouts.
 */
import { createServer } from 'node:net';
import nock from 'nock';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, CancelledError } from '../../../src/core/errors/failures.js';
import { BASE, NOW, makeClient, rejection, useNock } from '../../support/http-client.js';

useNock();

const advert = { reference: 'ACME-042', title: 'x' };
const stats = { views: 1, likes: 0, applications: 0, applications_unviewed: 0 };

describe('backoff', () => {
  it('retries 503 with exponential backoff and full jitter (base 500ms), then succeeds', async () => {
    const scope = nock(BASE).get('/jobs/A/stats').times(5).reply(503).get('/jobs/A/stats').reply(200, stats);
    const { client, waits } = makeClient(); // random() = 0.5: half of each ceiling
    await expect(client.stats('A')).resolves.toEqual(stats);
    scope.done();
    expect(waits).toEqual([250, 500, 1000, 2000, 4000]);
  });

  it('caps the backoff at 30s', async () => {
    const scope = nock(BASE).get('/jobs/A/stats').times(9).reply(502).get('/jobs/A/stats').reply(200, stats);
    const { client, waits } = makeClient({ retries: 9, random: () => 0.999999, maxRetryTimeMs: 1_000_000 });
    await client.stats('A');
    scope.done();
    expect(waits.map((w) => Math.round(w / 100) * 100)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('gives up after the configured retries: service error, exit 7, one request per attempt', async () => {
    const scope = nock(BASE).get('/jobs/A/stats').times(3).reply(504);
    const { client, waits } = makeClient({ retries: 2 });
    const error = await rejection<ApiError>(client.stats('A'));
    scope.done();
    expect(error.message).toBe('GET /jobs/A/stats: service error (504) after 2 retries');
    expect(error.exitCode).toBe(7);
    expect(waits).toHaveLength(2);
  });

  it('does not retry with retries: 0', async () => {
    const scope = nock(BASE).get('/jobs/A/stats').reply(503);
    const { client, waits } = makeClient({ retries: 0 });
    expect((await rejection<ApiError>(client.stats('A'))).message).toBe('GET /jobs/A/stats: service error (503)');
    scope.done();
    expect(waits).toEqual([]);
  });

  it('does not retry 400, 401, 404 or 422', async () => {
    const scope = nock(BASE).put('/jobs/A').reply(400).put('/jobs/A').reply(401).put('/jobs/A').reply(404).put('/jobs/A').reply(422);
    const { client, waits } = makeClient();
    for (let i = 0; i < 4; i++) await rejection(client.update('A', { title: 'x' }));
    scope.done();
    expect(waits).toEqual([]);
  });
});

describe('429 and the waits the service announces', () => {
  it('waits what Retry-After says in seconds', async () => {
    const scope = nock(BASE).post('/jobs').reply(429, '', { 'Retry-After': '3' }).post('/jobs').reply(201);
    const { client, waits, trace } = makeClient();
    await client.create(advert);
    scope.done();
    expect(waits).toEqual([3000]);
    expect(trace).toContain('retrying in 3.0s (429, attempt 2/6)');
  });

  it('waits until the HTTP-date in Retry-After', async () => {
    const at = new Date(NOW + 7000).toUTCString();
    const scope = nock(BASE).delete('/jobs/A').reply(429, '', { 'Retry-After': at }).delete('/jobs/A').reply(200);
    const { client, waits } = makeClient();
    await client.delete('A');
    scope.done();
    expect(waits).toEqual([7000]);
  });

  it('honours Retry-After on 503 too', async () => {
    const scope = nock(BASE).get('/jobs/A/stats').reply(503, '', { 'Retry-After': '2' }).get('/jobs/A/stats').reply(200, stats);
    const { client, waits } = makeClient();
    await client.stats('A');
    scope.done();
    expect(waits).toEqual([2000]);
  });

  it.each([
    [{ 'RateLimit-Reset': '4' }, 4000],
    [{ RateLimit: '"default";r=0;t=9' }, 9000],
    [{ RateLimit: 'limit=100, remaining=0, reset=6' }, 6000],
    [{ 'X-RateLimit-Reset': '5' }, 5000],
    [{ 'X-RateLimit-Reset': String(NOW / 1000 + 12) }, 12000],
  ])('reads RateLimit headers %j', async (headers, expected) => {
    const scope = nock(BASE).post('/jobs').reply(429, '', headers).post('/jobs').reply(201);
    const { client, waits } = makeClient();
    await client.create(advert);
    scope.done();
    expect(waits).toEqual([expected]);
  });

  it('falls back to backoff when the 429 announces nothing readable', async () => {
    const scope = nock(BASE).post('/jobs').reply(429, '', { 'Retry-After': 'soon' }).post('/jobs').reply(201);
    const { client, waits } = makeClient();
    await client.create(advert);
    scope.done();
    expect(waits).toEqual([250]);
  });

  it('429 after all retries: quota, exit 6, with the tree', async () => {
    const scope = nock(BASE)
      .post('/jobs')
      .times(3)
      .reply(429, { errors: { base: ['quota_exceeded'] } }, { 'Retry-After': '1' });
    const { client, waits } = makeClient({ retries: 2 });
    const error = await rejection<ApiError>(client.create(advert));
    scope.done();
    expect(error.kind).toBe('quota');
    expect(error.exitCode).toBe(6);
    expect(error.message).toBe('POST /jobs: rate quota exceeded (429) after 2 retries');
    expect(error.tree).toEqual({ base: ['quota_exceeded'] });
    expect(waits).toEqual([1000, 1000]);
  });
});

describe('which calls are repeated', () => {
  it('repeats GET, PUT and DELETE after a 500', async () => {
    const scope = nock(BASE)
      .get('/jobs/A/stats')
      .reply(500)
      .get('/jobs/A/stats')
      .reply(200, stats)
      .put('/jobs/A')
      .reply(500)
      .put('/jobs/A')
      .reply(200)
      .delete('/jobs/A')
      .reply(500)
      .delete('/jobs/A')
      .reply(200);
    const { client, waits } = makeClient();
    await client.stats('A');
    await client.update('A', { title: 'x' });
    await client.delete('A');
    scope.done();
    expect(waits).toHaveLength(3);
  });

  it('does not repeat POST /jobs after a 500 unless retryPost is set', async () => {
    const scope = nock(BASE).post('/jobs').reply(500);
    const { client, waits } = makeClient();
    const error = await rejection<ApiError>(client.create(advert));
    scope.done();
    expect(error.message).toBe('POST /jobs: service error (500)');
    expect(error.details).toContain('not retried: the advert may have been created already');
    expect(waits).toEqual([]);
  });

  it('repeats POST /jobs after a 500 with retryPost (publish catches a repeat by reference: [taken])', async () => {
    const scope = nock(BASE).post('/jobs').reply(500).post('/jobs').reply(201);
    const { client, waits } = makeClient();
    await client.create(advert, { retryPost: true });
    scope.done();
    expect(waits).toEqual([250]);
  });

  it('never repeats POST events after a 500, even when asked to', async () => {
    const scope = nock(BASE).post('/job_applications/7/events').reply(500);
    const { client, waits } = makeClient();
    const error = await rejection<ApiError>(client.postEvent('7', { kind: 'recruiter_like' }, { retryPost: true }));
    scope.done();
    expect(error.exitCode).toBe(7);
    expect(error.details.join('\n')).toMatch(/would notify the applicant twice/);
    expect(waits).toEqual([]);
  });

  it.each([429, 503])('repeats POST events and POST /jobs after %i (the service did not take the request on)', async (status) => {
    const scope = nock(BASE)
      .post('/job_applications/7/events')
      .reply(status)
      .post('/job_applications/7/events')
      .reply(200)
      .post('/jobs')
      .reply(status)
      .post('/jobs')
      .reply(201);
    const { client } = makeClient();
    await client.postEvent('7', { kind: 'recruiter_like' });
    await client.create(advert);
    scope.done();
  });

  it.each([502, 504])('after a gateway %i repeats POST /jobs inside publish, but never an event: it may have reached the service', async (status) => {
    const scope = nock(BASE).post('/job_applications/7/events').once().reply(status).post('/jobs').reply(status).post('/jobs').reply(201);
    const { client } = makeClient();
    const error = await rejection<ApiError>(client.postEvent('7', { kind: 'recruiter_like' }));
    expect(error.exitCode).toBe(7);
    await client.create(advert, { retryPost: true });
    scope.done();
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])('repeats every call after %s: the request never reached the service', async (code) => {
    const scope = nock(BASE)
      .post('/job_applications/7/events')
      .replyWithError(Object.assign(new Error(code), { code }))
      .post('/job_applications/7/events')
      .reply(200)
      .post('/jobs')
      .replyWithError(Object.assign(new Error(code), { code }))
      .post('/jobs')
      .reply(201);
    const { client, waits } = makeClient();
    await client.postEvent('7', { kind: 'recruiter_like' });
    await client.create(advert);
    scope.done();
    expect(waits).toEqual([250, 250]);
  });

  it('repeats safe calls after a connection reset, but never an event: it may have been recorded', async () => {
    const scope = nock(BASE)
      .get('/jobs/A/stats')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
      .get('/jobs/A/stats')
      .reply(200, { views: 1, likes: 0, applications: 0, applications_unviewed: 0 })
      .post('/job_applications/7/events')
      .once()
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const { client, waits } = makeClient();
    await client.stats('A');
    const error = await rejection<ApiError>(client.postEvent('7', { kind: 'recruiter_like' }));
    scope.done();
    expect(waits).toEqual([250]);
    expect(error.kind).toBe('network');
  });
});

describe('connection failures', () => {
  /** A loopback port with nothing listening: connect() is refused at once. */
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('cannot reach a closed loopback port: network, exit 7, after the retries', async () => {
    nock.enableNetConnect('127.0.0.1');
    const port = await closedPort();
    const { client, waits, trace } = makeClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 2 });
    const error = await rejection<ApiError>(client.delete('A'));
    expect(error.kind).toBe('network');
    expect(error.exitCode).toBe(7);
    expect(error.message).toBe(`cannot reach http://127.0.0.1:${port}/ (connection refused) after 2 retries`);
    expect(error.details).toContain('while sending DELETE /jobs/A');
    expect(waits).toEqual([250, 500]);
    expect(trace.filter((l) => l.startsWith('> DELETE'))).toHaveLength(3);
  });

  it('a connection reset before any response: network error naming it', async () => {
    const scope = nock(BASE)
      .get('/jobs/A/stats')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const error = await rejection<ApiError>(makeClient({ retries: 0 }).client.stats('A'));
    scope.done();
    expect(error.message).toBe('cannot reach https://jobs.test/ (connection reset)');
  });
});

describe('timeouts', () => {
  it('a GET that times out is repeated, then succeeds', async () => {
    // The repeat must be answered within the timeout even on a loaded machine: 40 ms was not always.
    const scope = nock(BASE).get('/jobs/A/stats').delay(3000).reply(200, stats).get('/jobs/A/stats').reply(200, stats);
    const { client, trace } = makeClient({ timeoutMs: 400 });
    await expect(client.stats('A')).resolves.toEqual(stats);
    scope.done();
    expect(trace).toContain('< no response within 400ms (timeout)');
    expect(trace).toContain('retrying in 0.3s (timeout, attempt 2/6)');
  });

  it('a timeout after the retries: kind timeout, exit 7', async () => {
    const scope = nock(BASE).put('/jobs/A').times(2).delay(500).reply(200);
    const error = await rejection<ApiError>(makeClient({ timeoutMs: 30, retries: 1 }).client.update('A', { title: 'x' }));
    scope.done();
    expect(error.kind).toBe('timeout');
    expect(error.exitCode).toBe(7);
    expect(error.message).toBe('PUT /jobs/A: no response within 30ms (timeout) after 1 retry');
  });

  it('a POST event that times out is not repeated', async () => {
    const scope = nock(BASE).post('/job_applications/7/events').delay(500).reply(200);
    const { client, waits } = makeClient({ timeoutMs: 30 });
    const error = await rejection<ApiError>(client.postEvent('7', { kind: 'recruiter_like' }));
    scope.done();
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('POST /job_applications/7/events: no response within 30ms (timeout)');
    expect(waits).toEqual([]);
  });

  it('a POST /jobs that times out is repeated only with retryPost', async () => {
    const scope = nock(BASE).post('/jobs').delay(500).reply(201).post('/jobs').delay(500).reply(201).post('/jobs').reply(201);
    const { client } = makeClient({ timeoutMs: 30 });
    expect((await rejection<ApiError>(client.create(advert))).kind).toBe('timeout');
    await client.create(advert, { retryPost: true });
    scope.done();
  });
});

describe('the total retry time bound', () => {
  it('gives up when the next backoff would pass maxRetryTimeMs', async () => {
    const scope = nock(BASE).get('/jobs/A/stats').times(3).reply(503);
    const { client, waits, trace } = makeClient({ maxRetryTimeMs: 1000 });
    const error = await rejection<ApiError>(client.stats('A'));
    scope.done();
    expect(waits).toEqual([250, 500]); // 250 + 500 + 1000 > 1000
    expect(error.message).toBe('GET /jobs/A/stats: service error (503) after 2 retries');
    expect(error.details).toContain('stopped retrying: the next wait (1.0s) would pass the retry time limit (1s)');
    expect(trace).toContain('giving up: the next wait (1.0s) would pass the retry time limit (1s)');
  });

  it('gives up at once when Retry-After asks for more than the bound', async () => {
    const scope = nock(BASE).post('/jobs').reply(429, '', { 'Retry-After': '3600' });
    const { client, waits } = makeClient();
    const error = await rejection<ApiError>(client.create(advert));
    scope.done();
    expect(waits).toEqual([]);
    expect(error.kind).toBe('quota');
    expect(error.details).toContain('stopped retrying: the next wait (3600.0s) would pass the retry time limit (2m)');
  });
});

describe('the shared rate gate', () => {
  it('a 429 on one request holds the other requests of the same client', async () => {
    const waits: number[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { client } = makeClient({
      sleep: async (ms) => {
        waits.push(ms);
        await gate;
      },
    });
    const scope = nock(BASE).post('/jobs').reply(429, '', { 'Retry-After': '2' }).post('/jobs').reply(201);
    const statsScope = nock(BASE).get('/jobs/B/stats').reply(200, stats);

    const first = client.create(advert);
    await vi.waitFor(() => expect(waits).toEqual([2000]));
    const second = client.stats('B');
    // The second request waits the same 2s before sending anything.
    await vi.waitFor(() => expect(waits).toEqual([2000, 2000]));
    expect(statsScope.isDone()).toBe(false);

    open();
    await first;
    await expect(second).resolves.toEqual(stats);
    scope.done();
    statsScope.done();
  });

  it('two concurrent calls: the one without a 429 waits out the pause before its retry', async () => {
    const { client, waits, trace } = makeClient();
    const scope = nock(BASE)
      .post('/jobs')
      .reply(429, '', { 'Retry-After': '5' })
      .post('/jobs')
      .reply(201)
      // Its own 503 answers after the other's 429 has closed the gate.
      .get('/jobs/B/stats')
      .delay(30)
      .reply(503)
      .get('/jobs/B/stats')
      .reply(200, stats);
    await Promise.all([client.create(advert), client.stats('B')]);
    scope.done();
    // create: 5000 at the gate; stats: its own 250 backoff, then the rest of the pause.
    expect(waits.sort((a, b) => a - b)).toEqual([250, 5000, 5000]);
    expect(trace).toContain('waiting 5.0s: the service asked this client to slow down (429)');
  });

  it('a pause longer than the bound fails the other requests without sending them', async () => {
    const { client } = makeClient({ maxRetryTimeMs: 10_000 });
    const scope = nock(BASE).post('/jobs').reply(429, '', { 'Retry-After': '60' });
    expect((await rejection<ApiError>(client.create(advert))).kind).toBe('quota');
    scope.done();
    // No interceptor: a request sent now would fail with a network error, not quota.
    const error = await rejection<ApiError>(client.stats('B'));
    expect(error.kind).toBe('quota');
    expect(error.exitCode).toBe(6);
    expect(error.message).toBe('GET /jobs/B/stats: rate quota exceeded (429): the service asks to wait 60.0s, beyond the retry time limit of 10s');
  });
});

describe('cancellation', () => {
  it('an abort during a retry wait stops the call with CancelledError (exit 130)', async () => {
    const controller = new AbortController();
    const { client } = makeClient({
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
          controller.abort();
        }),
    });
    const scope = nock(BASE).get('/jobs/A/stats').reply(503);
    const error = await rejection(client.stats('A', { signal: controller.signal }));
    scope.done();
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).exitCode).toBe(130);
  });

  it('an abort while waiting for the response cancels the request', async () => {
    const controller = new AbortController();
    const scope = nock(BASE).delete('/jobs/A').delay(1000).reply(200);
    const pending = makeClient().client.delete('A', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(pending);
    scope.done();
    expect(error).toBeInstanceOf(CancelledError);
    expect(error.message).toBe('DELETE /jobs/A: cancelled');
  });
});

describe('a body that breaks off', () => {
  /** A fetch whose response headers arrive, then the connection drops mid-body. */
  function brokenFetch(status: number, calls: string[], then?: () => Response): typeof fetch {
    return (async (input: string | URL | Request, init?: RequestInit) => {
      calls.push(`${init?.method} ${String(input)}`);
      if (then && calls.length > 1) return then();
      let pulls = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('{"views": 1'));
          else controller.error(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
        },
      });
      return new Response(body, { status });
    }) as typeof fetch;
  }

  it('stats: the counters are lost, so the GET is repeated', async () => {
    const calls: string[] = [];
    const { client, waits } = makeClient({ fetch: brokenFetch(200, calls, () => Response.json(stats)) });
    await expect(client.stats('A')).resolves.toEqual(stats);
    expect(calls).toEqual(['GET https://jobs.test/jobs/A/stats', 'GET https://jobs.test/jobs/A/stats']);
    expect(waits).toEqual([250]);
  });

  it('stats after the retries: network error naming the broken read', async () => {
    const calls: string[] = [];
    const error = await rejection<ApiError>(makeClient({ retries: 0, fetch: brokenFetch(200, calls) }).client.stats('A'));
    expect(error.kind).toBe('network');
    expect(error.message).toBe('GET /jobs/A/stats: the connection broke while reading the response (200, connection closed)');
  });

  it('an event answered 200 succeeded, whatever happens to its (empty) body', async () => {
    const calls: string[] = [];
    await makeClient({ fetch: brokenFetch(200, calls) }).client.postEvent('7', { kind: 'recruiter_like' });
    expect(calls).toHaveLength(1);
  });

  it('an error status with a broken body is reported with what arrived', async () => {
    const calls: string[] = [];
    const error = await rejection<ApiError>(makeClient({ fetch: brokenFetch(422, calls) }).client.create(advert));
    expect(calls).toHaveLength(1);
    expect(error.kind).toBe('rejected');
    expect(error.details).toEqual(['the service said, cut off: {"views": 1']);
  });
});
