/**
 * What stood in a new user's way in the first hour (issue 22): each check is what the user sees.
 */
import nock from 'nock';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { History } from '../../src/core/history/store.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, SERVICE, tempFolder } from '../commands/harness.js';
import { tempDir } from '../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('sync without a token', () => {
  it('fails on the credentials before drawing the plan (exit 2, nothing on stdout)', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const r = await runJobs(['sync', '.'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no token: set JOBS_TOKEN');
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('Plan:');
  });

  it('a dry run still needs no token', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    const r = await runJobs(['sync', '.', '--dry-run'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('+ A-1  a.yaml\n');
  });
});

describe('YAML syntax errors, explained', () => {
  it("a duplicated key names the key and where it first appeared; the parser's drawing stays lines", async () => {
    const dir = tempFolder({ 'a.yaml': `${advertYaml('A-1')}education: 2\n` });
    const r = await runJobs(['validate', 'a.yaml'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      [
        '✖ a.yaml:18:1: education: duplicate key; first at line 12 (a field is written once: keep one of the two)',
        '      email: hr@acme.example',
        '    education: 2',
        '    ^',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe('✖ 1 error: 0 adverts in 1 file checked, 1 file with YAML errors\n');
  });

  it('a nested duplicate names its path', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1').replace('  city: Oslo\n', '  city: Oslo\n  city: Bergen\n') });
    const r = await runJobs(['validate', 'a.yaml'], { cwd: dir });
    expect(r.stdout.split('\n')[0]).toBe('✖ a.yaml:16:3: location.city: duplicate key; first at line 15 (a field is written once: keep one of the two)');
  });

  it('a tab used for indentation says which line and to use spaces', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1').replace('  email: hr@acme.example', '\temail: hr@acme.example') });
    const r = await runJobs(['validate', 'a.yaml'], { cwd: dir });
    expect(r.stdout.split('\n').slice(0, 4)).toEqual([
      '✖ a.yaml:17:1: line 17 is indented with a tab; use spaces (YAML does not allow tabs for indentation)',
      '    recruiter:',
      '    →email: hr@acme.example',
      '    ^',
    ]);
  });

  it("a GitHub annotation carries the explained message, not the parser's drawing", async () => {
    const dir = tempFolder({ 'a.yaml': `${advertYaml('A-1')}education: 2\n` });
    const r = await runJobs(['validate', '--output', 'github', 'a.yaml'], { cwd: dir });
    expect(r.stdout).toBe(
      '::error file=a.yaml,line=18,col=1,title=jobs%3A duplicate_key::education: duplicate key; first at line 12 (a field is written once: keep one of the two)\n',
    );
  });

  it('a syntax error in one document does not hide the errors of the others', async () => {
    const dir = tempFolder({
      'a.yaml': `${advertYaml('A-1')}title: again\n---\n${advertYaml('A-2').replace('title: Engineer', 'title: ""')}---\n${advertYaml('A-3').replace('seniority: 0', 'seniority: [3')}`,
    });
    const r = await runJobs(['validate', 'a.yaml'], { cwd: dir });
    const findings = r.stdout.split('\n').filter((l) => l.startsWith('✖'));
    expect(findings).toEqual([
      '✖ a.yaml:18:1: title: duplicate key; first at line 2 (a field is written once: keep one of the two)',
      '✖ a.yaml:21:8: title: must not be blank [blank]',
      expect.stringMatching(/^✖ a\.yaml:\d+:\d+: Flow sequence in block collection must be sufficiently indented and end with a \]$/),
    ]);
    expect(r.stderr).toBe('✖ 3 errors: 1 advert in 1 file checked, 1 invalid, 1 file with YAML errors\n');
  });
});

describe('a duplicated reference alone', () => {
  it('is counted as an invalid advert, in the summary and in --json', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('A-1') });
    const r = await runJobs(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('✖ b.yaml:1:12: reference "A-1" is already used by a.yaml:1:12; each advert needs its own\n');
    expect(r.stderr).toBe('✖ 1 error: 2 adverts in 2 files checked, 1 invalid (1 duplicate reference)\n');
    const json = await runJobs(['validate', '.', '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout).summary).toMatchObject({ files: 2, adverts: 2, valid: 1, invalid: 1, errors: 1 });
  });

  it('publish says so too, and sends nothing', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('A-1') });
    const r = await runJobs(['publish', '.'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('1 error in the advert files (1 of 2 adverts invalid (1 duplicate reference)); nothing was sent');
  });
});

