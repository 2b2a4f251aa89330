import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../../../src/core/events/key.js';
import { runJobs, SERVICE, serviceEnv, tempFolder } from '../../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const path = (id: string) => `/job_applications/${id}/events`;
const rawJournal = (dir: string, name = 'e.csv.journal') =>
  readFileSync(join(dir, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** The outcome lines (accepted, uncertain), without the service they name: what most tests check. */
const journalOf = (dir: string, name = 'e.csv.journal') =>
  rawJournal(dir, name)
    .filter((l) => l.status === 'accepted' || l.status === 'uncertain')
    .map(({ service: _service, ...rest }) => rest);
const keyOf = (application_id: string, kind: string, occurrence = 1) => `${contentHash({ application_id, kind })}:${occurrence}`;
const run = (dir: string, ...args: string[]) => runJobs(['--retries', '0', 'events', ...args], { cwd: dir, env: serviceEnv });

describe('jobs events: posting and the journal', () => {
  it('posts each entry with its exact body, reports it, and journals it', async () => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind,data\r\napp_1,recruiter_like,\r\n007,recruiter_reject,"{""reason"": ""filled""}"\r\n' });
    const scope = nock(SERVICE)
      .matchHeader('authorization', 'Bearer tok_secret_123')
      .post(path('app_1'), (body) => JSON.stringify(body) === '{"kind":"recruiter_like"}')
      .reply(200)
      .post(path('007'), { kind: 'recruiter_reject', data: { reason: 'filled' } })
      .reply(200);
    const r = await run(dir, 'e.csv', '--concurrency', '1');
    scope.done();
    expect(r).toEqual({
      code: 0,
      stdout: '✔ recruiter_like app_1 (e.csv:2)\n✔ recruiter_reject 007 (e.csv:3)\n',
      stderr: '✔ e.csv: 2 events: 2 posted\n  journal: e.csv.journal\n',
    });
    expect(journalOf(dir)).toEqual([
      {
        v: 1,
        key: keyOf('app_1', 'recruiter_like'),
        application_id: 'app_1',
        kind: 'recruiter_like',
        status: 'accepted',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
      { v: 1, key: expect.stringMatching(/^[0-9a-f]{32}:1$/), application_id: '007', kind: 'recruiter_reject', status: 'accepted', at: expect.any(String) },
    ]);
  });

  it('on a rerun posts only what is left: failed entries again, accepted ones skipped', async () => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind\na1,recruiter_view\na2,recruiter_like\na3,recruiter_reject\n' });
    const first = nock(SERVICE)
      .post(path('a1'))
      .reply(200)
      .post(path('a2'))
      .reply(422, { errors: { base: ['invalid'] } })
      .post(path('a3'))
      .reply(200);
    const r1 = await run(dir, 'e.csv', '--concurrency', '1');
    first.done();
    expect(r1.code).toBe(1);
    expect(r1.stdout).toBe(
      [
        '✔ recruiter_view a1 (e.csv:2)',
        '✖ recruiter_like a2 (e.csv:3): POST /job_applications/a2/events: the service rejected the request (422)',
        '    e.csv:3:1: (event): is invalid [invalid]',
        '✔ recruiter_reject a3 (e.csv:4)',
        '',
      ].join('\n'),
    );
    expect(r1.stderr).toBe(
      '✖ e.csv: 3 events: 2 posted, 1 failed\n  journal: e.csv.journal\n  1 event was rejected for what it holds (see above): correct that line, then rerun; accepted events are skipped\n',
    );
    expect(journalOf(dir).map((l) => l.application_id)).toEqual(['a1', 'a3']);

    const second = nock(SERVICE).post(path('a2'), { kind: 'recruiter_like' }).reply(200);
    const r2 = await run(dir, 'e.csv');
    second.done();
    expect(r2).toEqual({
      code: 0,
      stdout: '✔ recruiter_like a2 (e.csv:3)\n',
      stderr: '✔ e.csv: 3 events: 1 posted, 2 skipped as already done\n  journal: e.csv.journal\n',
    });

    const dry = await run(dir, 'e.csv', '--dry-run');
    expect(dry.stdout.split('\n')[1]).toBe('- recruiter_like a2 (e.csv:3): skipped: accepted in an earlier run');
    expect(dry.stderr).toBe('dry run: e.csv: 3 events: 0 would be posted, 3 skipped as already done; nothing was sent\n');
  });

  it('treats identical entries as separate events, keyed by occurrence', async () => {
    const line = '{"application_id":"a1","kind":"recruiter_like"}\n';
    const dir = tempFolder({ 'e.ndjson': line + line });
    const first = nock(SERVICE).post(path('a1')).twice().reply(200);
    expect((await run(dir, 'e.ndjson')).code).toBe(0);
    first.done();
    expect(journalOf(dir, 'e.ndjson.journal').map((l) => l.key)).toEqual([keyOf('a1', 'recruiter_like', 1), keyOf('a1', 'recruiter_like', 2)]);

    // A third identical like and a new line above them: only the new ones are posted.
    writeFileSync(join(dir, 'e.ndjson'), `{"application_id":"a0","kind":"recruiter_view"}\n${line}${line}${line}`);
    const second = nock(SERVICE).post(path('a0')).reply(200).post(path('a1')).once().reply(200);
    const r = await run(dir, 'e.ndjson', '--concurrency', '1');
    second.done();
    expect(r.stdout).toBe('✔ recruiter_view a0 (e.ndjson:1)\n✔ recruiter_like a1 (e.ndjson:4)\n');
    expect(
      journalOf(dir, 'e.ndjson.journal')
        .map((l) => l.key)
        .slice(2),
    ).toEqual([keyOf('a0', 'recruiter_view'), keyOf('a1', 'recruiter_like', 3)]);
  });

  it('does not post an uncertain entry again unless --retry-uncertain is given', async () => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind\na1,recruiter_like\n' });
    nock(SERVICE).post(path('a1')).reply(500, 'oops');
    const r1 = await run(dir, 'e.csv');
    expect(r1.code).toBe(7);
    expect(r1.stdout).toBe(
      [
        '⚠ recruiter_like a1 (e.csv:2): uncertain: POST /job_applications/a1/events: service error (500)',
        '    the service said: oops',
        '    not retried: the event may have been recorded already, and a repeat would notify the applicant twice',
        '',
      ].join('\n'),
    );
    expect(r1.stderr).toBe(
      '✖ e.csv: 1 event: 0 posted, 1 uncertain\n  journal: e.csv.journal\n  uncertain events may have been recorded by the service; check, then rerun with --retry-uncertain to post them again\n',
    );
    expect(journalOf(dir).map((l) => l.status)).toEqual(['uncertain']);

    const untouched = nock(SERVICE).post(path('a1')).reply(200);
    const r2 = await run(dir, 'e.csv');
    expect(untouched.isDone()).toBe(false);
    expect(r2.code).toBe(1);
    expect(r2.stdout).toBe('⚠ recruiter_like a1 (e.csv:2): not posted: uncertain in an earlier run (--retry-uncertain posts it again)\n');
    expect(r2.stderr).toMatch(/^✖ e\.csv: 1 event: 0 posted, 1 held as uncertain from an earlier run\n/);

    const r3 = await run(dir, 'e.csv', '--retry-uncertain');
    untouched.done();
    expect(r3.code).toBe(0);
    expect(r3.stdout).toBe('✔ recruiter_like a1 (e.csv:2)\n');
    expect(journalOf(dir).map((l) => l.status)).toEqual(['uncertain', 'accepted']);
    expect((await run(dir, 'e.csv')).stderr).toMatch(/^✔ e\.csv: 1 event: 0 posted, 1 skipped as already done\n/);
  });

  it.each([
    ['a timeout', 'uncertain', 7, (s: nock.Interceptor) => s.delay(1000).reply(200)],
    ['a broken connection', 'uncertain', 7, (s: nock.Interceptor) => s.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))],
    ['a 500', 'uncertain', 7, (s: nock.Interceptor) => s.reply(500)],
    ['a 503 (not passed on)', 'failed', 7, (s: nock.Interceptor) => s.reply(503)],
    [
      'a refused connection',
      'failed',
      7,
      (s: nock.Interceptor) => s.replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ],
    ['a 429', 'failed', 6, (s: nock.Interceptor) => s.reply(429, { errors: { base: ['quota_exceeded'] } })],
    ['a 404', 'failed', 5, (s: nock.Interceptor) => s.reply(404, { errors: { base: ['not_found'] } })],
  ])('after %s the entry is %s (exit %i)', async (_name, status, code, respond) => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind\na1,recruiter_like\n' });
    const scope = respond(nock(SERVICE).post(path('a1')));
    const r = await runJobs(['--retries', '0', '--timeout', '200ms', 'events', 'e.csv', '--json'], { cwd: dir, env: serviceEnv });
    scope.done();
    expect(r.code).toBe(code);
    const [result] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(result!.status).toBe(status);
    expect(journalOf(dir).map((l) => l.status)).toEqual(status === 'uncertain' ? ['uncertain'] : []);
  });

  it('ignores a torn last journal line (a crash while writing it) and repairs the journal', async () => {
    const done = { v: 1, key: keyOf('a1', 'recruiter_view'), application_id: 'a1', kind: 'recruiter_view', status: 'accepted', at: '2025-01-01T00:00:00.000Z' };
    const dir = tempFolder({
      'e.csv': 'application_id,kind\na1,recruiter_view\na2,recruiter_view\n',
      'e.csv.journal': `${JSON.stringify(done)}\n{"v":1,"key":"${keyOf('a2', 'recruiter_view')}","applicat`,
    });
    const scope = nock(SERVICE).post(path('a2')).reply(200);
    const r = await run(dir, 'e.csv');
    scope.done();
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✔ recruiter_view a2 (e.csv:3)\n');
    expect(journalOf(dir)).toEqual([done, expect.objectContaining({ key: keyOf('a2', 'recruiter_view'), status: 'accepted' })]);
  });

  it('writes the journal where --journal says', async () => {
    const dir = tempFolder({ 'e.yaml': '- application_id: a1\n  kind: recruiter_view\n' });
    nock(SERVICE).post(path('a1')).reply(200);
    // A journal that cannot be written (its folder would be inside a file): refused, nothing sent.
    const refused = await run(dir, 'e.yaml', '--journal', 'e.yaml/run.journal');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('nothing was sent');
    expect(existsSync(join(dir, 'e.yaml.journal'))).toBe(false);
    const r = await run(dir, 'e.yaml', '--journal', 'run.journal');
    expect(r.code).toBe(0);
    expect(journalOf(dir, 'run.journal')).toHaveLength(1);
  });
});

