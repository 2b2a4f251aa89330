/**
 * A project config (.jobsrc.yaml arrives with any checkout, a pull request's included) reads no
 * environment variable the user has not allowed by name, and the token, from whatever source, never
 * reaches a request body or the output. Commands run in-process; nock records every request.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, SERVICE, tempFolder } from '../../commands/harness.js';
import { tempDir } from '../../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const TOKEN = 'tok_live_0123456789abcdef';
const AWS = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

/** Answers any request; `sent` lists the bodies that reached it. */
function recordSends(): { sent: string[] } {
  const sent: string[] = [];
  const scope = nock(SERVICE).persist().post(/.*/).reply(201).put(/.*/).reply(200);
  scope.on('request', (_req: unknown, _interceptor: unknown, body: string) => sent.push(body));
  return { sent };
}

/** A home whose user config (and credentials store) are given; the env that points at it. */
function home(files: { config?: string; credentials?: object } = {}): Record<string, string> {
  const dir = tempDir('jobs-home-');
  const xdg = join(dir, 'config');
  mkdirSync(join(xdg, 'jobs'), { recursive: true });
  if (files.config !== undefined) writeFileSync(join(xdg, 'jobs', 'config.yaml'), files.config);
  if (files.credentials) {
    const path = join(xdg, 'jobs', 'credentials.json');
    writeFileSync(path, JSON.stringify(files.credentials));
    chmodSync(path, 0o600);
  }
  return { HOME: dir, XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: join(dir, 'state'), JOBS_BASE_URL: SERVICE };
}

const notAllowed = (name: string) =>
  `.jobsrc.yaml: defaults.question: \${${name}} is not read: a project config may read only the environment variables you allow by name, since it arrives with any checkout (a pull request's included); allow it with 'allow_env: [${name}]' in your user config or with --allow-env ${name}, or write the value itself`;

describe('${CI_SECRET} in a project config, the token from --token-file being the same text', () => {
  const files = () => tempFolder({ '.jobsrc.yaml': 'defaults:\n  question: "${CI_SECRET}"\n', 'a.yaml': advertYaml('A-1'), token: `${TOKEN}\n` });

  it('not allowed: exit 2 naming the variable, nothing sent, the token nowhere (publish, --dry-run, --json)', async () => {
    const dir = files();
    const { sent } = recordSends();
    for (const extra of [[], ['--dry-run'], ['--dry-run', '--json']]) {
      const r = await runJobs(['--token-file', 'token', 'publish', 'a.yaml', ...extra], { cwd: dir, env: { ...home(), CI_SECRET: TOKEN } });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`jobs: ${notAllowed('CI_SECRET')}\n`);
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
    }
    expect(sent).toEqual([]);
  });

  it('allowed by the user config: still refused, since it holds the token (exit 2), the token nowhere', async () => {
    const dir = files();
    const { sent } = recordSends();
    for (const extra of [[], ['--dry-run'], ['--dry-run', '--json']]) {
      const r = await runJobs(['--token-file', 'token', 'publish', 'a.yaml', ...extra], {
        cwd: dir,
        env: { ...home({ config: 'allow_env: [CI_SECRET]\n' }), CI_SECRET: TOKEN },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'jobs: .jobsrc.yaml: defaults.question: ${CI_SECRET} holds the service token (the same text as the token from --token-file); only profiles.<name>.token may read it',
      );
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
    }
    expect(sent).toEqual([]);
  });

  it('the token from the store of `jobs login`: the same', async () => {
    const dir = files();
    const { sent } = recordSends();
    const env = {
      ...home({ config: 'allow_env: [CI_SECRET]\n', credentials: { version: 1, profiles: { default: { token: TOKEN, base_url: SERVICE } } } }),
      CI_SECRET: TOKEN,
    };
    const r = await runJobs(['publish', 'a.yaml', '--dry-run'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\$\{CI_SECRET\} holds the service token \(the same text as the token from .*credentials\.json\)/);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(sent).toEqual([]);
  });
});

describe('${AWS_SECRET_ACCESS_KEY} in a project config', () => {
  const files = () => tempFolder({ '.jobsrc.yaml': 'defaults:\n  question: "${AWS_SECRET_ACCESS_KEY}"\n', 'a.yaml': advertYaml('A-1') });

  it('publish: exit 2, not copied into a body on the wire', async () => {
    const { sent } = recordSends();
    const r = await runJobs(['publish', 'a.yaml'], { cwd: files(), env: { ...home(), JOBS_TOKEN: TOKEN, AWS_SECRET_ACCESS_KEY: AWS } });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `jobs: ${notAllowed('AWS_SECRET_ACCESS_KEY')}\n` });
    expect(sent).toEqual([]);
  });

  it('publish --dry-run and validate: exit 2, not printed', async () => {
    const dir = files();
    for (const argv of [
      ['publish', 'a.yaml', '--dry-run'],
      ['publish', 'a.yaml', '--dry-run', '--json'],
      ['validate', 'a.yaml'],
    ]) {
      const r = await runJobs(argv, { cwd: dir, env: { ...home(), AWS_SECRET_ACCESS_KEY: AWS } });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout + r.stderr).not.toContain(AWS);
    }
  });

  it("a project config's own allow_env is ignored, with a warning", async () => {
    const dir = tempFolder({
      '.jobsrc.yaml': 'allow_env: [AWS_SECRET_ACCESS_KEY]\ndefaults:\n  question: "${AWS_SECRET_ACCESS_KEY}"\n',
      'a.yaml': advertYaml('A-1'),
    });
    const r = await runJobs(['publish', 'a.yaml', '--dry-run'], { cwd: dir, env: { ...home(), AWS_SECRET_ACCESS_KEY: AWS } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`jobs: ${notAllowed('AWS_SECRET_ACCESS_KEY')}\n`);
    expect(r.stdout + r.stderr).not.toContain(AWS);
  });

  it("a project profile's token or base_url reads nothing unallowed either", async () => {
    const dir = tempFolder({
      '.jobsrc.yaml': 'profiles:\n  default:\n    base_url: https://jobs.example.test/api\n    token: "${AWS_SECRET_ACCESS_KEY}"\n',
      'a.yaml': advertYaml('A-1'),
    });
    const { sent } = recordSends();
    const env = { ...home(), AWS_SECRET_ACCESS_KEY: AWS };
    delete (env as Record<string, string | undefined>).JOBS_BASE_URL;
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.jobsrc.yaml: profiles.default.token: ${AWS_SECRET_ACCESS_KEY} is not read: a project config may read only');
    expect(sent).toEqual([]);
  });
});