describe('common value mistakes get the fix', () => {
  const check = async (from: string, to: string, env: Record<string, string> = {}) => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1').replace(from, to) });
    const r = await runJobs(['validate', 'a.yaml'], { cwd: dir, env });
    expect(r.code).toBe(3);
    return r.stdout.trimEnd();
  };

  it('an e-mail address with a comma for a dot, without a top-level domain, with a space', async () => {
    expect(await check('email: hr@acme.example', 'email: hiring@acme,com')).toBe(
      '✖ a.yaml:17:10: recruiter.email: hiring@acme,com has a comma where a dot belongs: write hiring@acme.com [invalid]',
    );
    expect(await check('email: hr@acme.example', 'email: hiring@acme')).toBe(
      '✖ a.yaml:17:10: recruiter.email: hiring@acme has no top-level domain after acme: write the whole domain, e.g. hiring@acme.com [invalid]',
    );
    expect(await check('email: hr@acme.example', 'email: hiring @acme.com')).toBe(
      '✖ a.yaml:17:10: recruiter.email: hiring @acme.com has a space in it: an e-mail address has none; write hiring@acme.com [invalid]',
    );
    expect(await check('email: hr@acme.example', 'email: hiring.acme.com')).toBe(
      '✖ a.yaml:17:10: recruiter.email: hiring.acme.com has no @: write the address as name@domain, e.g. hiring@example.com [invalid]',
    );
  });

  it('a comma list where a YAML list is needed shows the list to write', async () => {
    expect(await check('education: 0\n', 'education: 0\nskills: Node.js, TypeScript\n')).toBe(
      '✖ a.yaml:13:9: skills: is a list, not one text: write skills: [Node.js, TypeScript], or each item on its own line under skills: as "- item" [invalid]',
    );
  });

  it('a contract name without constants says that names need constants.contract, and shows the line', async () => {
    expect(await check('contract_id: 1', 'contract_id: permanent')).toBe(
      '✖ a.yaml:6:14: contract_id: permanent is a name, and names need constants.contract in the config (constants: {contract: {permanent: <id>}}, or: jobs config set constants.contract.permanent <id>); or write the id: contract_id: <id> [not_a_number]',
    );
  });

  it('seniority in words says it is a number of years', async () => {
    expect(await check('seniority: 0', 'seniority: three years')).toBe(
      '✖ a.yaml:11:12: seniority: three years is not a number: seniority is a number of years (the minimum experience); write 3 [not_a_number]',
    );
    expect(await check('seniority: 0', 'seniority: 5+ years')).toContain('write 5 [not_a_number]');
  });
});

