/**
 * A running sandbox answers only its own Host names and refuses what a browser marks as
 * cross-origin, over real loopback HTTP: a web page cannot reset or read it by DNS rebinding (a
 * foreign Host) or a simple cross-origin POST (a foreign Origin).
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { advert, start, type Running } from '../../support/sandbox-server.js';

interface Answer {
  status: number;
  body: string;
}

/** One request with the headers exactly as given (fetch would not let a test forge Host). */
function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, timeout: 5000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

async function withOneAdvert(): Promise<Running> {
  const box = await start();
  expect((await box.call('POST', '/jobs', { body: advert('KEEP-1') })).status).toBe(201);
  return box;
}

const adverts = async (box: Running) => Object.values((await box.call('GET', '/_sandbox/adverts')).json as Record<string, unknown[]>).flat().length;

describe('Host', () => {
  it('a name that is not the sandbox (DNS rebinding): 403, nothing reset or read', async () => {
    const box = await withOneAdvert();
    const port = new URL(box.baseUrl).port;
    for (const host of [`rebind.attacker.example:${port}`, 'rebind.attacker.example', `127.0.0.1:${Number(port) + 1}`, `localhost.:${port}`]) {
      const reset = await send(box.baseUrl, 'POST', '/_sandbox/reset', { Host: host });
      expect(reset).toEqual({ status: 403, body: '{"errors":{"base":["host_not_allowed"]}}' });
      const read = await send(box.baseUrl, 'GET', '/_sandbox/adverts', { Host: host });
      expect(read.status).toBe(403);
      expect(read.body).not.toContain('KEEP-1');
      const stats = await send(box.baseUrl, 'GET', '/jobs/KEEP-1/stats', { Host: host, Authorization: 'Bearer sandbox' });
      expect(stats.status).toBe(403);
    }
    expect(await adverts(box)).toBe(1);
  });

  it('its own names with its port are answered', async () => {
    const box = await withOneAdvert();
    const port = new URL(box.baseUrl).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const read = await send(box.baseUrl, 'GET', '/_sandbox/adverts', { Host: host });
      expect(read.status, host).toBe(200);
      expect(read.body).toContain('KEEP-1');
    }
  });
});

describe('Origin and Sec-Fetch-Site', () => {
  it('a cross-origin POST to /_sandbox/reset (a web page): 403, the adverts kept', async () => {
    const box = await withOneAdvert();
    const host = new URL(box.baseUrl).host;
    const forged: Record<string, string>[] = [
      { Origin: 'https://attacker.example' },
      { Origin: 'null' },
      { Origin: `http://localhost:${Number(new URL(box.baseUrl).port) + 1}` },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
    ];
    for (const headers of forged) {
      const reset = await send(box.baseUrl, 'POST', '/_sandbox/reset', { Host: host, 'Content-Type': 'text/plain', ...headers }, 'x');
      expect(reset, JSON.stringify(headers)).toEqual({ status: 403, body: '{"errors":{"base":["cross_origin"]}}' });
    }
    expect(await adverts(box)).toBe(1);
  });

  it('the same origin, and requests without Origin (jobs, curl), go through', async () => {
    const box = await withOneAdvert();
    const host = new URL(box.baseUrl).host;
    expect((await send(box.baseUrl, 'GET', '/_sandbox/adverts', { Host: host, Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
    expect((await send(box.baseUrl, 'GET', '/_sandbox/adverts', { Host: host, 'Sec-Fetch-Site': 'none' })).status).toBe(200);
    expect((await send(box.baseUrl, 'POST', '/_sandbox/reset', { Host: host })).status).toBe(200);
    expect(await adverts(box)).toBe(0);
  });
});

describe('the Host rule for each way of listening', () => {
  it('bound to every interface: any IP address with the port, names only its own', async () => {
    const { hostRule, refusedBecause } = await import('../../../src/core/sandbox/origin-guard.js');
    const rule = hostRule('0.0.0.0', '0.0.0.0', 4010);
    const verdict = (host: string) => refusedBecause({ host }, rule);
    expect(verdict('192.168.1.5:4010')).toBeUndefined();
    expect(verdict('[fe80::1]:4010')).toBeUndefined();
    expect(verdict('localhost:4010')).toBeUndefined();
    expect(verdict('192.168.1.5:4011')).toBe('host_not_allowed');
    expect(verdict('rebind.attacker.example:4010')).toBe('host_not_allowed');
    expect(verdict('')).toBe('host_not_allowed');
  });

  it('started with a name: that name too', async () => {
    const { hostRule, refusedBecause } = await import('../../../src/core/sandbox/origin-guard.js');
    const rule = hostRule('devbox.lan', '10.0.0.7', 4010);
    expect(refusedBecause({ host: 'devbox.lan:4010' }, rule)).toBeUndefined();
    expect(refusedBecause({ host: '10.0.0.7:4010' }, rule)).toBeUndefined();
    expect(refusedBecause({ host: '10.0.0.8:4010' }, rule)).toBe('host_not_allowed');
  });
});
