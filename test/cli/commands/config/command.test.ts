/** login, logout, config and doctor run in-process: exact output, exit codes, files written. */
import { createServer, type Server } from 'node:http';
import { chmod, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, run, type Sandbox } from '../../../support/config-run.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const posix = process.platform !== 'win32';
const storePath = () => join(box.xdg, 'jobs', 'credentials.json');
const userConfig = () => join(box.xdg, 'jobs', 'config.yaml');
// These runs have no D-Bus session bus, hence no OS keyring (test/e2e/keyring.test.ts has a real one).
const noKeyring =
  'Note: no OS keyring answered, so the token is in a file only you can read (mode 0600): no D-Bus session bus for the Secret Service (DBUS_SESSION_BUS_ADDRESS is not set). Pass --insecure-storage to choose the file without trying the keyring.\n';

describe('jobs login', () => {
  it('--with-token stores the token from stdin for the default profile and never prints it', async () => {
    const result = await run(['login', '--with-token'], { env: box.env, cwd: box.project, stdin: 'tok-123456\n' });
    expect(result).toEqual({
      code: 0,
      stdout: `Stored the token for profile "default" in ${storePath()}.\n`,
      stderr: noKeyring + "Run 'jobs doctor' to check that the service accepts it.\n",
    });
    expect(JSON.parse(await readFile(storePath(), 'utf8'))).toEqual({ version: 1, profiles: { default: { token: 'tok-123456' } } });
    if (posix) expect((await stat(storePath())).mode & 0o777).toBe(0o600);
  });

  it('records the base URL and the selected profile', async () => {
    const result = await run(['--profile', 'ci', '--base-url', 'https://jobs.example.com/', 'login', '--with-token', '--json'], {
      env: box.env,
      cwd: box.project,
      stdin: 'tok-ci',
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      format_version: 1,
      profile: 'ci',
      storage: 'file',
      stored_in: storePath(),
      base_url: 'https://jobs.example.com',
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(await readFile(storePath(), 'utf8')).profiles).toEqual({ ci: { token: 'tok-ci', base_url: 'https://jobs.example.com' } });
    // The stored profile is usable afterwards without any other setting.
    const list = await run(['--profile', 'ci', 'config', 'list'], { env: box.env, cwd: box.project });
    expect(list.stdout).toContain(`base_url             https://jobs.example.com  credentials store ${storePath()}\n`);
    expect(list.stdout).toContain(`token                (set, from credentials store ${storePath()})\n`);
    expect(list.stdout).not.toContain('tok-ci');
  });

  it('an empty token is a usage error and stores nothing', async () => {
    const result = await run(['login', '--with-token'], { env: box.env, cwd: box.project, stdin: '  \n' });
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'jobs: no token on stdin; nothing was stored\n' });
    await expect(stat(storePath())).rejects.toThrow();
  });

  it('a token with inner spaces or line breaks is refused', async () => {
    const result = await run(['login', '--with-token'], { env: box.env, cwd: box.project, stdin: 'abc\ndef\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'jobs: the token contains spaces, line breaks or control characters; nothing was stored\n  Give exactly the token, on one line.\n',
    );
  });

  it('without a terminal and without --with-token it explains --with-token', async () => {
    const result = await run(['login'], { env: box.env, cwd: box.project, stdin: 'tok' });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'jobs: cannot prompt for the token: no terminal (or --no-input)\n  Pipe the token in instead:  echo "$JOBS_TOKEN" | jobs login --with-token\n',
    });
  });

  it('on a terminal it asks without echoing what is typed', async () => {
    const result = await run(['login'], { env: box.env, cwd: box.project, tty: { typed: 'typed-secret-42\r' } });
    expect(result.code).toBe(0);
    // readline moves the cursor with escape sequences; what matters is the text, and what is absent.
    const shown = result.stderr.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
    expect(shown).toBe(
      `The token will be stored in the OS keyring (service "jobs-cli", account "default"), or where no keyring answers in ${storePath()} (a file only you can read, mode 0600).\n` +
        'Token for profile "default" (input hidden): \n' +
        noKeyring +
        "Run 'jobs doctor' to check that the service accepts it.\n",
    );
    expect(result.stderr).not.toContain('typed-secret-42');
    expect(result.stdout).not.toContain('typed-secret-42');
    expect(JSON.parse(await readFile(storePath(), 'utf8')).profiles.default.token).toBe('typed-secret-42');
  });

  it('on a terminal with --insecure-storage, the prompt names the file', async () => {
    const result = await run(['--profile', 'ci', 'login', '--insecure-storage'], { env: box.env, cwd: box.project, tty: { typed: 'typed-secret-43\r' } });
    expect(result.code).toBe(0);
    expect(result.stderr.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')).toMatch(
      new RegExp(
        `^The token will be stored in ${storePath().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(a file only you can read, mode 0600\\)\\.\nToken for profile "ci" \\(input hidden\\): `,
      ),
    );
    expect(result.stdout).toBe(`Stored the token for profile "ci" in ${storePath()}.\n`);
  });

  it('says when JOBS_TOKEN will still win over the stored token', async () => {
    const result = await run(['login', '--with-token'], { env: { ...box.env, JOBS_TOKEN: 'env-token' }, cwd: box.project, stdin: 'stored' });
    expect(result.stderr).toBe(
      noKeyring +
        "Note: JOBS_TOKEN is set in this environment and takes precedence over the stored token.\nRun 'jobs doctor' to check that the service accepts it.\n",
    );
  });
});

