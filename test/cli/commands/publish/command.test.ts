import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertBody, advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('jobs publish', () => {
  it('creates new adverts and updates taken ones, sending exact bodies', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const scope = nock(SERVICE, { reqheaders: { authorization: 'Bearer tok_secret_123', 'content-type': 'application/json' } })
      .post('/jobs', advertBody('A-1'))
      .reply(201)
      .post('/jobs', advertBody('B-2'))
      .reply(422, { errors: { reference: ['taken'] } })
      .put('/jobs/B-2', (body) => JSON.stringify(body) === JSON.stringify((({ reference: _r, ...rest }) => rest)(advertBody('B-2'))))
      .reply(200);
    const r = await runJobs(['publish', '.', '--concurrency', '1'], { cwd: dir, env: serviceEnv });
    scope.done();
    expect(r.stdout).toBe('✔ created A-1 a.yaml:1\n✔ updated B-2 b.yaml:1\n');
    expect(r.stderr).toBe('✔ 2 adverts: 1 created, 1 updated\n');
    expect(r.code).toBe(0);
  });

  it('does not send an advert whose file changed after it was checked, and says so', async () => {
    // Adverts are read again as they are sent (memory stays flat): what is sent is what was checked.
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const scope = nock(SERVICE)
      .post('/jobs', advertBody('A-1'))
      .reply(() => {
        writeFileSync(join(dir, 'b.yaml'), advertYaml('B-2').replace(/^title: .*$/m, 'title: Edited meanwhile'));
        return [201, ''];
      });
    const r = await runJobs(['publish', '.', '--concurrency', '1'], { cwd: dir, env: serviceEnv });
    scope.done();
    expect(r.stdout).toBe(
      [
        '✔ created A-1 a.yaml:1',
        '✖ failed B-2 b.yaml: b.yaml changed since it was checked; nothing was sent for B-2',
        '    run the command again: it checks the files as they are now',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('✖ 2 adverts: 1 created, 1 failed\n');
    expect(r.code).toBe(3);
  });

  it('sends nothing when any advert is invalid (exit 3)', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'bad.yaml': advertYaml('B-2').replace('seniority: 0', 'seniority: many') });
    const r = await runJobs(['publish', '.'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      '✖ bad.yaml:11:12: seniority: many is not a number: seniority is a number of years (the minimum experience); write a whole number, e.g. 3 [not_a_number]\n',
    );
    expect(r.stderr).toBe('jobs: 1 error in the advert files (1 of 2 adverts invalid); nothing was sent\n');
  });

  it('points the service errors at the YAML lines and exits 1', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    nock(SERVICE)
      .post('/jobs')
      .reply(422, { errors: { title: ['too_long:5'], location: { city: ['inclusion'] }, base: ['weird thing'] } });
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '✖ failed A-1 a.yaml:1: POST /jobs: the service rejected the request (422)',
        '    a.yaml:2:8: title: is too long (maximum 5 characters) [too_long:5]',
        '    a.yaml:15:9: location.city: is not one of the permitted values [inclusion]',
        '    a.yaml:1:1: (advert): weird thing',
        '',
      ].join('\n'),
    );
  });

  it('stops at a 401 and exits 4 without showing the token', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    nock(SERVICE)
      .post('/jobs')
      .reply(401, { errors: { base: ['unauthorized'] } });
    const r = await runJobs(['publish', '.', '--concurrency', '1'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('✖ failed A-1');
    expect(r.stderr).toContain('1 not started');
    expect(r.stdout + r.stderr).not.toContain('tok_secret_123');
  });

  it('shows what would be sent with --dry-run and sends nothing', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    const r = await runJobs(['publish', 'a.yaml', '--dry-run', '--json'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: 1,
      dry_run: true,
      requests: [{ file: 'a.yaml', reference: 'A-1', method: 'POST', path: '/jobs', body: advertBody('A-1') }],
    });
  });

  it('reports JSON results', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    nock(SERVICE).post('/jobs').reply(201);
    const r = await runJobs(['--json', 'publish', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: 1,
      results: [{ file: 'a.yaml', document: 0, reference: 'A-1', status: 'created' }],
      summary: { created: 1, not_started: 0, total: 1 },
    });
  });

  it('needs a token and says where it looked (exit 2)', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^jobs: no token: set JOBS_TOKEN/);
  });
});

describe('jobs create', () => {
  it('treats a taken reference as a failure', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    nock(SERVICE)
      .post('/jobs')
      .reply(422, { errors: { reference: ['taken'] } });
    const r = await runJobs(['create', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('a.yaml:1:12: reference: is already taken [taken]');
  });
});

describe('exit codes and --json documents at the edges', () => {
  it('invalid input with --json: one JSON document carrying the findings and the error', async () => {
    const dir = tempFolder({ 'bad.yaml': advertYaml('B-1').replace('seniority: 0', 'seniority: x') });
    const r = await runJobs(['publish', 'bad.yaml', '--json'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ valid: false, sent: 0, error: { exit_code: 3 } });
    expect(doc.findings[0]).toMatchObject({ path: 'seniority', message: 'not_a_number' });
  });

  it('no command, or a command group without its subcommand, is a usage error (2); asked-for help is 0', async () => {
    expect((await runJobs([])).code).toBe(2);
    expect((await runJobs(['config'])).code).toBe(2);
    expect((await runJobs(['--help'])).code).toBe(0);
    expect((await runJobs(['help'])).code).toBe(0);
    expect((await runJobs(['help', 'sync'])).code).toBe(0);
  });
});

describe('service rejections in the machine formats', () => {
  const rejection = { errors: { title: ['too_long:5'] } };
  it('publish --output sarif: one SARIF document with the error at its YAML line', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    nock(SERVICE).post('/jobs').reply(422, rejection);
    const r = await runJobs(['publish', 'a.yaml', '--output', 'sarif'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(log.runs[0].results).toEqual([
      expect.objectContaining({
        ruleId: 'too_long',
        locations: [{ physicalLocation: { artifactLocation: { uri: 'a.yaml' }, region: { startLine: 2, startColumn: 8 } } }],
      }),
    ]);
  });

  it('sync --output github: an annotation per rejected field; a network failure annotates the advert', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    nock(SERVICE)
      .post('/jobs', (b) => b.reference === 'A-1')
      .reply(422, rejection)
      .post('/jobs', (b) => b.reference === 'B-2')
      .reply(404, 'not here');
    const r = await runJobs(['sync', '.', '--output', 'github', '--concurrency', '1'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(1);
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(annotations).toEqual([
      '::error file=a.yaml,line=2,col=8,title=jobs%3A too_long::title: is too long (maximum 5 characters) [too_long:5]',
      expect.stringMatching(/^::error file=b\.yaml,line=1,col=1,title=jobs%3A failed::POST \/jobs: /),
    ]);
  });
});
