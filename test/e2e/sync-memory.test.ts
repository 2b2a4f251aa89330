/**
 * A sync keeps what its plan needs of each advert (reference, file, hash), not the adverts: the
 * built binary plans a folder of 6,000 realistic adverts (some 20 MB of YAML) with V8's heap held to
 * 32 MB, where loading every advert first ran out of memory (exit 134, no output).
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateAdverts } from '../../bench/generate.mjs';
import { isolatedEnv, jobs } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const COUNT = 6000;
const small = (extra: Record<string, string> = {}) =>
  isolatedEnv({ NODE_OPTIONS: '--max-old-space-size=32', JOBS_BASE_URL: 'http://127.0.0.1:9', JOBS_TOKEN: 't', ...extra });

describe('sync of a large folder in a small heap', () => {
  let dir: string;
  beforeAll(() => {
    dir = generateAdverts(join(tempDir('jobs-sync-memory-'), 'adverts'), COUNT, { realistic: true });
  });

  it('plans every advert (dry run), in file order', async () => {
    const r = await jobs(['sync', dir, '--dry-run'], { env: small(), timeoutMs: 60_000 });
    expect(r.stderr).toBe(`Plan: ${COUNT} to create, 0 to update, 0 to delete, 0 unchanged. (dry run: nothing was sent)\n`);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(COUNT);
    expect(lines[0]).toBe('+ REAL-0000000  advert-0000000.yaml');
    expect(lines[COUNT - 1]).toBe(`+ REAL-${String(COUNT - 1).padStart(7, '0')}  advert-${String(COUNT - 1).padStart(7, '0')}.yaml`);
  });

  it('still reports every error of the folder before anything is sent (exit 3)', async () => {
    const bad = join(dir, '..', 'with-errors');
    generateAdverts(bad, COUNT, { realistic: true });
    writeFileSync(join(bad, 'advert-0000100.yaml'), 'reference: REAL-0000007\ntitle: [unclosed\n');
    writeFileSync(join(bad, 'advert-0005000.yaml'), 'reference: REAL-0000042\ntitle: T\n');
    const r = await jobs(['sync', bad], { env: small(), timeoutMs: 60_000 });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/advert-0000100\.yaml:\d+:\d+: Flow sequence/);
    expect(r.stdout).toContain(
      `advert-0005000.yaml:1:12: reference "REAL-0000042" is already used by ${bad}/advert-0000042.yaml:3:12; each advert needs its own`,
    );
    expect(r.stdout).toContain('advert-0005000.yaml:1:1: recruiter: is missing (required)');
    expect(r.stderr).toContain(
      ': 14 errors in the advert files (1 of 5999 adverts invalid (1 duplicate reference), 1 file with YAML errors); nothing was sent\n',
    );
  });
});

/** A service on 127.0.0.1 that answers every request alike (by default: refuses it with an error tree); counts the POSTs. */
async function refusingService(
  status = 422,
  body = '{"errors":{"title":["too_long:80"]}}',
): Promise<{ url: string; posts: () => number; close: () => Promise<void> }> {
  let posts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') posts++;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, posts: () => posts, close: () => new Promise((done) => server.close(() => done())) };
}

describe('a first sync where every send fails, in a small heap', () => {
  // Each failed advert used to be kept whole (payload, source map) until the run ended: 6,000
  // realistic adverts ran a 32 MB heap out of memory (exit 134). A failure keeps what its report needs.
  it('reports each failed advert at its line, and the count', async () => {
    const dir = generateAdverts(join(tempDir('jobs-sync-failing-'), 'adverts'), COUNT, { realistic: true });
    const service = await refusingService();
    try {
      const r = await jobs(['sync', dir, '--concurrency', '8'], {
        env: small({ JOBS_BASE_URL: service.url, JOBS_TOKEN: 'sync-memory-token' }),
        timeoutMs: 120_000,
      });
      expect(r.stderr).toContain(`✖ sync incomplete: ${COUNT} failed, 0 unchanged\n`);
      expect(r.code).toBe(1);
      expect(service.posts()).toBe(COUNT);
      const failed = r.stdout.split('\n').filter((l) => l.startsWith('✖ failed '));
      expect(failed).toHaveLength(COUNT);
      const last = `advert-${String(COUNT - 1).padStart(7, '0')}.yaml`;
      expect(r.stdout).toContain(`✖ failed REAL-${String(COUNT - 1).padStart(7, '0')} ${last}: `);
      expect(r.stdout).toContain(`\n    ${dir}/${last}:4:8: title: is too long (maximum 80 characters) [too_long:80]\n`);
    } finally {
      await service.close();
    }
  }, 150_000);
});

describe('publish of many files in a small heap', () => {
  // publish loaded and kept every advert before sending the first: 6,000 realistic adverts ran a
  // 32 MB heap out of memory (exit 134). Each is now checked as it is read and read again when sent.
  it('sends every advert and says so, once each', async () => {
    const dir = generateAdverts(join(tempDir('jobs-publish-memory-'), 'adverts'), COUNT, { realistic: true });
    const service = await refusingService(201, '');
    try {
      const r = await jobs(['publish', dir, '--concurrency', '8'], {
        env: small({ JOBS_BASE_URL: service.url, JOBS_TOKEN: 'publish-memory-token' }),
        timeoutMs: 120_000,
      });
      expect(r.stderr.split('\n').slice(-2)).toEqual([`✔ ${COUNT} adverts: ${COUNT} created`, '']);
      expect(r.code).toBe(0);
      expect(service.posts()).toBe(COUNT);
      // One line per advert as its request ends (eight at once: not always in file order).
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(COUNT);
      const expected = Array.from(
        { length: COUNT },
        (_, i) => `✔ created REAL-${String(i).padStart(7, '0')} ${dir}/advert-${String(i).padStart(7, '0')}.yaml:3`,
      );
      expect(lines.sort()).toEqual(expected);
    } finally {
      await service.close();
    }
  }, 150_000);
});
