import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runJobs, SERVICE, serviceEnv, tempFolder } from '../../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('jobs update', () => {
  it('sends --set values typed by the schema, nested, without the reference', async () => {
    const scope = nock(SERVICE)
      .put('/jobs/ACME%2F2024%20%231', { location: { city: 'NO' }, seniority: 3, salary_text: '50000', skills: ['Go', 'Rust'] })
      .reply(200);
    const r = await runJobs(
      ['update', 'ACME/2024 #1', '--set', 'location.city=NO', '--set', 'seniority=3', '--set', 'salary_text=50000', '--set', 'skills=[Go, Rust]'],
      {
        env: serviceEnv,
      },
    );
    scope.done();
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✔ updated ACME/2024 #1\n');
  });

  it('merges a partial file with --set, the flags winning', async () => {
    const dir = tempFolder({ 'patch.yaml': 'reference: A-1\nrecruiter:\n  phone: "+47 1"\ntitle: Old\n' });
    const scope = nock(SERVICE)
      .put('/jobs/A-1', { recruiter: { phone: '+47 1' }, title: 'New' })
      .reply(200);
    const r = await runJobs(['update', 'A-1', 'patch.yaml', '--set', 'title=New'], { cwd: dir, env: serviceEnv });
    scope.done();
    expect(r.code).toBe(0);
  });

  it('refuses a file for another reference, and invalid values, before sending (exit 3)', async () => {
    const dir = tempFolder({ 'patch.yaml': 'reference: B-2\ntitle: X\n' });
    const other = await runJobs(['update', 'A-1', 'patch.yaml'], { cwd: dir, env: serviceEnv });
    expect(other.code).toBe(3);
    expect(other.stderr).toBe('jobs: patch.yaml:1:12: the file is for reference "B-2", not "A-1"; the reference cannot be changed\n');
    const bad = await runJobs(['update', 'A-1', '--set', 'seniority=lots', '--set', 'titel=x'], { env: serviceEnv });
    expect(bad.code).toBe(3);
    expect(bad.stdout).toBe(
      '✖ --set seniority: lots is not a number: seniority is a number of years (the minimum experience); write a whole number, e.g. 3 [not_a_number]\n✖ --set titel: is not a known field; did you mean title? [unknown_field:title]\n',
    );
  });

  it('needs something to update (exit 2)', async () => {
    const r = await runJobs(['update', 'A-1'], { env: serviceEnv });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('jobs: nothing to update: give a file of fields to change and/or --set path=value\n');
  });

  it('exits 5 when the advert does not exist', async () => {
    nock(SERVICE)
      .put('/jobs/GONE')
      .reply(404, { errors: { base: ['not_found'] } });
    const r = await runJobs(['update', 'GONE', '--set', 'title=x'], { env: serviceEnv });
    expect(r.code).toBe(5);
    expect(r.stdout).toContain('✖ failed GONE');
    expect(r.stdout).toContain('not found (404)');
    expect(r.stdout).not.toContain('--set:');
  });
});

describe('jobs delete', () => {
  it('refuses without --yes when not on a terminal, sending nothing (exit 2)', async () => {
    const r = await runJobs(['delete', 'A-1'], { env: serviceEnv });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('jobs: refusing to delete without confirmation: pass --yes to delete this advert\n');
  });

  it('deletes each reference with --yes and reports not found (exit 5)', async () => {
    const scope = nock(SERVICE)
      .delete('/jobs/A-1')
      .reply(200)
      .delete('/jobs/B-2')
      .reply(404, { errors: { base: ['not_found'] } });
    const r = await runJobs(['delete', 'A-1', 'B-2', '--yes'], { env: serviceEnv });
    scope.done();
    expect(r.stdout).toMatch(/^✔ deleted A-1\n✖ failed B-2: DELETE \/jobs\/B-2: not found \(404\)/);
    expect(r.code).toBe(5);
  });
});

describe('jobs stats', () => {
  it('prints a table with rates', async () => {
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, { views: 200, likes: 30, applications: 10, applications_unviewed: 4 })
      .get('/jobs/B-2/stats')
      .reply(200, { views: 0, likes: 0, applications: 0, applications_unviewed: 0 });
    const r = await runJobs(['stats', 'A-1', 'B-2'], { env: serviceEnv });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'REFERENCE  VIEWS  LIKES  APPLICATIONS  UNVIEWED  LIKE RATE  APPLY RATE',
        'A-1          200     30            10         4      15.0%        5.0%',
        'B-2            0      0             0         0          -           -',
        '',
        'Needs attention',
        '  A-1: 4 unviewed applications waiting',
        '',
      ].join('\n'),
    );
  });

  it('gives the four fields per reference in JSON, and errors beside them', async () => {
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(200, { views: 5, likes: 1, applications: 1, applications_unviewed: 1 })
      .get('/jobs/X/stats')
      .reply(404, { errors: { base: ['not_found'] } });
    const r = await runJobs(['stats', 'A-1', 'X', '--json'], { env: serviceEnv });
    expect(r.code).toBe(5);
    const doc = JSON.parse(r.stdout);
    expect(doc.stats[0]).toEqual({
      reference: 'A-1',
      views: 5,
      likes: 1,
      applications: 1,
      applications_unviewed: 1,
      like_rate: 0.2,
      application_rate: 0.2,
      change: null,
      needs_attention: ['1 unviewed application waiting'],
    });
    expect(doc.stats[1]).toMatchObject({ reference: 'X', error: { exit_code: 5 } });
  });
});

