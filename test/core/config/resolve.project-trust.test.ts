/**
 * What a project config (it arrives with any checkout, a pull request's included) cannot do with the
 * token: copy it into an advert, or lift the plain-http guard. Commands run in-process; nock
 * records every request that would leave.
 */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const TOKEN = serviceEnv.JOBS_TOKEN;

/** Answers any request with a body; `sent` lists what reached it. */
function recordSends(base: string): { sent: string[] } {
  const sent: string[] = [];
  const scope = nock(base).persist().post(/.*/).reply(201).put(/.*/).reply(200);
  scope.on('request', (_req: unknown, _interceptor: unknown, body: string) => sent.push(body));
  return { sent };
}

describe('a project config reading the token into defaults (even with the variable allowed)', () => {
  const files = { '.jobsrc.yaml': 'defaults:\n  question: "${JOBS_TOKEN}"\n', 'a.yaml': advertYaml('A-1') };
  const refusal =
    'jobs: .jobsrc.yaml: defaults.question: ${JOBS_TOKEN} holds the service token; only profiles.<name>.token may read it, so that the token never ends up in an advert, a URL or output\n';

  it('publish: exit 2, the variable named, nothing sent, the token nowhere', async () => {
    const { sent } = recordSends(SERVICE);
    const r = await runJobs(['--allow-env', 'JOBS_TOKEN', 'publish', 'a.yaml'], { cwd: tempFolder(files), env: serviceEnv });
    expect(r).toEqual({ code: 2, stdout: '', stderr: refusal });
    expect(sent).toEqual([]);
  });

  it('publish --dry-run (human and JSON): exit 2, the token not shown', async () => {
    const dir = tempFolder(files);
    for (const extra of [[], ['--json']]) {
      const r = await runJobs(['--allow-env', 'JOBS_TOKEN', 'publish', 'a.yaml', '--dry-run', ...extra], { cwd: dir, env: serviceEnv });
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
      expect(r.stdout + r.stderr).toContain('${JOBS_TOKEN} holds the service token');
    }
  });
});

describe('the token copied into an advert some other way', () => {
  it('publish: the client refuses the body, exit 2, nothing sent, the token nowhere', async () => {
    // The config file's own text is the token (the client's last line of defence is what stops it).
    const dir = tempFolder({ '.jobsrc.yaml': `defaults:\n  question: ${TOKEN}\n`, 'a.yaml': advertYaml('A-1') });
    const { sent } = recordSends(SERVICE);
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env: serviceEnv });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(
      '✖ failed A-1 a.yaml:1: refusing to send POST /jobs: the request body contains the service token\n' +
        '    Nothing was sent. Remove the copy of the token from the advert or event data, or from the defaults of a config file.\n',
    );
    expect(r.stderr).toBe('✖ 1 advert: 1 failed\n');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(sent).toEqual([]);
  });
});

describe('allow_insecure_http in a project config', () => {
  it('is ignored with a warning: the token is not sent over plain http (exit 2)', async () => {
    const http = 'http://jobs.example.test';
    const dir = tempFolder({
      '.jobsrc.yaml': `profiles:\n  default:\n    base_url: ${http}\nallow_insecure_http: true\n`,
      'a.yaml': advertYaml('A-1'),
    });
    const { sent } = recordSends(http);
    const r = await runJobs(['publish', 'a.yaml'], { cwd: dir, env: { JOBS_TOKEN: TOKEN } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "jobs: warning: .jobsrc.yaml: allow_insecure_http is ignored in a project config (a checkout must not be able to send your token over plain http); set it in your user config with 'jobs config set allow_insecure_http true'\n",
    );
    expect(r.stdout + r.stderr).toMatch(/refusing to send the token over plain http:\/\/ to jobs\.example\.test/);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(sent).toEqual([]);
  });
});