describe('jobs events: validation before sending', () => {
  it('reports every bad entry with its line and sends nothing (exit 3)', async () => {
    const dir = tempFolder({
      'e.ndjson': [
        '{"application_id":"a1","kind":"recruiter_like"}',
        '{"application_id":"a2","kind":"recruiter_lkie","note":"x"}',
        '',
        '{"application_id":"","kind":"recruiter_view","data":[1]}',
        '{"application_id":"a4"}',
      ].join('\n'),
    });
    const scope = nock(SERVICE).post(/.*/).reply(200);
    const r = await run(dir, 'e.ndjson');
    expect(scope.isDone()).toBe(false);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      [
        '✖ e.ndjson:2:31: kind: is not one of the permitted values (recruiter_view, recruiter_like, recruiter_reject); did you mean recruiter_like? [inclusion]',
        '✖ e.ndjson:2:55: note: is not a known field (the fields are application_id, kind, data) [unknown_field]',
        '✖ e.ndjson:4:19: application_id: must not be blank [blank]',
        '✖ e.ndjson:4:53: data: must be an object (key: value pairs), not a list [invalid]',
        '✖ e.ndjson:5:1: kind: is missing (required): one of recruiter_view, recruiter_like, recruiter_reject [missing]',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('jobs: 5 errors in e.ndjson (on 3 lines); nothing was sent\n');
    expect(existsSync(join(dir, 'e.ndjson.journal'))).toBe(false);
  });

  it('gives the findings as JSON with --json', async () => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind\na1,like\n' });
    const r = await run(dir, 'e.csv', '--json');
    expect(r.code).toBe(3);
    // One document, carrying the error too: nothing else on stdout.
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: 1,
      valid: false,
      sent: 0,
      error: { exit_code: 3, message: '1 error in e.csv (on 1 line); nothing was sent' },
      findings: [
        {
          kind: 'field',
          file: 'e.csv',
          line: 2,
          column: 4,
          path: 'kind',
          message: 'inclusion',
          text: 'is not one of the permitted values (recruiter_view, recruiter_like, recruiter_reject); did you mean recruiter_like?',
          rule: 'inclusion',
        },
      ],
    });
  });

  it('refuses an empty file (exit 3), an unknown format and stdin without --format or --journal (exit 2)', async () => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind,data\n', 'e.txt': 'x', 'empty.yaml': '' });
    expect(await run(dir, 'e.csv')).toEqual({
      code: 3,
      stdout: '✖ e.csv:1:1: the file holds no events\n',
      stderr: 'jobs: 1 error in e.csv (on 1 line); nothing was sent\n',
    });
    expect((await run(dir, 'empty.yaml')).code).toBe(3);
    const unknown = await run(dir, 'e.txt');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'jobs: cannot tell the format of e.txt from its name: use .ndjson, .jsonl, .csv, .yaml or .yml, or pass --format ndjson|csv|yaml\n',
    );
    expect((await run(dir, '-')).stderr).toBe('jobs: reading events from stdin (-) needs --format ndjson|csv|yaml\n');
    const noJournal = await runJobs(['events', '-', '--format', 'ndjson'], {
      cwd: dir,
      env: serviceEnv,
      stdin: '{"application_id":"a","kind":"recruiter_view"}\n',
    });
    expect(noJournal.code).toBe(2);
    expect(noJournal.stderr).toMatch(/^jobs: events read from stdin need a journal: pass --journal <file>\n/);
  });

  it('reads stdin with --format and --journal', async () => {
    const dir = tempFolder({});
    const scope = nock(SERVICE).post(path('a%2Fb'), { kind: 'recruiter_view' }).reply(200);
    const r = await runJobs(['events', '-', '--format', 'yaml', '--journal', 'in.journal'], {
      cwd: dir,
      env: serviceEnv,
      stdin: '- {application_id: a/b, kind: recruiter_view}\n',
    });
    scope.done();
    expect(r.stdout).toBe('✔ recruiter_view a/b (<stdin>:1)\n');
    expect(journalOf(dir, 'in.journal')).toHaveLength(1);
  });
});

