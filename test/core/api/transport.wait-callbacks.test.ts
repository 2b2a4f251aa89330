/**
 * What the client tells its caller while it works, so the CLI can show it (the core draws nothing):
 * each attempt on the wire (onRequest) and each wait before a retry (onWait), each with its end.
 */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import type { RetryWait } from '../../../src/core/api/transport.js';
import { BASE, makeClient, useNock } from '../../support/http-client.js';

useNock();

const stats = { views: 1, likes: 0, applications: 0, applications_unviewed: 0 };

/** A client whose callbacks log what they hear, in order. */
function observed(overrides: Parameters<typeof makeClient>[0] = {}) {
  const log: string[] = [];
  const harness = makeClient({
    onRequest: (request) => {
      log.push(`request ${request}`);
      return () => log.push('request ends');
    },
    onWait: (w: RetryWait) => {
      log.push(`wait ${w.request}: ${w.reason}, ${w.ms}ms, attempt ${w.attempt}/${w.attempts}${w.askedByService ? ', asked by the service' : ''}`);
      return () => log.push('wait ends');
    },
    ...overrides,
  });
  return { ...harness, log };
}

describe('onRequest and onWait', () => {
  it('hear every attempt and every wait, each ended before the next begins', async () => {
    const scope = nock(BASE).get('/jobs/A/stats').reply(429, '', { 'Retry-After': '3' }).get('/jobs/A/stats').reply(503).get('/jobs/A/stats').reply(200, stats);
    const { client, log } = observed();
    await client.stats('A');
    scope.done();
    expect(log).toEqual([
      'request GET /jobs/A/stats',
      'request ends',
      'wait GET /jobs/A/stats: rate limit (429), 3000ms, attempt 2/6, asked by the service',
      'wait ends',
      'request GET /jobs/A/stats',
      'request ends',
      'wait GET /jobs/A/stats: service unavailable (503), 500ms, attempt 3/6',
      'wait ends',
      'request GET /jobs/A/stats',
      'request ends',
    ]);
  });

  it('name a failure before any response by its reason and the address', async () => {
    const scope = nock(BASE)
      .put('/jobs/A')
      .replyWithError(Object.assign(new Error('ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      .put('/jobs/A')
      .reply(200);
    const { client, log } = observed();
    await client.update('A', { title: 'x' });
    scope.done();
    expect(log).toContain('wait PUT /jobs/A: connection refused (jobs.test), 250ms, attempt 2/6');
  });

  it('name a timeout by the time allowed', async () => {
    const scope = nock(BASE).delete('/jobs/A').delay(300).reply(200).delete('/jobs/A').reply(200);
    const { client, log } = observed({ timeoutMs: 50 });
    await client.delete('A');
    scope.done();
    expect(log).toContain('wait DELETE /jobs/A: no response within 50ms, 250ms, attempt 2/6');
  });

  it('a request held at the gate by an earlier 429 is not announced again', async () => {
    // The clock stands still, so the gate the 429 closed is still closed for the next call.
    const scope = nock(BASE).post('/jobs').reply(429, '', { 'Retry-After': '3' }).post('/jobs').reply(201).get('/jobs/A/stats').reply(200, stats);
    const { client, log, waits } = observed();
    await client.create({ reference: 'A' });
    await client.stats('A');
    scope.done();
    expect(waits).toEqual([3000, 3000]);
    expect(log.filter((l) => /^wait [A-Z]/.test(l))).toEqual(['wait POST /jobs: rate limit (429), 3000ms, attempt 2/6, asked by the service']);
  });

  it('end the wait when the call is cancelled during it', async () => {
    const scope = nock(BASE).get('/jobs/A/stats').reply(503);
    const controller = new AbortController();
    const { client, log } = observed({
      sleep: async () => {
        controller.abort();
        throw new Error('aborted');
      },
    });
    await expect(client.stats('A', { signal: controller.signal })).rejects.toThrow('cancelled');
    scope.done();
    expect(log.at(-1)).toBe('wait ends');
  });
});