describe('jobs logout', () => {
  it('removes the stored token, then says there was none, exiting 0 both times', async () => {
    await run(['login', '--with-token'], { env: box.env, cwd: box.project, stdin: 'tok' });
    expect(await run(['logout'], { env: box.env, cwd: box.project })).toEqual({
      code: 0,
      stdout: `Removed the stored token for profile "default" from ${storePath()}.\n`,
      stderr: '',
    });
    expect(JSON.parse(await readFile(storePath(), 'utf8'))).toEqual({ version: 1, profiles: {} });
    expect(await run(['logout'], { env: box.env, cwd: box.project })).toEqual({
      code: 0,
      stdout: 'No token was stored for profile "default"; nothing to remove.\n',
      stderr: '',
    });
  });

  it('--json', async () => {
    const result = await run(['--profile', 'x', 'logout', '--json'], { env: box.env, cwd: box.project });
    expect(JSON.parse(result.stdout)).toEqual({ format_version: 1, profile: 'x', removed: false, from: [], path: storePath() });
  });
});

describe('jobs config set / get / unset', () => {
  it('set writes the user config (0600), typed by the schema; get reads it back', async () => {
    expect(await run(['config', 'set', 'concurrency', '8'], { env: box.env, cwd: box.project })).toEqual({
      code: 0,
      stdout: `Set concurrency = 8 in ${userConfig()}.\n`,
      stderr: '',
    });
    await run(['config', 'set', 'profiles.prod.base_url', 'https://jobs.example.com'], { env: box.env, cwd: box.project });
    await run(['config', 'set', 'allow_insecure_http', 'false'], { env: box.env, cwd: box.project });
    await run(['config', 'set', 'timeout', '45s'], { env: box.env, cwd: box.project });
    expect(await readFile(userConfig(), 'utf8')).toBe(
      'concurrency: 8\nprofiles:\n  prod:\n    base_url: https://jobs.example.com\nallow_insecure_http: false\ntimeout: 45s\n',
    );
    if (posix) {
      expect((await stat(userConfig())).mode & 0o777).toBe(0o600);
      expect((await stat(join(box.xdg, 'jobs'))).mode & 0o777).toBe(0o700);
    }
    expect(await run(['config', 'get', 'concurrency'], { env: box.env, cwd: box.project })).toEqual({ code: 0, stdout: '8\n', stderr: '' });
    expect((await run(['--profile', 'prod', 'config', 'get', 'base_url'], { env: box.env, cwd: box.project })).stdout).toBe('https://jobs.example.com\n');
    expect((await run(['config', 'get', 'timeout'], { env: box.env, cwd: box.project })).stdout).toBe('45s\n');
    const json = await run(['config', 'get', 'profiles.prod', '--json'], { env: box.env, cwd: box.project });
    expect(JSON.parse(json.stdout)).toEqual({
      format_version: 1,
      key: 'profiles.prod',
      value: { base_url: 'https://jobs.example.com' },
      source: { kind: 'file', path: userConfig(), key: 'profiles.prod' },
    });
  });

  it('keeps comments, and edits the project config with --project', async () => {
    const project = await box.write('.jobsrc.yaml', '# team settings\nretries: 2 # flaky proxy\n');
    const result = await run(['config', 'set', '--project', 'constants.contract.permanent', '1'], { env: box.env, cwd: box.project });
    expect(result.stdout).toBe('Set constants.contract.permanent = 1 in .jobsrc.yaml.\n');
    expect(await readFile(project, 'utf8')).toBe('# team settings\nretries: 2 # flaky proxy\nconstants:\n  contract:\n    permanent: 1\n');
    expect(await run(['config', 'unset', '--project', 'constants.contract.permanent'], { env: box.env, cwd: box.project })).toEqual({
      code: 0,
      stdout: 'Removed constants.contract.permanent from .jobsrc.yaml.\n',
      stderr: '',
    });
    expect(await readFile(project, 'utf8')).toBe('# team settings\nretries: 2 # flaky proxy\n');
  });

  it('--project creates .jobsrc.yaml in the working directory when there is none', async () => {
    await run(['config', 'set', '--project', 'defaults.location.country', 'FR'], { env: box.env, cwd: box.project });
    expect(await readFile(join(box.project, '.jobsrc.yaml'), 'utf8')).toBe('defaults:\n  location:\n    country: FR\n');
  });

  it('with --config, edits the named file, the only one read', async () => {
    const named = await box.write(join(box.root, 'ci', 'jobs.yaml'), 'retries: 1\n');
    const result = await run(['--config', named, 'config', 'set', 'retries', '3'], { env: box.env, cwd: box.project });
    expect(result.stdout).toBe(`Set retries = 3 in ${named}.\n`);
    expect(await readFile(named, 'utf8')).toBe('retries: 3\n');
    await expect(stat(userConfig())).rejects.toThrow();
  });

  it('refuses to edit a JavaScript config', async () => {
    await box.write('jobs.config.mjs', 'export default { retries: 1 };\n');
    expect(await run(['config', 'set', '--project', 'retries', '3'], { env: box.env, cwd: box.project })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'jobs: jobs.config.mjs is JavaScript; jobs only edits YAML and JSON config files\n  Change the setting in that file by hand.\n',
    });
  });

  it('refuses allow_insecure_http in the project config, where it would be ignored', async () => {
    expect(await run(['config', 'set', '--project', 'allow_insecure_http', 'true'], { env: box.env, cwd: box.project })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "jobs: allow_insecure_http is not read from a project config: a checkout must not be able to send your token over plain http\n  Set it in your user config: 'jobs config set allow_insecure_http true' (without --project).\n",
    });
    await expect(stat(join(box.project, '.jobsrc.yaml'))).rejects.toThrow();
  });

  it('edits a JSON project config as JSON', async () => {
    const file = await box.write('.jobsrc.json', '{"retries": 2}\n');
    await run(['config', 'set', '--project', 'concurrency', '3'], { env: box.env, cwd: box.project });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ retries: 2, concurrency: 3 });
  });

  it('refuses to write a literal token, and accepts a ${VAR} reference', async () => {
    const refused = await run(['config', 'set', 'profiles.prod.token', 'abc123secret'], { env: box.env, cwd: box.project });
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'jobs: refusing to write a token into a config file, where it is easily copied or committed\n' +
        "  Store it with 'jobs --profile prod login' (kept in the OS keyring, or a file only you can read),\n" +
        "  or reference an environment variable: jobs config set profiles.prod.token '${PROD_TOKEN}'\n",
    });
    await expect(stat(userConfig())).rejects.toThrow();
    const accepted = await run(['config', 'set', 'profiles.prod.token', '${PROD_TOKEN}'], { env: box.env, cwd: box.project });
    expect(accepted.code).toBe(0);
    expect(await readFile(userConfig(), 'utf8')).toBe('profiles:\n  prod:\n    token: ${PROD_TOKEN}\n');
  });

  it('refuses values the schema rejects, leaving the file alone', async () => {
    await run(['config', 'set', 'concurrency', '8'], { env: box.env, cwd: box.project });
    expect(await run(['config', 'set', 'concurrency', '100'], { env: box.env, cwd: box.project })).toEqual({
      code: 2,
      stdout: '',
      stderr: `jobs: concurrency: must be at most 64\n  ${userConfig()} was not changed.\n`,
    });
    expect(await run(['config', 'set', 'retries', 'many'], { env: box.env, cwd: box.project })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'jobs: retries: expected a whole number, got "many"\n',
    });
    expect(await readFile(userConfig(), 'utf8')).toBe('concurrency: 8\n');
  });

  it('unknown keys get a "did you mean", and profile keys are pointed to profiles', async () => {
    expect((await run(['config', 'set', 'concurency', '8'], { env: box.env, cwd: box.project })).stderr).toBe(
      'jobs: concurency: unknown key; did you mean "concurrency"?\n',
    );
    expect((await run(['config', 'set', 'profiles.prod.baseurl', 'x'], { env: box.env, cwd: box.project })).stderr).toBe(
      'jobs: profiles.prod.baseurl: unknown key; did you mean "profiles.prod.base_url"?\n',
    );
    expect((await run(['config', 'get', 'base-url'], { env: box.env, cwd: box.project })).stderr).toBe(
      'jobs: base-url: unknown key; base_url belongs to a profile: profiles.<name>.base_url (the profile "default" is used when none is selected)\n',
    );
    expect((await run(['config', 'get', 'colour'], { env: box.env, cwd: box.project })).stderr).toBe(
      'jobs: colour: unknown key; known keys here: profile, profiles, defaults, constants, concurrency, timeout, retries, allow_env, allow_insecure_http, export, employer, wording, rules\n',
    );
  });

  it('get of an unset key exits 1; unset of an absent key exits 0 and says so', async () => {
    expect(await run(['config', 'get', 'profiles.prod.base_url'], { env: box.env, cwd: box.project })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'jobs: profiles.prod.base_url is not set\n',
    });
    expect(await run(['config', 'unset', 'retries'], { env: box.env, cwd: box.project })).toEqual({
      code: 0,
      stdout: `retries is not set in ${userConfig()}; nothing to remove.\n`,
      stderr: '',
    });
  });

  it('get token shows only that it is set and where from', async () => {
    const env = { ...box.env, JOBS_TOKEN: 'very-secret-token' };
    expect(await run(['config', 'get', 'token'], { env, cwd: box.project })).toEqual({ code: 0, stdout: '(set, from JOBS_TOKEN)\n', stderr: '' });
    expect(JSON.parse((await run(['config', 'get', 'token', '--json'], { env, cwd: box.project })).stdout)).toEqual({
      format_version: 1,
      key: 'token',
      set: true,
      source: { kind: 'env', name: 'JOBS_TOKEN' },
    });
  });

  it('unset can remove an unknown key left by a typo, which fixes the config', async () => {
    await box.write(userConfig(), 'concurency: 8\nretries: 1\n');
    expect((await run(['config', 'list'], { env: box.env, cwd: box.project })).code).toBe(2);
    expect((await run(['config', 'unset', 'concurency'], { env: box.env, cwd: box.project })).code).toBe(0);
    expect(await readFile(userConfig(), 'utf8')).toBe('retries: 1\n');
    expect((await run(['config', 'list'], { env: box.env, cwd: box.project })).code).toBe(0);
  });
});

