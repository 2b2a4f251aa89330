/** The retry rules read on their own: header parsing, backoff ceilings, failure classification. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, classifyConnectFailure, parseRateLimitWait, parseRetryAfter, retryForStatus } from '../../../src/core/api/retry-policy.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['5', 5000],
    [' 12 ', 12000],
    ['1.5', 1500],
    [new Date(NOW + 30_000).toUTCString(), 30_000],
    [new Date(NOW - 30_000).toUTCString(), 0],
  ])('%j -> %i ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([null, '', 'soon', '-3', '12abc'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe('parseRateLimitWait', () => {
  const wait = (headers: Record<string, string>) => parseRateLimitWait(new Headers(headers), NOW);

  it('reads RateLimit-Reset, RateLimit (both drafts) and X-RateLimit-Reset', () => {
    expect(wait({ 'RateLimit-Reset': '8' })).toBe(8000);
    expect(wait({ RateLimit: 'limit=10, remaining=0, reset=3' })).toBe(3000);
    expect(wait({ RateLimit: '"burst";r=5;t=1, "daily";r=0;t=600' })).toBe(600_000);
    expect(wait({ RateLimit: '"a";r=2;t=4, "b";r=3;t=9' })).toBe(9000);
    expect(wait({ 'X-RateLimit-Reset': '2' })).toBe(2000);
  });

  it('takes a reset that looks like a Unix time as one', () => {
    expect(wait({ 'X-RateLimit-Reset': String(NOW / 1000 + 42) })).toBe(42_000);
    expect(wait({ 'RateLimit-Reset': String(NOW / 1000 - 42) })).toBe(0);
  });

  it('is undefined without such headers or with unreadable ones', () => {
    expect(wait({})).toBeUndefined();
    expect(wait({ 'RateLimit-Reset': 'later' })).toBeUndefined();
    expect(wait({ RateLimit: 'garbage' })).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('full jitter under a doubling ceiling from 500ms, capped at 30s', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, () => 0.5))).toEqual([250, 500, 1000, 2000]);
    expect(backoffDelay(20, () => 0.5)).toBe(15_000);
    expect(backoffDelay(3, () => 0)).toBe(0);
  });
});

describe('retryForStatus', () => {
  it('429 and 503 for every call; 500, 502 and 504 for repeatable calls; the rest never', () => {
    expect([429, 503].map(retryForStatus)).toEqual(['always', 'always']);
    expect([500, 502, 504].map(retryForStatus)).toEqual(['if-repeatable', 'if-repeatable', 'if-repeatable']);
    expect([400, 401, 404, 409, 422, 501, 505].map(retryForStatus)).toEqual(Array(7).fill('never'));
  });
});

describe('classifyConnectFailure', () => {
  it('reads the code from the error or its cause (undici wraps it as fetch failed)', () => {
    const wrapped = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    expect(classifyConnectFailure(wrapped)).toEqual({ reason: 'connection refused', retry: 'always', code: 'ECONNREFUSED' });
    expect(classifyConnectFailure({ code: 'ENOTFOUND' }).reason).toBe('host not found');
  });

  it('does not retry TLS errors or ports fetch refuses; unknown failures only for repeatable calls', () => {
    expect(classifyConnectFailure(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'CERT_HAS_EXPIRED' }) })).retry).toBe('never');
    expect(classifyConnectFailure(new TypeError('fetch failed', { cause: new Error('bad port') })).retry).toBe('never');
    expect(classifyConnectFailure(new TypeError('fetch failed', { cause: new Error('something odd') }))).toEqual({
      reason: 'something odd',
      retry: 'if-repeatable',
      code: undefined,
    });
  });
});