describe('jobs events: running', () => {
  it('stops at the first 401 (exit 4): nothing else is started', async () => {
    const lines = ['a1', 'a2', 'a3', 'a4'].map((id) => `{"application_id":"${id}","kind":"recruiter_view"}`).join('\n');
    const dir = tempFolder({ 'e.ndjson': lines });
    const scope = nock(SERVICE)
      .post(path('a1'))
      .reply(401, { errors: { base: ['unauthorized'] } });
    const r = await run(dir, 'e.ndjson', '--concurrency', '1');
    scope.done();
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(
      /^✖ recruiter_view a1 \(e\.ndjson:1\): POST \/job_applications\/a1\/events: unauthorized \(401\): the service did not accept the token\n/,
    );
    expect(r.stderr).toMatch(/^✖ e\.ndjson: 4 events: 0 posted, 1 failed, 3 not started\n/);
    expect(r.stdout + r.stderr).not.toContain('tok_secret_123');
    // The post began (sending) and clearly failed: the event is left to post again. a2 and a3 were
    // journaled ahead (planned) while a1 was in flight and never sent: `failed` too, so a rerun posts them.
    expect(
      rawJournal(dir, 'e.ndjson.journal')
        .map((l) => `${String(l.application_id)} ${String(l.status)} ${String(l.service)}`)
        .sort(),
    ).toEqual([
      `a1 failed ${SERVICE}`,
      `a1 sending ${SERVICE}`,
      `a2 failed ${SERVICE}`,
      `a2 planned ${SERVICE}`,
      `a3 failed ${SERVICE}`,
      `a3 planned ${SERVICE}`,
    ]);
    const again = nock(SERVICE).post(path('a1')).reply(200).post(path('a2')).reply(200).post(path('a3')).reply(200).post(path('a4')).reply(200);
    const rerun = await run(dir, 'e.ndjson', '--concurrency', '1');
    again.done();
    expect(rerun.stderr).toBe('✔ e.ndjson: 4 events: 4 posted\n  journal: e.ndjson.journal\n');
  });

  it('holds an event whose post began but never ended (a kill), and counts journal lines per service', async () => {
    const lines = ['a1', 'a2'].map((id) => `{"application_id":"${id}","kind":"recruiter_like"}`).join('\n');
    const dir = tempFolder({ 'e.ndjson': lines });
    // a1 began to be sent to this service and nothing more was written; a2 was accepted by another.
    const { writeFileSync } = await import('node:fs');
    const { entryKeys } = await import('../../../../src/core/events/key.js');
    const [k1, k2] = entryKeys([
      { application_id: 'a1', kind: 'recruiter_like' },
      { application_id: 'a2', kind: 'recruiter_like' },
    ] as never);
    writeFileSync(
      join(dir, 'e.ndjson.journal'),
      `${JSON.stringify({ v: 1, key: k1, application_id: 'a1', kind: 'recruiter_like', status: 'sending', service: SERVICE, at: 'then' })}\n` +
        `${JSON.stringify({ v: 1, key: k2, application_id: 'a2', kind: 'recruiter_like', status: 'accepted', service: 'sandbox', at: 'then' })}\n`,
    );
    const scope = nock(SERVICE).post(path('a2')).reply(200);
    const r = await run(dir, 'e.ndjson');
    scope.done();
    expect(r.stderr).toContain('1 held');
    expect(r.code).toBe(1);
  });

  it('reports a 404 in one line, without repeating the identifier the status already says (exit 5)', async () => {
    const dir = tempFolder({ 'e.yaml': '- application_id: gone\n  kind: recruiter_view\n' });
    nock(SERVICE)
      .post(path('gone'))
      .reply(404, { errors: { base: ['not_found'] } });
    const r = await run(dir, 'e.yaml');
    expect(r.code).toBe(5);
    expect(r.stdout).toBe(
      '✖ recruiter_view gone (e.yaml:1): POST /job_applications/gone/events: not found (404): the job application does not exist or belongs to another client\n',
    );
  });

  it.each([1, 3])('keeps at most --concurrency %i posts in flight', async (concurrency) => {
    const ids = Array.from({ length: 9 }, (_, i) => `a${i}`);
    const dir = tempFolder({ 'e.csv': `application_id,kind\n${ids.map((id) => `${id},recruiter_view`).join('\n')}\n` });
    let inFlight = 0;
    let most = 0;
    const scope = nock(SERVICE)
      .post(/^\/api\/job_applications\/a\d\/events$/)
      .times(9)
      .reply((_uri, _body, callback) => {
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight--;
          callback(null, [200, '']);
        }, 20);
      });
    const r = await run(dir, 'e.csv', '--concurrency', String(concurrency));
    scope.done();
    expect(r.code).toBe(0);
    expect(most).toBe(concurrency);
    expect(journalOf(dir)).toHaveLength(9);
  });

  it('writes NDJSON with --json: a result per entry, then the summary', async () => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind,data\na1,recruiter_view,\na2,recruiter_reject,"{""why"": 1}"\n' });
    nock(SERVICE)
      .post(path('a1'))
      .reply(200)
      .post(path('a2'))
      .reply(422, { errors: { data: ['invalid'] } });
    const r = await run(dir, 'e.csv', '--json', '--concurrency', '1');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    // Every line starts with the format version.
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { format_version?: number });
    expect(lines.every((l) => l.format_version === 1)).toBe(true);
    expect(lines.map(({ format_version: _v, ...rest }) => rest)).toEqual([
      { file: 'e.csv', line: 2, application_id: 'a1', kind: 'recruiter_view', key: keyOf('a1', 'recruiter_view'), status: 'posted' },
      {
        file: 'e.csv',
        line: 3,
        application_id: 'a2',
        kind: 'recruiter_reject',
        key: expect.stringMatching(/:1$/),
        status: 'failed',
        error: {
          message: 'POST /job_applications/a2/events: the service rejected the request (422)',
          exit_code: 1,
          status: 422,
          kind: 'rejected',
          errors: { data: ['invalid'] },
          details: ['data: is invalid [invalid]'],
          findings: [{ kind: 'field', file: 'e.csv', line: 3, column: 21, path: 'data', message: 'invalid', text: 'is invalid', rule: 'invalid' }],
        },
      },
      {
        summary: {
          file: 'e.csv',
          journal: 'e.csv.journal',
          dry_run: false,
          total: 2,
          posted: 1,
          skipped: 0,
          uncertain: 0,
          held: 0,
          failed: 1,
          not_started: 0,
          interrupted: false,
        },
      },
    ]);
  });

  it('--dry-run shows what would be posted and what the journal skips, and sends nothing', async () => {
    const done = { v: 1, key: keyOf('a1', 'recruiter_view'), application_id: 'a1', kind: 'recruiter_view', status: 'accepted', at: '2025-01-01T00:00:00.000Z' };
    const held = { ...done, key: keyOf('a3', 'recruiter_like'), application_id: 'a3', kind: 'recruiter_like', status: 'uncertain' };
    const journal = `${JSON.stringify(done)}\n${JSON.stringify(held)}\n`;
    const dir = tempFolder({
      'e.csv': 'application_id,kind,data\na1,recruiter_view,\na2,recruiter_reject,"{""why"":""filled""}"\na3,recruiter_like,\n',
      'e.csv.journal': journal,
    });
    const scope = nock(SERVICE).post(/.*/).reply(200);
    const r = await run(dir, 'e.csv', '--dry-run');
    expect(scope.isDone()).toBe(false);
    expect(r).toEqual({
      code: 0,
      stdout: [
        // In file order: the file is read as it goes, not held to sort its entries first.
        '- recruiter_view a1 (e.csv:2): skipped: accepted in an earlier run',
        '→ recruiter_reject a2 (e.csv:3): would post POST /job_applications/a2/events {"kind":"recruiter_reject","data":{"why":"filled"}}',
        '⚠ recruiter_like a3 (e.csv:4): not posted: uncertain in an earlier run (--retry-uncertain posts it again)',
        '',
      ].join('\n'),
      stderr: 'dry run: e.csv: 3 events: 1 would be posted, 1 skipped as already done, 1 held as uncertain from an earlier run; nothing was sent\n',
    });
    expect(readFileSync(join(dir, 'e.csv.journal'), 'utf8')).toBe(journal);
    const retry = await run(dir, 'e.csv', '--dry-run', '--retry-uncertain', '--json');
    expect(
      retry.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).status),
    ).toEqual(['skipped', 'would_post', 'would_post', undefined]);
  });
});

