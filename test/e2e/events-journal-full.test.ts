/**
 * `jobs events` when the journal stops growing after an event's "sending" line is on disk but
 * before its outcome is: the run stops, says the event was posted with no outcome recorded, and a
 * rerun holds it as uncertain instead of posting it again (what the message promises).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, jobs } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

let posts: string[] = [];
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    posts.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/**
 * The binary with files limited to `kib` KiB (`ulimit -f`): a write past it fails with EFBIG. A POSIX
 * sh counts `ulimit -f` in 512-byte blocks (bash alone, outside POSIX mode, in KiB).
 */
function jobsWithFileLimit(
  kib: number,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('/bin/sh', ['-c', `ulimit -f ${kib * 2} && exec "$0" "$@"`, process.execPath, BIN, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`jobs ${args.join(' ')} did not finish in time\n${stderr}`));
    }, 15_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}

describe('jobs events with a journal that cannot take an outcome', () => {
  it('stops, names the posted event as uncertain, and a rerun does not post it again', async () => {
    const env = isolatedEnv({ JOBS_BASE_URL: baseUrl, JOBS_TOKEN: 'tok-journal-full' });
    const event = '{"application_id":"a1","kind":"recruiter_view"}\n';
    // A first run elsewhere shows how long this event's "sending" line is on this service.
    const probe = tempDir('jobs-journal-probe-');
    writeFileSync(join(probe, 'e.ndjson'), event);
    expect((await jobs(['events', 'e.ndjson'], { cwd: probe, env })).code).toBe(0);
    const sending = readFileSync(join(probe, 'e.ndjson.journal'), 'utf8').split('\n')[0]!;
    expect(JSON.parse(sending)).toMatchObject({ application_id: 'a1', status: 'sending' });

    // Filler: an earlier run's line for another event, padded so that the journal reaches 1 KiB
    // exactly with a1's "sending" line: the outcome line after it cannot be written.
    const dir = tempDir('jobs-journal-full-');
    writeFileSync(join(dir, 'e.ndjson'), event);
    const room = 1024 - (sending.length + 1);
    const base = { ...(JSON.parse(sending) as Record<string, unknown>), key: `${'0'.repeat(32)}:1`, status: 'accepted', application_id: '' };
    const pad = room - (JSON.stringify(base).length + 1);
    expect(pad).toBeGreaterThan(0);
    writeFileSync(join(dir, 'e.ndjson.journal'), `${JSON.stringify({ ...base, application_id: 'x'.repeat(pad) })}\n`);

    posts = [];
    const r = await jobsWithFileLimit(1, ['events', 'e.ndjson'], { cwd: dir, env });
    expect(posts).toEqual(['/job_applications/a1/events']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot write the journal e.ndjson.journal (the file is larger than this process may write: EFBIG); the run was stopped');
    expect(r.stderr).toContain(
      'recruiter_view a1 (e.ndjson:1) was sent (posted) but its outcome is not in the journal: a rerun holds it as uncertain and does not post it again',
    );
    expect(r.stderr).not.toContain('would post it again');
    expect(r.stderr).not.toMatch(/\n\s+at /);

    posts = [];
    const rerun = await jobs(['events', 'e.ndjson'], { cwd: dir, env });
    expect(posts).toEqual([]);
    expect(rerun.stderr).toContain('uncertain');
  });
});
