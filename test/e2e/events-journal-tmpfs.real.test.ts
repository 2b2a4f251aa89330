/**
 * `jobs events` with its journal on a real 64 KiB tmpfs that fills up mid-run (60 events, four at
 * a time): the run's own summary matches the journal, an event that was never sent is recorded
 * (or left out) as not sent, never as uncertain, and a rerun after space is freed posts every
 * event that was not sent and none twice.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { mountTmpfs, type Tmpfs } from '../support/tmpfs.js';
import { tempDir } from '../support/temp-dirs.js';

const posts = new Map<string, number>();
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = /\/job_applications\/([^/]+)\/events/.exec(req.url ?? '')?.[1] ?? '?';
    posts.set(id, (posts.get(id) ?? 0) + 1);
    // A little time in flight, so posts overlap the journal's flushes.
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 3);
  });
});
let baseUrl = '';
let disk: Tmpfs;
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  disk = mountTmpfs(64);
});
afterAll(async () => {
  disk.unmount();
  await new Promise<void>((done) => server.close(() => done()));
});

/** The latest status of each application id in the journal (one event per id here); a torn last line is ignored, as jobs does. */
function journalStatuses(path: string): Map<string, string> {
  const statuses = new Map<string, string>();
  const text = readFileSync(path, 'utf8');
  for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as { application_id: string; status: string };
    statuses.set(r.application_id, r.status);
  }
  return statuses;
}

describe('jobs events with the journal on a full tmpfs', () => {
  it('the summary matches the journal; never-sent events are not uncertain; a rerun posts each unsent event once', { timeout: 60_000 }, async () => {
    const env = isolatedEnv({ JOBS_BASE_URL: baseUrl, JOBS_TOKEN: 'tok-tmpfs-journal' });
    const dir = tempDir('jobs-events-tmpfs-');
    const ids = Array.from({ length: 60 }, (_, i) => `app_${i}`);
    writeFileSync(join(dir, 'e.ndjson'), ids.map((id) => `${JSON.stringify({ application_id: id, kind: 'recruiter_view' })}\n`).join(''));
    const journal = join(disk.dir, 'e.journal');
    // Three pages left: one for the lock, two for the journal (about twenty events' lines).
    disk.fill(3 * 4096);

    posts.clear();
    const first = await jobs(['events', 'e.ndjson', '--journal', journal, '--concurrency', '4'], { cwd: dir, env, timeoutMs: 30_000 });
    expect(first.code, first.stderr).toBe(1);
    expect(first.stderr).toContain('ENOSPC');
    expect(first.stderr).not.toMatch(/\n\s+at /);
    const sent = new Set(posts.keys());
    expect(sent.size).toBeGreaterThan(0);
    expect(sent.size).toBeLessThan(60);
    const statuses = journalStatuses(journal);

    // The summary's count of posts is what the service received.
    expect(first.stderr).toMatch(new RegExp(`60 events: ${sent.size} posted, `));
    // Every event the journal holds as accepted, or as begun (sending), was sent.
    for (const [id, status] of statuses)
      if (status === 'accepted' || status === 'sending' || status === 'uncertain') expect(sent, `${id} is ${status} in the journal`).toContain(id);
    // "Sent but outcome not in the journal" names exactly the sent events the journal does not hold as accepted.
    const unrecorded = [...first.stderr.matchAll(/recruiter_view (app_\d+) \(e\.ndjson:\d+\) was sent \(posted\) but its outcome is not in the journal/g)].map(
      (m) => m[1]!,
    );
    expect(unrecorded.sort()).toEqual([...sent].filter((id) => statuses.get(id) !== 'accepted').sort());

    disk.free();
    const second = await jobs(['events', 'e.ndjson', '--journal', journal, '--concurrency', '4'], { cwd: dir, env, timeoutMs: 30_000 });
    const held = [...second.stdout.matchAll(/recruiter_view (app_\d+) \(e\.ndjson:\d+\): not posted: uncertain/g)].map((m) => m[1]!);
    // Only events that were sent are held as uncertain; every other event is posted now, none twice.
    for (const id of held) expect(sent, `${id} held as uncertain but never sent`).toContain(id);
    expect([...posts.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect(ids.filter((id) => !posts.has(id))).toEqual([]);
    expect(second.code, second.stderr).toBe(held.length > 0 ? 1 : 0);
  });
});
