import * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';

// Every fsync the run makes, sync or async, is counted (the journal, its folder, the lock).
const fsyncs = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const fsync = ((fd: number, callback: fs.NoParamCallback) => {
    fsyncs.count++;
    real.fsync(fd, callback);
  }) as typeof real.fsync;
  const fsyncSync: typeof real.fsyncSync = (fd) => {
    fsyncs.count++;
    real.fsyncSync(fd);
  };
  return { ...real, default: { ...real, fsync, fsyncSync }, fsync, fsyncSync };
});

beforeAll(() => nock.disableNetConnect());
beforeEach(() => (fsyncs.count = 0));
afterEach(() => nock.cleanAll());

const EVENTS = 64;
const CONCURRENCY = 8;
const ids = Array.from({ length: EVENTS }, (_, i) => `a${i + 1}`);
const ndjson = ids.map((id) => JSON.stringify({ application_id: id, kind: 'recruiter_view' })).join('\n');

it('records each event as sending, on disk, before its post arrives; flushes in groups, not twice per event', async () => {
  const dir = tempFolder({ 'e.ndjson': `${ndjson}\n` });
  const journalPath = join(dir, 'e.ndjson.journal');
  const unjournaled: string[] = [];
  const scope = nock(SERVICE)
    .post(/\/job_applications\/a\d+\/events$/)
    .times(EVENTS)
    .delay(5)
    .reply((uri) => {
      // The server looks at the journal as the request arrives: its `sending` line must be there.
      const id = /job_applications\/(a\d+)\//.exec(uri)![1];
      // Only whole lines: other lines may be half written at this moment (a post waits for its own line's flush).
      const text = readFileSync(journalPath, 'utf8');
      const sending = text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { application_id: string; status: string })
        .some((l) => l.application_id === id && l.status === 'sending');
      if (!sending) unjournaled.push(id!);
      return [200, ''];
    });
  const r = await runJobs(['--retries', '0', 'events', 'e.ndjson', '--concurrency', String(CONCURRENCY)], { cwd: dir, env: serviceEnv });
  scope.done();
  expect(r.stderr).toBe(`✔ e.ndjson: ${EVENTS} events: ${EVENTS} posted\n  journal: e.ndjson.journal\n`);
  expect(r.code).toBe(0);
  expect(unjournaled).toEqual([]);
  const lines = readFileSync(journalPath, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { application_id: string; status: string });
  expect(
    lines
      .filter((l) => l.status === 'sending')
      .map((l) => l.application_id)
      .sort(),
  ).toEqual([...ids].sort());
  expect(
    lines
      .filter((l) => l.status === 'accepted')
      .map((l) => l.application_id)
      .sort(),
  ).toEqual([...ids].sort());
  // Two flushes per event would be 128. A flush per group of posts in flight makes about 3 per
  // round of 8 posts (their `sending` lines, then the outcomes and next `sending` lines, which
  // may arrive over two turns of the event loop); the bound leaves room for a slow machine.
  expect(fsyncs.count).toBeGreaterThan(0);
  expect(fsyncs.count).toBeLessThanOrEqual(EVENTS / 2);
});

it('journals the next event while the current one is in flight, so a post need not wait for the disk', async () => {
  const few = ['b1', 'b2', 'b3', 'b4'];
  const dir = tempFolder({ 'e.ndjson': `${few.map((id) => JSON.stringify({ application_id: id, kind: 'recruiter_view' })).join('\n')}\n` });
  const journalPath = join(dir, 'e.ndjson.journal');
  // The line written ahead of a post says `planned` (rewritten to `sending` just before the post).
  const sendingOnDisk = (id: string) => readFileSync(journalPath, 'utf8').includes(`"application_id":"${id}","kind":"recruiter_view","status":"planned"`);
  // For each post but the last, whether the next event's `planned` line reached the disk while
  // this post was still unanswered (looked at for up to 1 s, every 10 ms).
  const overlapped: boolean[] = [];
  const scope = nock(SERVICE)
    .post(/\/job_applications\/b\d\/events$/)
    .times(few.length)
    .reply((uri, _body, callback) => {
      const next = few[few.indexOf(/job_applications\/(b\d)\//.exec(uri)![1]!) + 1];
      if (next === undefined) return callback(null, [200, '']);
      let looks = 0;
      const look = () => {
        if (sendingOnDisk(next) || ++looks >= 100) {
          overlapped.push(sendingOnDisk(next));
          callback(null, [200, '']);
        } else setTimeout(look, 10);
      };
      look();
    });
  const r = await runJobs(['--retries', '0', 'events', 'e.ndjson', '--concurrency', '1'], { cwd: dir, env: serviceEnv });
  scope.done();
  expect(r.code).toBe(0);
  expect(overlapped).toEqual([true, true, true]);
  // Nothing is journaled ahead of the end: every `sending` line has its outcome.
  const lines = readFileSync(journalPath, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { application_id: string; status: string });
  expect(lines.map((l) => `${l.application_id} ${l.status}`).sort()).toEqual(few.flatMap((id) => [`${id} accepted`, `${id} sending`]));
});