describe('jobs events: one run per journal', () => {
  it('refuses to start while another run holds the journal, sending nothing (exit 2)', async () => {
    const { hostname } = await import('node:os');
    const { writeFileSync } = await import('node:fs');
    const dir = tempFolder({ 'e.ndjson': '{"application_id":"a1","kind":"recruiter_view"}\n' });
    writeFileSync(join(dir, 'e.ndjson.journal.lock'), JSON.stringify({ pid: process.pid, host: hostname(), started_at: 'now' }));
    const r = await run(dir, 'e.ndjson');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('another events run holds the lock on this journal');
    expect(r.stderr).toContain('if it is not running any more, run again with --unlock');
  });

  it('reports a bad journal before it looks for credentials: the journal is what the user has to fix first', async () => {
    const dir = tempFolder({ 'e.ndjson': '{"application_id":"a1","kind":"recruiter_view"}\n', 'e.ndjson.journal': 'not json\n' });
    const { JOBS_TOKEN: _token, ...noToken } = serviceEnv;
    const r = await runJobs(['events', 'e.ndjson'], { cwd: dir, env: noToken });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('e.ndjson.journal:1: this line is not a journal entry; nothing was sent');
    expect(r.stderr).not.toContain('no token');
  });

  it('takes over a lock that names no process (left empty by a crash between creating and writing it)', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = tempFolder({ 'e.ndjson': '{"application_id":"a1","kind":"recruiter_view"}\n' });
    writeFileSync(join(dir, 'e.ndjson.journal.lock'), '');
    const scope = nock(SERVICE).post(path('a1'), { kind: 'recruiter_view' }).reply(201, {});
    const r = await run(dir, 'e.ndjson');
    scope.done();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`jobs: removing a lock that names no process (left by a crash): ${join(dir, 'e.ndjson.journal.lock')}`);
    expect(existsSync(join(dir, 'e.ndjson.journal.lock'))).toBe(false);
  });
});
