import { describe, expect, it } from 'vitest';
import { advert, manualClock, start } from '../../support/sandbox-server.js';

describe('sandbox: quota', () => {
  it('answers 429 quota_exceeded past the limit, with Retry-After and RateLimit headers', async () => {
    const clock = manualClock();
    const s = await start({ now: clock.now, quota: { limit: 3, windowMs: 60_000 } });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await s.call('POST', '/jobs', { body: advert(`R${i}`) });
      expect(res.status).toBe(201);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-reset')).toBe('60');
      expect(res.headers.get('retry-after')).toBeNull();
      remaining.push(res.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);

    clock.advance(45_500);
    const limited = await s.call('GET', '/jobs/R0/stats');
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ errors: { base: ['quota_exceeded'] } });
    expect(limited.headers.get('retry-after')).toBe('15');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe('15');

    clock.advance(14_500);
    expect((await s.call('GET', '/jobs/R0/stats')).status).toBe(200);
  });

  it('says at least 1 second in Retry-After, even at the end of the window', async () => {
    const clock = manualClock();
    const s = await start({ now: clock.now, quota: { limit: 1, windowMs: 1000 } });
    await s.call('GET', '/jobs/X/stats');
    clock.advance(999);
    const res = await s.call('GET', '/jobs/X/stats');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('keeps a quota per client', async () => {
    const s = await start({ tokens: ['a', 'b'], quota: { limit: 1, windowMs: 60_000 } });
    expect((await s.call('GET', '/jobs/X/stats', { auth: 'a' })).status).toBe(404);
    expect((await s.call('GET', '/jobs/X/stats', { auth: 'a' })).status).toBe(429);
    expect((await s.call('GET', '/jobs/X/stats', { auth: 'b' })).status).toBe(404);
    // Unauthenticated requests and fixture routes do not use anyone's quota.
    expect((await s.call('GET', '/jobs/X/stats', { auth: null })).status).toBe(401);
    expect((await s.call('GET', '/_sandbox/requests', { auth: null })).status).toBe(200);
  });
});

describe('sandbox: fault drills and latency', () => {
  async function statuses(seed: number, count: number): Promise<number[]> {
    const s = await start({ failRate: 0.5, seed });
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push((await s.call('GET', '/jobs/X/stats')).status);
    return out;
  }

  it('fails a seeded share of requests with 500 internal or 503 unavailable, repeatably', async () => {
    const first = await statuses(7, 40);
    const second = await statuses(7, 40);
    expect(second).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(503);
    expect(first).toContain(404);
    expect(new Set(first)).toEqual(new Set([404, 500, 503]));
  });

  it('answers faults in the error format; 503 carries Retry-After', async () => {
    const s = await start({ failRate: 1, seed: 1 });
    const seen = new Map<number, { json: unknown; retryAfter: string | null }>();
    for (let i = 0; i < 20 && seen.size < 2; i++) {
      const res = await s.call('GET', '/jobs/X/stats');
      seen.set(res.status, { json: res.json, retryAfter: res.headers.get('retry-after') });
    }
    expect(seen.get(500)).toEqual({ json: { errors: { base: ['internal'] } }, retryAfter: null });
    expect(seen.get(503)).toEqual({ json: { errors: { base: ['unavailable'] } }, retryAfter: '1' });
    // A failed request changes nothing.
    const create = await s.call('POST', '/jobs', { body: advert('A') });
    expect([500, 503]).toContain(create.status);
    expect(s.sandbox.state().adverts).toEqual([]);
  });

  it('delays service responses by latencyMs but not the fixture routes', async () => {
    const s = await start({ latencyMs: 150 });
    let t = performance.now();
    await s.call('GET', '/jobs/X/stats');
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
    t = performance.now();
    await s.call('GET', '/_sandbox/requests', { auth: null });
    expect(performance.now() - t).toBeLessThan(140);
  });
});
