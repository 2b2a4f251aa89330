/**
 * `update --set` paths build plain data: a segment that names a prototype (`__proto__`,
 * `constructor`, `prototype`) is a usage error before anything is sent, and a field named like an
 * Object method (`hasOwnProperty`) is an ordinary key. nock records the bytes and headers of the PUT.
 */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runJobs, SERVICE, serviceEnv } from '../../commands/harness.js';
import { VERSION } from '../../../src/core/version.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  // The code before the fix set these on Object.prototype; keep one failing test from breaking the next.
  for (const key of ['userAgent', 'trace', 'x']) delete (Object.prototype as Record<string, unknown>)[key];
});

interface Seen {
  body: string;
  userAgent: string | undefined;
}

function recordPuts(): Seen[] {
  const seen: Seen[] = [];
  nock(SERVICE)
    .persist()
    .put(/.*/)
    .reply(function (_uri, body) {
      seen.push({ body: typeof body === 'string' ? body : JSON.stringify(body), userAgent: this.req.headers['user-agent'] as string | undefined });
      return [200];
    });
  return seen;
}

describe('update --set with a path that names a prototype', () => {
  for (const path of ['__proto__.userAgent=pwned/1.0', '__proto__.trace=1', 'constructor.prototype.x=1', 'recruiter.__proto__.x=1', 'prototype=1']) {
    it(`--set ${path}: exit 2, nothing sent, the prototype untouched`, async () => {
      const seen = recordPuts();
      const r = await runJobs(['update', 'A-1', '--set', 'title=New', '--set', path, '--allow-unknown-fields'], { env: serviceEnv });
      const segment = path
        .split('=')[0]!
        .split('.')
        .find((p) => ['__proto__', 'constructor', 'prototype'].includes(p))!;
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: `jobs: --set ${path}: "${segment}" cannot be a field name (it names a JavaScript object's prototype, and no advert field is called that)\n`,
      });
      expect(seen).toEqual([]);
      expect(({} as Record<string, unknown>).userAgent).toBeUndefined();
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });
  }

  it('the next PUT keeps its own User-Agent and body', async () => {
    const seen = recordPuts();
    await runJobs(['update', 'A-1', '--set', 'title=New', '--set', '__proto__.userAgent=pwned/1.0', '--allow-unknown-fields'], { env: serviceEnv });
    const r = await runJobs(['update', 'A-1', '--set', 'title=New'], { env: serviceEnv });
    expect(r.code).toBe(0);
    expect(seen).toEqual([{ body: '{"title":"New"}', userAgent: `jobs/${VERSION} node/${process.version}` }]);
  });
});

describe('update --set with a field named like an Object method', () => {
  it('hasOwnProperty=1 with --allow-unknown-fields is sent as a plain key', async () => {
    const seen = recordPuts();
    const r = await runJobs(['update', 'A-1', '--set', 'hasOwnProperty=1', '--set', 'toString.valueOf=x', '--allow-unknown-fields'], { env: serviceEnv });
    expect(r).toEqual({ code: 0, stdout: '✔ updated A-1\n', stderr: '' });
    expect(seen).toEqual([{ body: '{"hasOwnProperty":1,"toString":{"valueOf":"x"}}', userAgent: `jobs/${VERSION} node/${process.version}` }]);
  });

  it('hasOwnProperty=1 without it is an unknown field (exit 3), not an unexpected error', async () => {
    const seen = recordPuts();
    const r = await runJobs(['update', 'A-1', '--set', 'hasOwnProperty=1'], { env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).not.toContain('unexpected error');
    expect(r.stdout + r.stderr).toContain('hasOwnProperty');
    expect(seen).toEqual([]);
  });
});