describe('jobs event', () => {
  it('posts the kind and data object', async () => {
    const scope = nock(SERVICE)
      .post('/job_applications/app%201/events', { kind: 'recruiter_reject', data: { reason: 'filled' } })
      .reply(200);
    const r = await runJobs(['event', 'app 1', 'recruiter_reject', '--data', '{"reason":"filled"}'], { env: serviceEnv });
    scope.done();
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✔ posted recruiter_reject for application app 1\n');
  });

  it('suggests the nearest kind and checks data locally (exit 2, nothing sent)', async () => {
    const kind = await runJobs(['event', 'app1', 'recruiter_veiw'], { env: serviceEnv });
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain('unknown event kind "recruiter_veiw"; did you mean recruiter_view?');
    const short = await runJobs(['event', 'app1', 'like'], { env: serviceEnv });
    expect(short.stderr).toContain('did you mean recruiter_like?');
    const data = await runJobs(['event', 'app1', 'recruiter_view', '--data', '[1]'], { env: serviceEnv });
    expect(data.code).toBe(2);
    expect(data.stderr).toContain('--data must be a JSON object');
  });

  it('reads --data-file as YAML or JSON', async () => {
    const dir = tempFolder({ 'd.yaml': 'note: called twice\n' });
    const scope = nock(SERVICE)
      .post('/job_applications/a1/events', { kind: 'recruiter_like', data: { note: 'called twice' } })
      .reply(200);
    const r = await runJobs(['event', 'a1', 'recruiter_like', '--data-file', 'd.yaml'], { cwd: dir, env: serviceEnv });
    scope.done();
    expect(r.code).toBe(0);
  });

  it('does not repeat an event after a 500 (exit 7)', async () => {
    const scope = nock(SERVICE).post('/job_applications/a1/events').once().reply(500);
    const r = await runJobs(['event', 'a1', 'recruiter_like'], { env: serviceEnv });
    scope.done();
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^jobs: POST \/job_applications\/a1\/events: service error \(500\)/);
  });
});

describe('jobs init --config', () => {
  it('writes a commented .jobsrc.yaml when no file is named', async () => {
    const dir = tempFolder({});
    const r = await runJobs(['init', '--config'], { cwd: dir });
    expect(r.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(`${dir}/.jobsrc.yaml`, 'utf8');
    expect(text).toMatch(/^#/m);
    expect(text).toContain('profiles:');
  });
});

describe('jobs update with config constants', () => {
  it('turns constant names into ids, from a file and from --set', async () => {
    const dir = tempFolder({ '.jobsrc.yaml': 'constants:\n  contract: { temporary: 2 }\n', 'u.yaml': 'contract_id: temporary\n' });
    const scope = nock(SERVICE).put('/jobs/A-1', { contract_id: 2 }).reply(200).put('/jobs/A-1', { contract_id: 2 }).reply(200);
    expect((await runJobs(['update', 'A-1', 'u.yaml'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    expect((await runJobs(['update', 'A-1', '--set', 'contract_id=temporary'], { cwd: dir, env: serviceEnv })).code).toBe(0);
    scope.done();
    const unknown = await runJobs(['update', 'A-1', '--set', 'contract_id=seasonal'], { cwd: dir, env: serviceEnv });
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toBe('✖ --set contract_id: seasonal is not a name in constants.contract (temporary), nor an id [inclusion]\n');
  });
});

describe('which command a run names', () => {
  it('skips the values of global options and stops at the first word', async () => {
    const { commandNamed } = await import('../../../../src/cli/program.js');
    expect(commandNamed(['--profile', 'publish', 'validate', 'x'])).toBe('validate');
    expect(commandNamed(['--json', 'stats', 'A'])).toBe('stats');
    expect(commandNamed(['valdate'])).toBeUndefined();
    expect(commandNamed(['help', 'sync'])).toBeUndefined();
    expect(commandNamed([])).toBeUndefined();
  });
  it('a global option whose value is a command name still runs the right command', async () => {
    // validate's own argument check answers, so validate (not publish) was built and parsed.
    const r = await runJobs(['--profile', 'publish', 'validate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("missing required argument 'paths'");
  });
});
