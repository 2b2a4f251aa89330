import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { History } from '../../src/core/history/store.js';
import { advertBody, advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../commands/harness.js';
import { tempDir } from '../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const counters = (views: number, likes: number, applications: number, unviewed: number) => ({ views, likes, applications, applications_unviewed: unviewed });
const titled = (reference: string, title: string) => advertYaml(reference).replace('title: Engineer', `title: ${title}`);
const titledBody = (reference: string, title: string) => ({ ...advertBody(reference), title });

/** One user's machine: the same HOME and state folder for every command of a test. */
function machine(): Record<string, string> {
  const home = tempDir('jobs-published-');
  return { ...serviceEnv, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config') };
}

const recordFile = (env: Record<string, string>) => join(env.XDG_STATE_HOME!, 'jobs', 'published', `${encodeURIComponent(SERVICE)}.json`);

describe('what the tool published is known to stats --all and report, with no flag', () => {
  it('publish (created and updated) records each advert with its title; stats --all then reads them from any folder', async () => {
    const env = machine();
    const dir = tempFolder({ 'a.yaml': titled('A-1', 'Backend Engineer'), 'b.yaml': titled('B-2', 'Nurse') });
    nock(SERVICE)
      .post('/jobs', titledBody('A-1', 'Backend Engineer'))
      .reply(201)
      .post('/jobs', titledBody('B-2', 'Nurse'))
      .reply(422, { errors: { reference: ['taken'] } })
      .put('/jobs/B-2')
      .reply(200);
    const published = await runJobs(['publish', '.', '--concurrency', '1'], { cwd: dir, env });
    expect(published.code).toBe(0);
    const record = JSON.parse(readFileSync(recordFile(env), 'utf8'));
    expect(record.service).toBe(SERVICE);
    expect(Object.keys(record.adverts)).toEqual(['A-1', 'B-2']);
    expect(record.adverts['A-1'].title).toBe('Backend Engineer');
    expect(record.adverts['B-2'].title).toBe('Nurse');

    const scope = nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, counters(10, 2, 1, 0))
      .get('/jobs/B-2/stats')
      .reply(200, counters(20, 4, 2, 0));
    // Another folder, and the URL spelt differently: the same service.
    const stats = await runJobs(['stats', '--all', '--json', '--no-record'], {
      cwd: tmpdir(),
      env: { ...env, JOBS_BASE_URL: 'HTTPS://Jobs.Example.TEST:443/api/' },
    });
    scope.done();
    expect(stats.stderr).toBe('');
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout).stats.map((s: { reference: string }) => s.reference)).toEqual(['A-1', 'B-2']);
  });

  it('update records the new title, and keeps the old one when the title is not changed', async () => {
    const env = machine();
    nock(SERVICE).put('/jobs/A-1').twice().reply(200);
    expect((await runJobs(['update', 'A-1', '--set', 'title=Head Nurse'], { env })).code).toBe(0);
    expect((await runJobs(['update', 'A-1', '--set', 'seniority=3'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(recordFile(env), 'utf8')).adverts['A-1'].title).toBe('Head Nurse');
  });

  it('a failed advert is not recorded; create records what it created', async () => {
    const env = machine();
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    nock(SERVICE)
      .post('/jobs', advertBody('A-1'))
      .reply(201)
      .post('/jobs', advertBody('B-2'))
      .reply(422, { errors: { reference: ['taken'] } });
    const created = await runJobs(['create', '.', '--concurrency', '1'], { cwd: dir, env });
    expect(created.code).toBe(1);
    expect(Object.keys(JSON.parse(readFileSync(recordFile(env), 'utf8')).adverts)).toEqual(['A-1']);
  });

  it('sync records what it created, so stats --all works outside the synced folder (its state is in <dir>)', async () => {
    const env = machine();
    const dir = tempFolder({ 'adverts/a.yaml': advertYaml('A-1'), 'adverts/b.yaml': advertYaml('B-2') });
    nock(SERVICE).post('/jobs').times(2).reply(201);
    const synced = await runJobs(['sync', 'adverts'], { cwd: dir, env });
    expect(synced.code).toBe(0);
    const scope = nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, counters(1, 0, 0, 0))
      .get('/jobs/B-2/stats')
      .reply(200, counters(2, 0, 0, 0));
    const stats = await runJobs(['stats', '--all', '--json', '--no-record'], { cwd: dir, env });
    scope.done();
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout).stats.map((s: { reference: string }) => s.reference)).toEqual(['A-1', 'B-2']);
    // --state still names one sync state.
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, counters(1, 0, 0, 0))
      .get('/jobs/B-2/stats')
      .reply(200, counters(2, 0, 0, 0));
    expect((await runJobs(['stats', '--all', '--no-record', '--state', 'adverts/.jobs-state'], { cwd: dir, env })).code).toBe(0);
  });

  it('a deleted advert leaves stats --all, and the report shows it as deleted, never as needing attention', async () => {
    const env = machine();
    const dir = tempFolder({ 'a.yaml': titled('A-1', 'Backend Engineer'), 'b.yaml': titled('B-2', 'Nurse') });
    nock(SERVICE).post('/jobs').times(2).reply(201);
    expect((await runJobs(['publish', '.'], { cwd: dir, env })).code).toBe(0);
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, counters(10, 1, 1, 1))
      .get('/jobs/B-2/stats')
      .reply(200, counters(20, 2, 2, 2));
    expect((await runJobs(['stats', '--all'], { cwd: dir, env })).code).toBe(0);

    nock(SERVICE)
      .delete('/jobs/B-2')
      .reply(204)
      .delete('/jobs/TYPO')
      .reply(404, { errors: { base: ['not_found'] } });
    expect((await runJobs(['delete', 'B-2', '--yes'], { cwd: dir, env })).code).toBe(0);
    expect((await runJobs(['delete', 'TYPO', '--yes'], { cwd: dir, env })).code).toBe(5);
    const record = JSON.parse(readFileSync(recordFile(env), 'utf8'));
    expect(Object.keys(record.adverts)).toEqual(['A-1', 'B-2']);
    expect(record.adverts['B-2'].deleted_at).toMatch(/^\d{4}-/);

    const scope = nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, counters(11, 1, 1, 1));
    const stats = await runJobs(['stats', '--all', '--json'], { cwd: dir, env });
    scope.done();
    expect(JSON.parse(stats.stdout).stats.map((s: { reference: string }) => s.reference)).toEqual(['A-1']);

    const report = await runJobs(['report', '--file', 'r.html', '--json'], { cwd: dir, env });
    expect(report.code).toBe(0);
    const doc = JSON.parse(report.stdout);
    expect(doc.needs_attention).toEqual([{ reference: 'A-1', title: 'Backend Engineer', reasons: ['1 unviewed application waiting'] }]);
    const b = doc.adverts.find((a: { reference: string }) => a.reference === 'B-2');
    expect([b.title, b.deleted, b.needs_attention]).toEqual(['Nurse', true, []]);
  });

  it('report right after publish: reads the published adverts once, and names each by its title', async () => {
    const env = machine();
    const dir = tempFolder({ 'a.yaml': titled('A-1', 'Backend Engineer <Node.js>') });
    nock(SERVICE).post('/jobs').reply(201);
    expect((await runJobs(['publish', '.'], { cwd: dir, env })).code).toBe(0);
    const scope = nock(SERVICE)
      .get('/jobs/A-1/stats')
      .once()
      .reply(200, counters(10, 2, 1, 0));
    const report = await runJobs(['report', '--file', 'r.html'], { cwd: dir, env });
    scope.done();
    expect(report.stderr).toBe('read the statistics of 1 published advert not in the history yet\nwrote r.html: 1 advert over 1 day, 0 need attention\n');
    expect(report.code).toBe(0);
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    // In the table's data (as JSON with `<` escaped): the script shows it beside the reference.
    expect(html).toContain('["A-1",10,2,1,0,0.2,0.1,null,null,"",[10],[1],"Backend Engineer \\u003cNode.js>",0,""]');
    // The second report sends nothing: the history has the advert now (nock would refuse a request).
    const again = await runJobs(['report', '--file', 'r.html'], { cwd: dir, env });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('wrote r.html: 1 advert over 1 day, 0 need attention\n');
  });

  it('stats --all names an advert deleted some other way, and delete takes it out of --all', async () => {
    const env = machine();
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    nock(SERVICE).post('/jobs').times(2).reply(201);
    expect((await runJobs(['publish', '.'], { cwd: dir, env })).code).toBe(0);
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, counters(1, 0, 0, 0))
      .get('/jobs/B-2/stats')
      .reply(404, { errors: { base: ['not_found'] } });
    const stats = await runJobs(['stats', '--all', '--no-record'], { cwd: dir, env });
    expect(stats.code).toBe(5);
    expect(stats.stderr).toContain('this advert is not on the service any more; jobs delete B-2 --yes takes it out of --all\n');
    nock(SERVICE)
      .delete('/jobs/B-2')
      .reply(404, { errors: { base: ['not_found'] } });
    expect((await runJobs(['delete', 'B-2', '--yes'], { cwd: dir, env })).code).toBe(5);
    const scope = nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, counters(1, 0, 0, 0));
    expect((await runJobs(['stats', '--all', '--no-record'], { cwd: dir, env })).code).toBe(0);
    scope.done();
  });

  it('report --since does not read again an advert recorded before the window', async () => {
    const env = machine();
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    nock(SERVICE).post('/jobs').times(2).reply(201);
    expect((await runJobs(['publish', '.'], { cwd: dir, env })).code).toBe(0);
    const history = new History(join(env.XDG_STATE_HOME!, 'jobs', 'history'), SERVICE);
    history.append([
      { reference: 'A-1', at: Date.now() - 30 * 86_400_000, ...counters(5, 0, 0, 0) },
      { reference: 'B-2', at: Date.now() - 3_600_000, ...counters(9, 1, 1, 0) },
    ]);
    // No request is answered: one for A-1 would fail and be warned about.
    const report = await runJobs(['report', '--since', '7d', '--file', 'r.html'], { cwd: dir, env });
    expect(report.stderr).toBe('wrote r.html: 1 advert over 1 day, 0 need attention\n');
    expect(report.code).toBe(0);
  });

  it('report: statistics that cannot be recorded are a reason, not a crash', async () => {
    const env = machine();
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), history: 'a file where the history folder would be' });
    nock(SERVICE).post('/jobs').reply(201);
    expect((await runJobs(['publish', '.'], { cwd: dir, env })).code).toBe(0);
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, counters(1, 0, 0, 0));
    const report = await runJobs(['report', '--history-dir', 'history', '--file', 'r.html'], { cwd: dir, env });
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(
      /^jobs: no snapshots of https:\/\/jobs.example.test\/api in .*history\n {2}the statistics of 1 published advert\(s\) were read but could not be recorded in .* \(E\w+\); pass --history-dir <dir>\n/,
    );
  });

  it('with nothing published and no history, stats --all and report say what to do', async () => {
    const env = machine();
    const stats = await runJobs(['stats', '--all'], { cwd: tmpdir(), env });
    expect(stats.code).toBe(0);
    expect(stats.stderr).toContain('has published none to this service yet');
    const report = await runJobs(['report'], { cwd: tmpdir(), env });
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('publish adverts, or run jobs stats --all');
  });

  it('a record that cannot be written is a warning: the run still succeeds', async () => {
    const env = machine();
    writeFileSync(env.XDG_STATE_HOME!, 'not a folder');
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    nock(SERVICE).post('/jobs').reply(201);
    const r = await runJobs(['publish', '.'], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^jobs: warning: could not record the published adverts in .*published.* \(E\w+\); jobs stats --all and jobs report will not list them\n/,
    );
  });
});