describe('a variable allowed by name', () => {
  const files = () => tempFolder({ '.jobsrc.yaml': 'defaults:\n  question: "${WHY_US}"\n', 'a.yaml': advertYaml('A-1') });

  it('in the user config: read into the advert and sent', async () => {
    const { sent } = recordSends();
    const r = await runJobs(['publish', 'a.yaml'], {
      cwd: files(),
      env: { ...home({ config: 'allow_env: [WHY_US, OTHER]\n' }), JOBS_TOKEN: TOKEN, WHY_US: 'Robots!' },
    });
    expect(r.code).toBe(0);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!)).toMatchObject({ reference: 'A-1', question: 'Robots!' });
  });

  it('with --allow-env: the same', async () => {
    const { sent } = recordSends();
    const r = await runJobs(['--allow-env', 'WHY_US', 'publish', 'a.yaml'], { cwd: files(), env: { ...home(), JOBS_TOKEN: TOKEN, WHY_US: 'Robots!' } });
    expect(r.code).toBe(0);
    expect(JSON.parse(sent[0]!)).toMatchObject({ question: 'Robots!' });
  });

  it('--allow-env with something that is not a variable name: usage error', async () => {
    const r = await runJobs(['--allow-env', 'WHY US', 'validate', 'a.yaml'], { cwd: files(), env: home() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"WHY US" is not an environment variable name');
  });

  it('the user config itself reads any variable, as before', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1') });
    const { sent } = recordSends();
    const r = await runJobs(['publish', 'a.yaml'], {
      cwd: dir,
      env: { ...home({ config: 'defaults:\n  question: "${WHY_US}"\n' }), JOBS_TOKEN: TOKEN, WHY_US: 'Robots!' },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(sent[0]!)).toMatchObject({ question: 'Robots!' });
  });
});

describe('the token in any output', () => {
  it('a literal copy in the defaults: a dry run shows *** (human and JSON), the real run refuses to send it', async () => {
    const dir = tempFolder({ '.jobsrc.yaml': `defaults:\n  question: ${TOKEN}\n`, 'a.yaml': advertYaml('A-1') });
    const env = home({ credentials: { version: 1, profiles: { default: { token: TOKEN, base_url: SERVICE } } } });
    const { sent } = recordSends();
    const human = await runJobs(['publish', 'a.yaml', '--dry-run'], { cwd: dir, env });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('"question": "***"');
    const json = await runJobs(['publish', 'a.yaml', '--dry-run', '--json'], { cwd: dir, env });
    expect(JSON.parse(json.stdout).requests[0].body.question).toBe('***');
    const real = await runJobs(['publish', 'a.yaml'], { cwd: dir, env });
    expect(real.code).toBe(2);
    for (const r of [human, json, real]) expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(sent).toEqual([]);
  });

  it('update --set with the token, --dry-run: ***', async () => {
    const dir = tempFolder({ token: TOKEN });
    const r = await runJobs(['--token-file', 'token', 'update', 'A-1', '--set', `question=${TOKEN}`, '--dry-run'], { cwd: dir, env: home() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"question": "***"');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('a service error that echoes it, with --verbose and --json: ***', async () => {
    const dir = tempFolder({ token: TOKEN });
    nock(SERVICE)
      .put('/jobs/A-1')
      .reply(422, { errors: { title: [`bad ${TOKEN}`] } });
    const r = await runJobs(['--token-file', 'token', '--verbose', '--json', 'update', 'A-1', '--set', 'title=x'], { cwd: dir, env: home() });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('***');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });
});
