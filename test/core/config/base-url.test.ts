/** URL joining, segment encoding and the loopback check. */
import { describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../../src/core/errors/failures.js';
import { encodeSegment, isLoopbackHost, joinUrl, parseBaseUrl } from '../../../src/core/config/base-url.js';

describe('joinUrl', () => {
  it.each([
    ['https://h', '/jobs', 'https://h/jobs'],
    ['https://h/', '/jobs', 'https://h/jobs'],
    ['https://h/api/v1', '/jobs', 'https://h/api/v1/jobs'],
    ['https://h/api/v1/', '/jobs/X/stats', 'https://h/api/v1/jobs/X/stats'],
    ['http://127.0.0.1:4010/base/', '/jobs/A%2FB', 'http://127.0.0.1:4010/base/jobs/A%2FB'],
  ])('%s + %s -> %s', (base, path, url) => {
    expect(joinUrl(parseBaseUrl(base), path)).toBe(url);
  });

  it('refuses a path that URL normalisation would rewrite', () => {
    expect(() => joinUrl(parseBaseUrl('https://h/api'), '/jobs/%2E%2E/stats')).toThrow(UsageError);
  });

  it('follows a base URL changed in place', () => {
    const base = parseBaseUrl('https://h/a/');
    expect(joinUrl(base, '/jobs')).toBe('https://h/a/jobs');
    base.pathname = '/b';
    expect(joinUrl(base, '/jobs')).toBe('https://h/b/jobs');
  });

  // joinUrl skips the URL parser for a plain path: the href must be the parser's, or the refusal.
  it.each([
    ['http://[::1]:80/a/', "/job_applications/A-1_x.~!$&'()*+,;=:@/events"],
    ['https://H%C3%A9.example:443//api//', '/jobs/%zz/x'],
    ['https://h/api', '/jobs/.%2e/stats'],
    ['https://h/api', '/jobs/%2E/stats'],
    ['https://h/api', '/jobs/./stats'],
    ['https://h/api', '/jobs/..'],
    ['https://h/api', '/jobs/a b/"q"/{c}'],
    ['https://h/api', '/jobs/a\\b'],
    ['https://h/api', '/jobs/é/x'],
  ])('%s + %s: the href the URL parser gives, or a refusal', (base, path) => {
    const url = new URL(parseBaseUrl(base).href);
    const wanted = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
    url.pathname = wanted;
    if (url.pathname === wanted) expect(joinUrl(parseBaseUrl(base), path)).toBe(url.href);
    else expect(() => joinUrl(parseBaseUrl(base), path)).toThrow(UsageError);
  });
});

describe('encodeSegment', () => {
  it('encodes everything that could leave the segment or be read specially', () => {
    expect(encodeSegment('ACME/2024 #1')).toBe('ACME%2F2024%20%231');
    expect(encodeSegment("a!b'c(d)e*f")).toBe('a%21b%27c%28d%29e%2Af');
    expect(encodeSegment('a\\b')).toBe('a%5Cb');
    expect(encodeSegment('x\ty\n')).toBe('x%09y%0A');
    expect(encodeSegment('safe-_.~09AZ')).toBe('safe-_.~09AZ');
  });

  it('refuses empty, "." and ".."', () => {
    for (const v of ['', '.', '..']) expect(() => encodeSegment(v)).toThrow(UsageError);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.3', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['api.localhost', false],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
    ['127.0.0.1.nip.io', false],
    ['[::2]', false],
  ])('%s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it('applies to the host as the URL parser normalises it', () => {
    expect(isLoopbackHost(parseBaseUrl('http://127.1:80').hostname)).toBe(true);
    expect(isLoopbackHost(parseBaseUrl('http://0x7f.0.0.1').hostname)).toBe(true);
  });
});

describe('parseBaseUrl', () => {
  it('accepts http(s) and refuses the rest', () => {
    expect(parseBaseUrl(' https://h/api ').href).toBe('https://h/api');
    expect(() => parseBaseUrl('mailto:x@y')).toThrow(ConfigError);
    expect(() => parseBaseUrl('/relative')).toThrow(ConfigError);
  });
});
