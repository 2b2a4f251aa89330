import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inputLines } from '../../../src/core/events/input.js';
import { runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const MiB = 1024 * 1024;
const event = (id: string) => JSON.stringify({ application_id: id, kind: 'recruiter_view' });
/** Blank lines (skipped as such) that push what follows past the first piece read (1 MiB). */
const padding = `${' '.repeat(999)}\n`.repeat(Math.ceil((1.1 * MiB) / 1000));
const collect = async (it: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const line of it) out.push(line);
  return out;
};

describe('events files are read in pieces', () => {
  it('gives the same lines as the whole text: a line and a character split between pieces, CRLF kept', async () => {
    // 'é' is two bytes: the first piece ends inside it, and inside a line.
    const head = 'x'.repeat(MiB - 1);
    const text = `${head}é tail\r\n${event('a1')}\nlast without newline`;
    const dir = tempFolder({ 'e.ndjson': text });
    const streamed = await collect(inputLines({ display: 'e.ndjson', path: join(dir, 'e.ndjson'), format: 'ndjson' }));
    expect(streamed).toEqual([`${head}é tail\r`, event('a1'), 'last without newline']);
    expect(await collect(inputLines({ display: '<stdin>', format: 'ndjson', text }))).toEqual(streamed);
  });

  it('refuses a NUL byte or bad UTF-8 beyond the first piece, naming the file; nothing is sent', async () => {
    const dir = tempFolder({ 'nul.ndjson': `${event('a1')}\n${padding}\0\n`, 'latin1.ndjson': '' });
    writeFileSync(join(dir, 'latin1.ndjson'), Buffer.concat([Buffer.from(`${event('a1')}\n${padding}`), Buffer.from([0xe9, 0x0a])]));
    const scope = nock(SERVICE).post(/.*/).reply(200);
    const nul = await runJobs(['events', 'nul.ndjson'], { cwd: dir, env: serviceEnv });
    expect([nul.code, nul.stdout, nul.stderr]).toEqual([
      3,
      '',
      'jobs: nul.ndjson: this looks like a binary file (it holds a NUL byte), not events text; nothing was sent\n',
    ]);
    const latin1 = await runJobs(['events', 'latin1.ndjson'], { cwd: dir, env: serviceEnv });
    expect([latin1.code, latin1.stdout, latin1.stderr]).toEqual([
      3,
      '',
      'jobs: latin1.ndjson: the file is not UTF-8 text; save it as UTF-8 and try again; nothing was sent\n',
    ]);
    expect(scope.isDone()).toBe(false);
  });

  it('validates the whole file before sending: a bad line past the first piece stops everything (exit 3)', async () => {
    const dir = tempFolder({ 'e.ndjson': `${event('a1')}\n${padding}{"application_id": "a2", "kind": "recruiter_lik"}\n` });
    const scope = nock(SERVICE).post(/.*/).reply(200);
    const r = await runJobs(['events', 'e.ndjson'], { cwd: dir, env: serviceEnv });
    const line = padding.split('\n').length + 1;
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(new RegExp(`^✖ e\\.ndjson:${line}:\\d+: .*recruiter_like`));
    expect(r.stderr).toBe('jobs: 1 error in e.ndjson (on 1 line); nothing was sent\n');
    expect(scope.isDone()).toBe(false);
  });

  it('a CSV record with a line break in a quoted field reads as one record, in a streamed file', async () => {
    const dir = tempFolder({ 'e.csv': `application_id,kind,data\na1,recruiter_reject,"{""why"":\n""filled""}"\na2,recruiter_view,\n` });
    const scope = nock(SERVICE)
      .post('/job_applications/a1/events', { kind: 'recruiter_reject', data: { why: 'filled' } })
      .reply(200)
      .post('/job_applications/a2/events', { kind: 'recruiter_view' })
      .reply(200);
    const r = await runJobs(['events', 'e.csv', '--concurrency', '1'], { cwd: dir, env: serviceEnv });
    scope.done();
    expect(r).toEqual({
      code: 0,
      stdout: '✔ recruiter_reject a1 (e.csv:2)\n✔ recruiter_view a2 (e.csv:4)\n',
      stderr: '✔ e.csv: 2 events: 2 posted\n  journal: e.csv.journal\n',
    });
  });

  it('stops when the file changes during the run: what was posted is journaled, the rest is not sent', async () => {
    // More events than are read and journaled ahead of the posts (1,024), so a3 is read only after
    // a1's post, and past the pieces read by then.
    const between = Array.from({ length: 1100 }, (_, i) => event(`f${i}`)).join('\n');
    const text = (a3: string) => `${event('a1')}\n${padding}${between}\n${padding}${a3}\n`;
    const dir = tempFolder({ 'e.ndjson': text(event('a3')) });
    const path = join(dir, 'e.ndjson');
    const scope = nock(SERVICE)
      .post('/job_applications/a1/events')
      .reply(() => {
        // Someone edits the file while a1 is being posted: a3's line is now broken.
        writeFileSync(path, text('{"application_id": "a3"'));
        return [200, ''];
      })
      .post(/\/job_applications\/f\d+\/events$/)
      .times(1100)
      .reply(200);
    const r = await runJobs(['events', 'e.ndjson', '--concurrency', '1'], { cwd: dir, env: serviceEnv });
    scope.done();
    const broken = 2 * padding.split('\n').length + 1100;
    expect(r.code).toBe(3);
    expect(r.stdout).not.toContain('a3');
    expect(r.stderr).toBe(
      `✖ e.ndjson: 1102 events: 1101 posted, 1 not started\n  journal: e.ndjson.journal\njobs: e.ndjson changed while its events were being sent (line ${broken} is no longer valid); the run was stopped\n`,
    );
    const journal = readFileSync(join(dir, 'e.ndjson.journal'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { application_id: string; status: string });
    // Every event posted is journaled as begun and accepted; a3 is not in the journal.
    expect(journal.filter((l) => l.application_id === 'a3')).toEqual([]);
    expect(journal.filter((l) => l.status === 'accepted')).toHaveLength(1101);
    expect(journal.filter((l) => l.status === 'sending')).toHaveLength(1101);
    expect(journal).toHaveLength(2202);
  });
});