describe('jobs config list / path', () => {
  it('lists every effective setting with its source, tokens masked', async () => {
    const project = await box.write(
      '.jobsrc.yaml',
      'profile: prod\nprofiles:\n  prod:\n    base_url: https://p.example.com\n    token: literal-secret-1\nconstants:\n  contract: {permanent: 1}\n',
    );
    await chmod(project, 0o600);
    await box.write(userConfig(), 'retries: 2\ndefaults:\n  skills: [go, rust]\n');
    const env = { ...box.env, JOBS_TOKEN: 'env-secret-2' };
    const result = await run(['--timeout', '10s', 'config', 'list'], { env, cwd: box.project });
    expect(result).toEqual({
      code: 0,
      stdout: [
        'profile                       prod                   .jobsrc.yaml: profile',
        'base_url                      https://p.example.com  .jobsrc.yaml: profiles.prod.base_url',
        'token                         (set, from JOBS_TOKEN)',
        'auth_scheme                   Bearer                 default',
        'concurrency                   4                      default',
        'timeout                       10s                    --timeout',
        `retries                       2                      ${userConfig()}: retries`,
        'allow_insecure_http           false                  default',
        'constants.contract.permanent  1                      .jobsrc.yaml',
        `defaults.skills               ["go","rust"]          ${userConfig()}`,
        'profiles.prod.base_url        https://p.example.com  .jobsrc.yaml',
        'profiles.prod.token           (set)                  .jobsrc.yaml',
        '',
      ].join('\n'),
      stderr: '',
    });
    const json = await run(['config', 'list', '--json'], { env, cwd: box.project });
    expect(json.stdout).not.toMatch(/secret/);
    const doc = JSON.parse(json.stdout) as { settings: Array<Record<string, unknown>>; files: string[] };
    expect(doc.settings.find((s) => s.key === 'token')).toEqual({ key: 'token', set: true, source: { kind: 'env', name: 'JOBS_TOKEN' }, from: 'JOBS_TOKEN' });
    expect(doc.files).toEqual([project, userConfig()]);
  });

  it('path shows the files in use', async () => {
    await box.write(join(box.home, 'work', '.jobsrc.yaml'), 'retries: 1\n');
    await box.write(userConfig(), 'retries: 2\n');
    expect(await run(['config', 'path'], { env: box.env, cwd: box.project })).toEqual({
      code: 0,
      stdout: `project config  ~/work/.jobsrc.yaml\nuser config     ${userConfig()}\ncredentials     ${storePath()} (not created yet)\n`,
      stderr: '',
    });
    const named = await run(['--config', 'ci.yaml', 'config', 'path'], { env: box.env, cwd: box.project });
    expect(named.stdout).toBe(
      `config file     ci.yaml (from --config; missing)\nproject config  not searched (--config given)\nuser config     not read (--config given)\ncredentials     ${storePath()} (not created yet)\n`,
    );
  });

  it('path says a JavaScript project config is not run', async () => {
    await box.write('.jobsrc.cjs', 'module.exports = {};\n');
    const r = await run(['config', 'path'], { env: box.env, cwd: box.project });
    expect(r.stdout).toMatch(/^project config {2}\.jobsrc\.cjs \(JavaScript: not run unless named with --config\)\n/);
  });

  it('a broken config is exit 2 with the file and key', async () => {
    await box.write('.jobsrc.yaml', 'profiles:\n  prod:\n    base_url: 42\n');
    expect(await run(['config', 'list'], { env: box.env, cwd: box.project })).toEqual({
      code: 2,
      stdout: '',
      stderr: "jobs: .jobsrc.yaml: profiles.prod.base_url: must be a string\n  Fix .jobsrc.yaml; 'jobs schema config' prints the config schema.\n",
    });
  });
});

