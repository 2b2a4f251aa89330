/**
 * The programmatic API from the package's main export: the documented names are there, and
 * syncFolder runs `jobs sync` (same requests, same state file, same plan) as a function.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { advertBody, advertYaml, SERVICE, tempFolder } from '../commands/harness.js';
import { tempDir } from '../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const isolated = () => {
  const home = tempDir('jobs-api-home-');
  return { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
};

describe('the main export', () => {
  it('offers the client, loading and validating, the error tree renderer and sync', () => {
    for (const name of [
      'JobsClient',
      'loadAdverts',
      'parseAdverts',
      'checkAdvert',
      'validateAdvert',
      'isValid',
      'renderTreeLines',
      'renderTreeNested',
      'findingsFromTree',
      'syncFolder',
      'History',
      'buildReport',
      'renderReportHtml',
      'run',
      'ApiError',
      'InvalidInputError',
      'ExitCode',
      'VERSION',
    ]) {
      expect(api, name).toHaveProperty(name);
    }
  });

  it('does not offer the internals sync is made of (the state, the plan, its execution, the lock)', () => {
    for (const name of [
      'makePlan',
      'hasChanges',
      'executePlan',
      'SyncState',
      'acquireLock',
      'DEFAULT_STATE_FILE',
      'publishAdvert',
      'describeMessage',
      'parseMessage',
      'describeEntry',
    ]) {
      expect(api, name).not.toHaveProperty(name);
    }
  });

  it('loads adverts from a folder with positions, without touching stdin, and renders their errors', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1').replace('title: Engineer', 'title: ""') });
    const loaded = await api.loadAdverts(['.'], { cwd: dir });
    expect(loaded.problems).toEqual([]);
    const checked = api.checkAdvert(loaded.adverts[0]!, api.NO_SETTINGS);
    expect(api.isValid(checked)).toBe(false);
    expect(api.renderTreeLines(checked.tree)).toEqual(['title: must not be blank [blank]']);
    expect(checked.source.locate(['title'])).toMatchObject({ line: 2 });
  });
});

describe('the history', () => {
  it('records snapshots, says what changed and builds the report, as jobs stats and jobs report do', () => {
    const dir = tempDir('jobs-api-history-');
    const history = new api.History(dir, 'HTTPS://Jobs.Example.test/api/');
    expect(history.service).toBe('HTTPS://Jobs.Example.test/api/');
    const day = 86_400_000;
    const t = Date.parse('2026-11-01T00:00:00Z');
    const first: api.Observed[] = [{ reference: 'A-1', at: t, stats: { views: 10, likes: 2, applications: 1, applications_unviewed: 1 } }];
    expect(api.recordAndCompare(history, first)[0]!.change).toBeUndefined();
    const [later] = api.recordAndCompare(history, [
      { reference: 'A-1', at: t + day, stats: { views: 22, likes: 2, applications: 3, applications_unviewed: 0 } },
    ]);
    expect(later!.change).toEqual({ since: t, views: 12, likes: 0, applications: 2, applications_unviewed: -1 });
    expect(later!.applicationRate).toBeCloseTo(3 / 22);
    expect(new api.History(dir, 'https://jobs.example.test/api').read().map((s: api.Snapshot) => s.views)).toEqual([10, 22]);
    const model: api.ReportModel = api.buildReport(history, { now: t + 2 * day });
    expect(model.totals.map((d) => d.views)).toEqual([10, 22]);
    expect(api.renderReportHtml(model)).toContain('<h2>Funnel</h2>');
  });
});

describe('syncFolder', () => {
  it('creates what is new, records it, and then knows it is unchanged', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'sub/b.yaml': advertYaml('B-2') });
    const scope = nock(SERVICE, { reqheaders: { authorization: 'Bearer tok_api' } })
      .post('/jobs', advertBody('A-1'))
      .reply(201)
      .post('/jobs', advertBody('B-2'))
      .reply(201);
    const first = await api.syncFolder({ dir, baseUrl: SERVICE, token: 'tok_api', env: isolated(), concurrency: 1 });
    scope.done();
    expect(first.exitCode).toBe(0);
    expect(first.results.map((r) => [r.reference, r.file, r.action, r.status])).toEqual([
      ['A-1', 'a.yaml', 'create', 'created'],
      ['B-2', 'sub/b.yaml', 'create', 'created'],
    ]);
    expect(first.counts).toMatchObject({ created: 2, unchanged: 0, not_started: 0 });
    const state = JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8'));
    expect(Object.keys(state.services[SERVICE].adverts).sort()).toEqual(['A-1', 'B-2']);

    // Nothing changed: no request at all (nock refuses any).
    const second = await api.syncFolder({ dir, baseUrl: SERVICE, token: 'tok_api', env: isolated() });
    expect(second).toMatchObject({ exitCode: 0, results: [], counts: { unchanged: 2 } });
  });

  it('tells its hooks the plan and each result in the shapes it resolves to', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    nock(SERVICE)
      .post('/jobs', advertBody('A-1'))
      .reply(201)
      .post('/jobs', advertBody('B-2'))
      .reply(422, { errors: { title: ['blank'] } });
    const seen: string[] = [];
    const r = await api.syncFolder(
      { dir, baseUrl: SERVICE, token: 'tok_api', env: isolated(), concurrency: 1 },
      {
        onPlan: (plan, info) => seen.push(`plan ${JSON.stringify(plan)} dryRun=${info.dryRun}`),
        onSend: (total) => void seen.push(`send ${total}`),
        onResult: (result) => seen.push(`result ${JSON.stringify(result)}`),
      },
    );
    expect(r.exitCode).toBe(1);
    expect(seen).toEqual([
      'plan [{"action":"create","reference":"A-1","file":"a.yaml"},{"action":"create","reference":"B-2","file":"b.yaml"}] dryRun=false',
      'send 2',
      `result ${JSON.stringify(r.results[0])}`,
      `result ${JSON.stringify(r.results[1])}`,
    ]);
    expect(r.results.map((x) => [x.reference, x.status])).toEqual([
      ['A-1', 'created'],
      ['B-2', 'failed'],
    ]);
  });

  it('plans without sending with dryRun, naming the fields that changed', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    nock(SERVICE).post('/jobs').reply(201);
    await api.syncFolder({ dir, baseUrl: SERVICE, token: 'tok_api', env: isolated() });
    writeFileSync(join(dir, 'a.yaml'), advertYaml('A-1').replace('title: Engineer', 'title: Staff Engineer'));
    writeFileSync(join(dir, 'c.yaml'), advertYaml('C-3'));
    const plan = await api.syncFolder({ dir, baseUrl: SERVICE, env: isolated(), dryRun: true });
    expect(plan.exitCode).toBe(0);
    expect(plan.plan).toEqual([
      { action: 'update', reference: 'A-1', file: 'a.yaml', changed: ['title'] },
      { action: 'create', reference: 'C-3', file: 'c.yaml' },
    ]);
    expect(plan.counts).toMatchObject({ create: 1, update: 1, unchanged: 0 });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('reports a refused token per advert with the exit code the CLI would use (4)', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    const scope = nock(SERVICE)
      .post('/jobs')
      .reply(401, { errors: { base: ['unauthorized'] } });
    const r = await api.syncFolder({ dir, baseUrl: SERVICE, token: 'wrong', env: isolated() });
    scope.done();
    expect(r.exitCode).toBe(4);
    expect(r.results).toMatchObject([{ reference: 'A-1', status: 'failed', error: { exit_code: 4, status: 401 } }]);
    expect(JSON.stringify(r)).not.toContain('wrong');
  });

  it('throws InvalidInputError with each located error when an advert is invalid; nothing is sent', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1').replace('seniority: 0', 'seniority: -1') });
    const error = await api.syncFolder({ dir, baseUrl: SERVICE, token: 'tok_api', env: isolated() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(api.InvalidInputError);
    expect((error as api.JobsError).exitCode).toBe(3);
    expect((error as api.JobsError).details).toEqual([expect.stringMatching(/\/a\.yaml:11:12: seniority: .+ \[\w+:0\]$/)]);
    expect(existsSync(join(dir, '.jobs-state'))).toBe(false);
  });

  it('refuses a folder that does not exist, like the CLI (UsageError, exit 2)', async () => {
    const error = await api.syncFolder({ dir: join(tmpdir(), 'no-such-folder-jobs'), baseUrl: SERVICE, token: 't', env: isolated() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(api.UsageError);
  });
});