describe('jobs init --config', () => {
  it('writes its placeholders commented out: an incomplete advert stays invalid, and no made-up name or id is active', async () => {
    const dir = tempFolder({});
    const r = await runJobs(['init', '--config', '.jobsrc.yaml'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(dir, '.jobsrc.yaml'), 'utf8');
    expect(text).toContain('# defaults:\n#   organization_name: ACME Robotics\n');
    expect(text).toContain('# constants:\n#   contract:\n#     permanent: 1\n');
    const active = text.split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
    expect(active).toEqual(['concurrency: 4                    # requests at once in publish, sync and events (4 is the default)']);
    writeFileSync(join(dir, 'a.yaml'), advertYaml('A-1').replace('organization_name: ACME\n', ''));
    const check = await runJobs(['validate', 'a.yaml'], { cwd: dir });
    expect(check.stdout).toBe('✖ a.yaml:1:1: organization_name: is missing (required) [missing]\n');
    expect(check.code).toBe(3);
    // The settings in effect come from the file (it is not passed over as empty), and name no service.
    const list = await runJobs(['--json', 'config', 'list'], { cwd: dir });
    const settings = JSON.parse(list.stdout).settings as { key: string; value: unknown }[];
    expect(settings.find((s) => s.key === 'base_url')?.value ?? null).toBeNull();
    expect(settings.find((s) => s.key === 'concurrency')).toMatchObject({ value: 4 });
  });

  it('writes what the user chose active: --base-url and --profile', async () => {
    const dir = tempFolder({});
    const r = await runJobs(['init', '--config', '.jobsrc.yaml', '--base-url', 'https://jobs.acme.test/api', '--profile', 'live'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(dir, '.jobsrc.yaml'), 'utf8');
    expect(text).toContain('profile: live\n\nprofiles:\n  live:\n    base_url: https://jobs.acme.test/api\n');
    const list = await runJobs(['--json', 'config', 'list'], { cwd: dir });
    const settings = JSON.parse(list.stdout).settings as { key: string; value: unknown }[];
    expect(settings.find((s) => s.key === 'base_url')?.value).toBe('https://jobs.acme.test/api');
  });
});

describe('validate . in a project root', () => {
  it('reads the adverts, not package.json, package-lock.json, tsconfig.json, node_modules or .github workflows', async () => {
    const root = join(import.meta.dirname, '../..');
    const dir = tempFolder({
      'package.json': readFileSync(join(root, 'package.json'), 'utf8'),
      'package-lock.json': readFileSync(join(root, 'package-lock.json'), 'utf8'),
      'tsconfig.json': readFileSync(join(root, 'tsconfig.json'), 'utf8'),
      'tsconfig.build.json': readFileSync(join(root, 'tsconfig.build.json'), 'utf8'),
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      'docker-compose.yml': 'services:\n  web:\n    image: nginx\n',
      'node_modules/some-package/package.json': '{"name": "some-package"}\n',
      'node_modules/some-package/config.yaml': 'a: 1\n',
      '.github/workflows/adverts.yml': readFileSync(join(root, 'examples/.github/workflows/adverts.yml'), 'utf8'),
      '.jobsrc.yaml': 'concurrency: 4\n',
      'adverts/backend.yaml': advertYaml('A-1'),
      'adverts/team.json': JSON.stringify({ reference: 'A-2' }),
    });
    const r = await runJobs(['validate', '.'], { cwd: dir });
    // The advert written as JSON is still read (it is invalid: only a reference).
    expect(r.stdout.split('\n').every((l) => l === '' || l.startsWith('✖ adverts/team.json:'))).toBe(true);
    expect(r.stderr).toBe('✖ 13 errors: 2 adverts in 2 files checked, 1 invalid\n');
    const adverts = await runJobs(['validate', '.'], { cwd: join(dir, 'adverts') });
    expect(adverts.stderr).toContain('2 adverts in 2 files checked');
    // Named on the command line, a file is read whatever its name.
    const named = await runJobs(['validate', 'package.json'], { cwd: dir });
    expect(named.code).toBe(3);
    expect(named.stdout).toContain('package.json:1:1: reference: is missing');
  });
});

describe('config set and doctor say what takes effect', () => {
  const box = () => {
    const dir = tempFolder({});
    return { dir, env: { XDG_CONFIG_HOME: join(dir, 'config') } };
  };

  it('doctor without a base URL suggests commands that select the profile they set', async () => {
    const { dir, env } = box();
    const r = await runJobs(['doctor'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain(
      `Pass --base-url, set JOBS_BASE_URL, or run: jobs config set profiles.default.base_url https://... (the profile "default" is used when none is selected)`,
    );
    // Following the hint works: the next doctor finds the base URL.
    const set = await runJobs(['config', 'set', 'profiles.default.base_url', 'https://jobs.acme.test/api'], { cwd: dir, env });
    expect(set.stderr).toBe('');
    const again = await runJobs(['doctor'], { cwd: dir, env });
    expect(again.stdout + again.stderr).toMatch(/ok +base URL: https:\/\/jobs\.acme\.test\/api/);
  });

  it('config set of a profile that is not in use says so, and how to select it', async () => {
    const { dir, env } = box();
    const r = await runJobs(['config', 'set', 'profiles.staging.base_url', 'https://staging.acme.test/api'], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "Note: profiles.staging is not used: no profile is selected; select it with 'jobs config set profile staging', --profile staging or JOBS_PROFILE=staging\n",
    );
    const selected = await runJobs(['--profile', 'staging', 'config', 'set', 'profiles.staging.auth_scheme', 'Token'], { cwd: dir, env });
    expect(selected.stderr).toBe('');
  });

  it('config set of a key a flag or the environment overrides says so', async () => {
    const { dir, env } = box();
    await runJobs(['config', 'set', 'profile', 'prod'], { cwd: dir, env });
    const r = await runJobs(['config', 'set', 'profiles.prod.base_url', 'https://jobs.acme.test/api'], {
      cwd: dir,
      env: { ...env, JOBS_BASE_URL: 'https://other.acme.test/api' },
    });
    expect(r.stderr).toBe('Note: profiles.prod.base_url is not used while JOBS_BASE_URL is set: it wins over the config\n');
    const t = await runJobs(['--timeout', '5s', 'config', 'set', 'timeout', '10s'], { cwd: dir, env });
    expect(t.stderr).toMatch(/^Note: timeout is not used while --timeout is set: it wins over .*config\.yaml\n$/);
  });

  it('config set --project creates .jobsrc.yaml readable by the team (0666 less the umask, not 0600)', async () => {
    const { dir, env } = box();
    const old = process.umask(0o022);
    try {
      const r = await runJobs(['config', 'set', '--project', 'concurrency', '2'], { cwd: dir, env });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      process.umask(old);
    }
    expect(statSync(join(dir, '.jobsrc.yaml')).mode & 0o777).toBe(0o644);
    // The user config, which may hold secrets, is still created 0600.
    await runJobs(['config', 'set', 'concurrency', '3'], { cwd: dir, env });
    expect(statSync(join(dir, 'config', 'jobs', 'config.yaml')).mode & 0o777).toBe(0o600);
  });
});

describe('dry runs print the path that is sent', () => {
  it('publish --dry-run: the PUT a taken reference gets, encoded', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('"ACME 2026/backend"') });
    const r = await runJobs(['publish', 'a.yaml', '--dry-run'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('POST /jobs (then PUT /jobs/ACME%202026%2Fbackend if the reference is taken)  a.yaml');
  });

  it('update --dry-run: the path the client sends, as nock sees it', async () => {
    const dir = tempFolder({});
    const r = await runJobs(['update', "ACME (2026)/backend's", '--set', 'title=New', '--dry-run'], {
      cwd: dir,
      env: { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' },
    });
    expect(r.code, r.stderr).toBe(0);
    const shown = r.stdout.split('\n')[0]!;
    expect(shown).toBe('PUT /jobs/ACME%20%282026%29%2Fbackend%27s');
    const scope = nock(SERVICE).put(shown.slice('PUT '.length)).reply(200);
    const sent = await runJobs(['update', "ACME (2026)/backend's", '--set', 'title=New'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' } });
    expect(sent.code, sent.stderr).toBe(0);
    scope.done();
  });
});

describe('jobs report in a clone', () => {
  it('writes .jobs/report.html by default, in a folder git leaves out of git status', async () => {
    const dir = tempFolder({ 'adverts/a.yaml': advertYaml('A-1') });
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('git', ['-C', dir, 'add', '.']);
    execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-qm', 'adverts']);
    const history = tempDir('jobs-history-');
    new History(history, SERVICE).append([{ reference: 'A-1', at: Date.now() - 86_400_000, views: 3, likes: 1, applications: 1, applications_unviewed: 0 }]);
    const r = await runJobs(['report', '--history-dir', history], { cwd: dir, env: { JOBS_BASE_URL: SERVICE } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^wrote \.jobs\/report\.html: 1 advert/);
    expect(readFileSync(join(dir, '.jobs', 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(execFileSync('git', ['-C', dir, 'status', '--porcelain'], { encoding: 'utf8' })).toBe('');
  });
});

describe('events after a 404', () => {
  it('does not say a rerun retries what a rerun gets the same 404 for; it says what to do', async () => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind\na1,recruiter_view\nnope,recruiter_like\n' });
    const scope = nock(SERVICE)
      .post('/job_applications/a1/events')
      .reply(200)
      .post('/job_applications/nope/events')
      .reply(404, { errors: { base: ['not_found'] } });
    const r = await runJobs(['events', 'e.csv', '--concurrency', '1'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' } });
    scope.done();
    expect(r.code).toBe(5);
    expect(r.stderr).not.toContain('rerun the same command to retry');
    expect(r.stderr).toContain(
      '  1 event names an application the service does not know (404), and a rerun gets the same answer: check the application_id on that line (a typo, or an application of another client), correct or remove it, then rerun; accepted events are skipped\n',
    );
  });

  it('a failure on the way is still retried by a rerun', async () => {
    const dir = tempFolder({ 'e.csv': 'application_id,kind\na1,recruiter_view\n' });
    nock(SERVICE).post('/job_applications/a1/events').times(6).reply(503);
    const r = await runJobs(['--retries', '0', 'events', 'e.csv'], { cwd: dir, env: { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' } });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(
      '  rerun the same command to retry the 1 event that failed on the way (network, timeout, service error or quota); accepted ones are skipped\n',
    );
  });
});

describe('sync --prune without a terminal', () => {
  it('with --json (no plan drawn), the refusal names the adverts it would delete; nothing is sent', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const env = { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' };
    const scope = nock(SERVICE).post('/jobs').times(2).reply(201);
    expect((await runJobs(['sync', '.'], { cwd: dir, env })).code).toBe(0);
    scope.done();
    rmSync(join(dir, 'b.yaml'));
    const r = await runJobs(['--json', 'sync', '.', '--prune'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('refusing to delete 1 advert without confirmation; nothing was sent');
    expect(r.stdout + r.stderr).toContain('- B-2  (b.yaml)');
    expect(nock.pendingMocks()).toEqual([]);
  });
});
