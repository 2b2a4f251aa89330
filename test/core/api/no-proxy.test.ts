// Which proxy a service URL goes through, as curl and Go's net/http decide it from the environment.
import { describe, expect, it } from 'vitest';
import { noProxyMatch } from '../../../src/core/api/no-proxy.js';
import { chooseProxy, describeDecision, parseProxy } from '../../../src/core/api/proxy.js';

describe('NO_PROXY', () => {
  const matches = (list: string, host: string, port = 443) => noProxyMatch(list, host, port);

  it('a name matches itself and every name under it, with or without a leading dot or *.', () => {
    for (const entry of ['example.com', '.example.com', '*.example.com', 'EXAMPLE.com.']) {
      expect(matches(entry, 'example.com'), entry).toBe(entry);
      expect(matches(entry, 'api.example.com'), entry).toBe(entry);
      expect(matches(entry, 'a.b.Example.COM.'), entry).toBe(entry);
      expect(matches(entry, 'badexample.com'), entry).toBeUndefined();
      expect(matches(entry, 'example.com.evil.net'), entry).toBeUndefined();
    }
  });

  it('* matches everything; entries are split on commas and spaces; the first match is named', () => {
    expect(matches('*', 'anything.net')).toBe('*');
    expect(matches('intranet, .corp.local  jobs.example.com', 'jobs.example.com')).toBe('jobs.example.com');
    expect(matches('intranet,,corp.local', 'x.corp.local')).toBe('corp.local');
    expect(matches('', 'example.com')).toBeUndefined();
  });

  it('host:port matches that port only', () => {
    expect(matches('example.com:8443', 'example.com', 8443)).toBe('example.com:8443');
    expect(matches('example.com:8443', 'example.com', 443)).toBeUndefined();
    expect(matches('10.0.0.1:8080', '10.0.0.1', 8080)).toBe('10.0.0.1:8080');
    expect(matches('[2001:db8::1]:8080', '[2001:db8::1]', 8080)).toBe('[2001:db8::1]:8080');
    expect(matches('[2001:db8::1]:8080', '[2001:db8::1]', 80)).toBeUndefined();
  });

  it('IP addresses and CIDR ranges match addresses in the URL, not names', () => {
    expect(matches('10.1.2.3', '10.1.2.3')).toBe('10.1.2.3');
    expect(matches('10.1.2.3', '10.1.2.4')).toBeUndefined();
    expect(matches('10.0.0.0/8', '10.200.3.4')).toBe('10.0.0.0/8');
    expect(matches('10.0.0.0/8', '11.0.0.1')).toBeUndefined();
    expect(matches('192.168.4.0/22', '192.168.7.255')).toBe('192.168.4.0/22');
    expect(matches('192.168.4.0/22', '192.168.8.0')).toBeUndefined();
    expect(matches('2001:db8::/32', '[2001:db8:ffff::7]')).toBe('2001:db8::/32');
    expect(matches('2001:db8::/32', '[2001:db9::7]')).toBeUndefined();
    expect(matches('::ffff:10.0.0.0/104', '10.9.9.9')).toBeUndefined(); // a v6 range never matches a v4 address
    expect(matches('2001:db8::1', '[2001:DB8:0:0:0:0:0:1]')).toBe('2001:db8::1');
    // A range does not match a name, even one that looks like it could resolve into it.
    expect(matches('10.0.0.0/8', 'ten.example.com')).toBeUndefined();
    expect(matches('10.0.0.0/40', '10.0.0.1')).toBeUndefined(); // no such range: ignored
  });
});

describe('choosing the proxy', () => {
  const url = (text: string) => new URL(text);

  it('https:// uses https_proxy, then HTTPS_PROXY; http:// uses http_proxy, then HTTP_PROXY', () => {
    const env = { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128', HTTP_PROXY: 'http://plain:8080' };
    const https = chooseProxy(url('https://jobs.example.com'), env);
    expect(https).toMatchObject({ kind: 'proxy', proxy: { shown: 'http://lower:3128', variable: 'https_proxy' } });
    expect(chooseProxy(url('https://jobs.example.com'), { HTTPS_PROXY: 'http://upper:3128', https_proxy: '  ' })).toMatchObject({
      kind: 'proxy',
      proxy: { variable: 'HTTPS_PROXY' },
    });
    expect(chooseProxy(url('http://jobs.example.com'), env)).toMatchObject({ kind: 'proxy', proxy: { shown: 'http://plain:8080', variable: 'HTTP_PROXY' } });
    expect(chooseProxy(url('https://jobs.example.com'), { HTTP_PROXY: 'http://plain:8080' })).toEqual({
      kind: 'direct',
      why: 'unset',
      variables: ['https_proxy', 'HTTPS_PROXY'],
    });
  });

  it('loopback is never proxied, whatever NO_PROXY says', () => {
    const env = { HTTPS_PROXY: 'http://proxy:3128', HTTP_PROXY: 'http://proxy:3128' };
    for (const target of ['https://127.0.0.1:4010', 'http://localhost:4010', 'https://[::1]:4010', 'http://127.8.9.10/api']) {
      expect(chooseProxy(url(target), env), target).toEqual({ kind: 'direct', why: 'loopback' });
    }
  });

  it('NO_PROXY (either case) sends the service direct and says which entry matched', () => {
    const env = { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'intranet,.example.com' };
    const decision = chooseProxy(url('https://jobs.example.com'), env);
    expect(decision).toEqual({ kind: 'direct', why: 'no-proxy', variable: 'NO_PROXY', entry: '.example.com', proxyVariable: 'HTTPS_PROXY' });
    expect(describeDecision(decision)).toBe('none: NO_PROXY entry ".example.com" matches the service (HTTPS_PROXY is set)');
    expect(chooseProxy(url('https://jobs.example.com:8443'), { ...env, no_proxy: 'example.com:443' })).toMatchObject({ kind: 'proxy' });
    expect(chooseProxy(url('https://jobs.example.com'), { ...env, no_proxy: 'example.com:443' })).toMatchObject({ kind: 'direct', variable: 'no_proxy' });
  });

  it('credentials in the proxy URL become Proxy-Authorization and are never shown', () => {
    const proxy = parseProxy('http://alice:p%40ss%3Aword@proxy.corp:3128', 'HTTPS_PROXY');
    expect(proxy.authorization).toBe(`Basic ${Buffer.from('alice:p@ss:word').toString('base64')}`);
    expect(proxy.shown).toBe('http://***@proxy.corp:3128');
    expect(proxy.url.href).toBe('http://proxy.corp:3128/');
    expect(describeDecision({ kind: 'proxy', proxy })).toBe('http://***@proxy.corp:3128 (from HTTPS_PROXY)');
    expect(proxy.secrets).toContain('p%40ss%3Aword');
    expect(proxy.secrets).toContain('p@ss:word');
  });

  it('a proxy without a scheme is http://; other schemes and broken URLs are configuration errors that show no password', () => {
    expect(parseProxy('proxy.corp:3128', 'https_proxy')).toMatchObject({ shown: 'http://proxy.corp:3128', authorization: undefined });
    expect(() => parseProxy('socks5://bob:hunter22@proxy:1080', 'HTTPS_PROXY')).toThrow(
      'HTTPS_PROXY names a socks5:// proxy (socks5://***@proxy:1080); jobs speaks to http:// proxies only',
    );
    expect(() => parseProxy('http://bob:hunter22@[bad', 'HTTPS_PROXY')).toThrow(/^HTTPS_PROXY is not a proxy URL$/);
  });
});