describe('jobs doctor', () => {
  let server: Server;
  let status = 404;
  let requests: Array<{ method?: string; url?: string; authorization?: string }> = [];
  let baseUrl = '';

  beforeAll(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
    server = createServer((req, res) => {
      requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
      res.writeHead(status, { 'content-type': 'application/json' });
      if (status === 200) res.end('{"views":0,"likes":0,"applications":0,"applications_unviewed":0}');
      else res.end(JSON.stringify({ errors: { base: [status === 401 ? 'unauthorized' : 'not_found'] } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    nock.enableNetConnect();
  });
  beforeEach(() => {
    requests = [];
  });

  const normalise = (text: string) => text.replace(/jobs-doctor-[0-9a-f]{12}/g, 'jobs-doctor-<ref>').replaceAll(baseUrl, '<url>');

  it('a 404 for a random reference means reachable and accepted', async () => {
    status = 404;
    const env = { ...box.env, JOBS_TOKEN: 'doctor-secret', JOBS_BASE_URL: baseUrl };
    const result = await run(['--retries', '0', 'doctor'], { env, cwd: box.project });
    expect(result.code).toBe(0);
    expect(normalise(result.stdout)).toBe(
      [
        'Settings',
        '  profile              (none)',
        '  base_url             <url>  JOBS_BASE_URL',
        '  token                (set, from JOBS_TOKEN)',
        '  auth_scheme          Bearer                  default',
        '  concurrency          4                       default',
        '  timeout              30s                     default',
        '  retries              0                       --retries',
        '  allow_insecure_http  false                   default',
        '',
        'Checks',
        '  ok   config: no config file found; using flags, environment and defaults',
        '  ok   base URL: <url> (from JOBS_BASE_URL)',
        '  ok   token: found (from JOBS_TOKEN)',
        '  ok   proxy: none: the service is on loopback, which is never proxied',
        '  ok   service: reachable (GET /jobs/jobs-doctor-<ref>/stats answered 404)',
        '  ok   credentials: accepted',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('GET');
    expect(requests[0]!.url).toMatch(/^\/jobs\/jobs-doctor-[0-9a-f]{12}\/stats$/);
    expect(requests[0]!.authorization).toBe('Bearer doctor-secret');
  });

  it('a 401 is exit 4 with a hint about where the token came from', async () => {
    status = 401;
    await box.write(storePath(), JSON.stringify({ version: 1, profiles: { default: { token: 'stale-token' } } }));
    await chmod(storePath(), 0o600);
    const result = await run(['--retries', '0', 'doctor'], { env: { ...box.env, JOBS_BASE_URL: baseUrl }, cwd: box.project });
    expect(result.code).toBe(4);
    expect(normalise(result.stdout)).toContain(
      [
        '  ok   service: reachable (GET /jobs/jobs-doctor-<ref>/stats answered 401)',
        '  FAIL credentials: rejected (401 unauthorized)',
        `      The token came from 'jobs login' (${storePath()}); run 'jobs login' again to replace it.`,
        '',
      ].join('\n'),
    );
    expect(result.stdout).not.toContain('stale-token');
  });

  it('an unreachable service is exit 7', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const result = await run(['--retries', '0', '--timeout', '2s', 'doctor'], { env: { ...box.env, JOBS_TOKEN: 't', JOBS_BASE_URL: url }, cwd: box.project });
    expect(result.code).toBe(7);
    expect(result.stdout).toMatch(/\n {2}FAIL service: not reachable: .+\n {6}Check the base URL \(from JOBS_BASE_URL\), your network and any proxy\.\n$/);
  });

  it('missing base URL and token are exit 2 and nothing is sent', async () => {
    const result = await run(['doctor', '--json'], { env: box.env, cwd: box.project });
    expect(result.code).toBe(2);
    const doc = JSON.parse(result.stdout) as { ok: boolean; checks: unknown[] };
    expect(doc.ok).toBe(false);
    expect(doc.checks).toEqual([
      { name: 'config', ok: true, detail: 'no config file found; using flags, environment and defaults' },
      {
        name: 'base URL',
        ok: false,
        detail: 'not set',
        hints: [
          'Pass --base-url, set JOBS_BASE_URL, or run: jobs config set profiles.default.base_url https://... (the profile "default" is used when none is selected)',
        ],
      },
      { name: 'token', ok: false, detail: 'not found', hints: ["Run 'jobs login', set JOBS_TOKEN, or pass --token-file <file>."] },
    ]);
    expect(requests).toEqual([]);
  });

  it('a broken config is a failed check, exit 2', async () => {
    await box.write('.jobsrc.yaml', 'retries: lots\n');
    const result = await run(['doctor'], { env: box.env, cwd: box.project });
    expect(result).toEqual({
      code: 2,
      stdout:
        "Checks\n  FAIL config: .jobsrc.yaml: retries: must be an integer (a whole number)\n      Fix .jobsrc.yaml; 'jobs schema config' prints the config schema.\n",
      stderr: '',
    });
  });
});
