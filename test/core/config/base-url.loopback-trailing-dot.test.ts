/**
 * `localhost.` (trailing dot) is a fully qualified DNS name, not this machine's loopback name: plain
 * http with a token to it is refused like to any other host (exit 2, nothing sent).
 */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runJobs } from '../../commands/harness.js';
import { isLoopbackHost } from '../../../src/core/config/base-url.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('localhost. with a trailing dot', () => {
  it('is not loopback', () => {
    expect(isLoopbackHost('localhost.')).toBe(false);
    expect(isLoopbackHost('LOCALHOST.')).toBe(false);
    expect(isLoopbackHost('localhost')).toBe(true);
  });

  it('plain http with a token to it: exit 2, the dot named, nothing sent', async () => {
    const sent: string[] = [];
    nock('http://localhost.:8080')
      .persist()
      .delete(/.*/)
      .reply(function (uri) {
        sent.push(uri);
        return [200];
      });
    const r = await runJobs(['delete', 'A-1', '--yes'], { env: { JOBS_BASE_URL: 'http://localhost.:8080', JOBS_TOKEN: 'tok_secret_123' } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('refusing to send the token over plain http:// to localhost.:8080');
    expect(r.stderr).toContain('localhost. with its trailing dot is a DNS name, not this machine: write localhost');
    expect(r.stderr).not.toContain('tok_secret_123');
    expect(sent).toEqual([]);
  });
});
