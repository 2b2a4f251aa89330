/**
 * References (and application ids) that are not well-formed Unicode, that print as nothing, or that
 * differ only in Unicode normalisation. Commands run in-process; nock records every request.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** Answers every request; `sent` lists them as "METHOD path body". */
function recordAll(): { sent: string[] } {
  const sent: string[] = [];
  const reply = (status: number) =>
    function (this: unknown, uri: string, body: unknown) {
      sent.push(`${(this as { req: { method: string } }).req.method} ${uri}${body === '' || body === undefined ? '' : ` ${JSON.stringify(body)}`}`);
      return [status, status === 200 && uri.endsWith('/stats') ? { views: 0, likes: 0, applications: 0, applications_unviewed: 0 } : undefined];
    };
  nock(SERVICE).persist().post(/.*/).reply(reply(201)).put(/.*/).reply(reply(200)).delete(/.*/).reply(reply(200)).get(/.*/).reply(reply(200));
  return { sent };
}

const withReference = (yamlReference: string) => advertYaml('X').replace('reference: X', `reference: ${yamlReference}`);

describe('a reference that is not well-formed Unicode', () => {
  it('validate and publish: exit 3 at its line and column, nothing sent', async () => {
    const dir = tempFolder({ 'a.yaml': withReference('"\\uD800"'), 'b.yaml': advertYaml('B-2') });
    const { sent } = recordAll();
    for (const command of ['validate', 'publish']) {
      const r = await runJobs([command, 'a.yaml', 'b.yaml'], { cwd: dir, env: serviceEnv });
      expect(r.code, command).toBe(3);
      expect(r.stdout).toContain(
        'a.yaml:1:12: reference: the reference "\\uD800" is not well-formed Unicode (it holds half of a UTF-16 surrogate pair, which has no UTF-8 form), so it cannot be put in a URL',
      );
    }
    expect(sent).toEqual([]);
  });

  it('update, delete, stats and event given one on the command line: usage error (exit 2), nothing sent', async () => {
    const { sent } = recordAll();
    for (const argv of [
      ['update', '\uD800', '--set', 'title=x'],
      ['delete', 'A-1', '\uDC00x', '--yes'],
      ['stats', '\uD800'],
      ['event', 'app\uD83D', 'recruiter_view'],
    ]) {
      const r = await runJobs(argv, { env: serviceEnv });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/is not well-formed Unicode .* nothing was sent\n/);
      expect(r.stderr).not.toContain('URI malformed');
    }
    expect(sent).toEqual([]);
  });

  it('an events file with one as an application id: exit 3 at its line', async () => {
    const dir = tempFolder({ 'events.ndjson': '{"application_id": "7", "kind": "recruiter_view"}\n{"application_id": "\\ud800", "kind": "recruiter_view"}\n' });
    const { sent } = recordAll();
    const r = await runJobs(['events', 'events.ndjson'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toMatch(/events\.ndjson:2:\d+: .*application id "\\uD800" is not well-formed Unicode/);
    expect(sent).toEqual([]);
  });
});

describe('a reference blank when printed', () => {
  it.each([
    ['a zero-width space', '"\\u200B"', '\\u200B'],
    ['a byte order mark and a word joiner', '"\\uFEFF\\u2060"', '\\uFEFF\\u2060'],
    ['a Hangul filler', '"\\u3164"', '\\u3164'],
  ])('%s: exit 3 at its line', async (_name, written, shown) => {
    const dir = tempFolder({ 'a.yaml': `# an advert\n${withReference(written)}` });
    const { sent } = recordAll();
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(
      `a.yaml:2:12: reference: the reference "${shown}" is blank when printed (only invisible characters), so no one could tell it apart or type it; choose a visible reference`,
    );
    expect(sent).toEqual([]);
  });

  it('on the command line: usage error', async () => {
    const { sent } = recordAll();
    const r = await runJobs(['delete', '\u200B', '--yes'], { env: serviceEnv });
    expect(r).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('the reference "\\u200B" is blank when printed') });
    expect(sent).toEqual([]);
  });

  it('a reference with a visible character and a zero-width joiner is fine', async () => {
    const dir = tempFolder({ 'a.yaml': withReference('"A\\u200D1"') });
    const { sent } = recordAll();
    expect((await runJobs(['publish', 'a.yaml'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    expect(sent).toHaveLength(1);
  });
});

describe('references that differ only in Unicode normalisation are one advert', () => {
  const NFC = 'caf\u00e9';
  const NFD = 'cafe\u0301';

  it('publish sends the reference in NFC, in the body and in the URL', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml(NFD) });
    const { sent } = recordAll();
    expect((await runJobs(['publish', 'a.yaml'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(`"reference":"${NFC}"`);
    expect(sent[0]).not.toContain(NFD);
    const update = await runJobs(['update', NFD, '--set', 'title=New'], { env: serviceEnv });
    expect(update.code).toBe(0);
    expect(sent[1]).toBe('PUT /api/jobs/caf%C3%A9 {"title":"New"}');
  });

  it('a sync after the file is saved again in NFD sends nothing: no delete, no create', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml(NFC) });
    const { sent } = recordAll();
    expect((await runJobs(['sync', '.', '--prune'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    expect(sent).toHaveLength(1);
    writeFileSync(join(dir, 'a.yaml'), advertYaml(NFD));
    const r = await runJobs(['sync', '.', '--prune'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(0);
    expect(sent).toHaveLength(1);
    const state = readFileSync(join(dir, '.jobs-state'), 'utf8');
    expect(state).toContain(`"${NFC}"`);
    expect(state).not.toContain(NFD);
  });

  it('a state an earlier release wrote with the NFD reference: the advert is updated at that reference, not deleted and created', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    const { sent } = recordAll();
    expect((await runJobs(['sync', '.'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    // Rename the record as an earlier release would have kept it: the reference as written, in NFD.
    const statePath = join(dir, '.jobs-state');
    writeFileSync(statePath, readFileSync(statePath, 'utf8').replace('"A-1"', `"${NFD}"`));
    writeFileSync(join(dir, 'a.yaml'), advertYaml(NFD));
    sent.length = 0;
    const r = await runJobs(['sync', '.', '--prune'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(0);
    expect(sent.map((line) => line.split(' {')[0])).toEqual(['PUT /api/jobs/cafe%CC%81']);
    sent.length = 0;
    expect((await runJobs(['sync', '.', '--prune'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    expect(sent).toEqual([]);
  });

  it('two files whose references differ only in normalisation: a duplicate reference (exit 3)', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml(NFC), 'b.yaml': advertYaml(NFD) });
    const { sent } = recordAll();
    const r = await runJobs(['sync', '.'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`b.yaml:1:12: reference "${NFC}" is already used by a.yaml:1:12`);
    expect(sent).toEqual([]);
  });
});

describe('sync: one advert that cannot be sent does not lose the others', () => {
  it('a state record whose reference is not well-formed Unicode: its delete fails, the updates are recorded', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2'), 'c.yaml': advertYaml('C-3') });
    const { sent } = recordAll();
    expect((await runJobs(['sync', '.'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    // A record an earlier release wrote for an advert whose reference held a lone surrogate.
    const statePath = join(dir, '.jobs-state');
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as { services: Record<string, { adverts: Record<string, unknown> }> };
    const adverts = Object.values(state.services)[0]!.adverts;
    adverts['\uD800'] = { ...(adverts['C-3'] as object), file: 'gone.yaml' };
    writeFileSync(statePath, JSON.stringify(state, null, 2));
    writeFileSync(join(dir, 'a.yaml'), advertYaml('A-1').replace('title: Engineer', 'title: Engineer II'));
    writeFileSync(join(dir, 'b.yaml'), advertYaml('B-2').replace('title: Engineer', 'title: Engineer III'));
    sent.length = 0;

    const r = await runJobs(['sync', '.', '--prune', '--yes', '--concurrency', '1'], { cwd: dir, env: serviceEnv });
    // The run's code is its failure's: a reference that cannot be sent is a usage error.
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('Plan: 0 to create, 2 to update, 1 to delete, 1 unchanged.\n✖ sync incomplete: 2 updated, 1 failed, 1 unchanged\n');
    expect(r.stdout + r.stderr).not.toContain('unexpected error');
    expect(r.stdout + r.stderr).toContain('is not well-formed Unicode');
    expect(sent.map((s) => s.split(' {')[0]).sort()).toEqual(['PUT /api/jobs/A-1', 'PUT /api/jobs/B-2']);

    // The two updates were recorded: the next run sends them no more (only the bad delete is tried again).
    sent.length = 0;
    const again = await runJobs(['sync', '.', '--prune', '--yes'], { cwd: dir, env: serviceEnv });
    expect(again.code).toBe(2);
    expect(sent).toEqual([]);
  });

  it('stats --all with such a record: the other adverts are shown, that one is a failure', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    const { sent } = recordAll();
    expect((await runJobs(['sync', '.'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    const statePath = join(dir, '.jobs-state');
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as { services: Record<string, { adverts: Record<string, unknown> }> };
    const adverts = Object.values(state.services)[0]!.adverts;
    adverts['\uD800'] = { ...(adverts['A-1'] as object), file: 'gone.yaml' };
    writeFileSync(statePath, JSON.stringify(state, null, 2));
    sent.length = 0;
    const r = await runJobs(['stats', '--all', '--json', '--no-record'], { cwd: dir, env: serviceEnv });
    expect(sent).toEqual(['GET /api/jobs/A-1/stats']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('"A-1"');
    expect(r.stdout + r.stderr).toContain('is not well-formed Unicode');
    expect(r.stdout + r.stderr).not.toContain('unexpected error');
  });
});
