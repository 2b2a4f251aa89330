/** --sandbox as a source of settings: the base URL and token come from it, and from nothing else. */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveDetailed } from '../../../src/core/config/resolve.js';
import { SANDBOX_TOKEN } from '../../../src/core/config/sandbox-source.js';
import { ConfigError } from '../../../src/core/errors/failures.js';
import { runJobs } from '../../commands/harness.js';
import { globals, makeSandbox, type Sandbox } from '../../support/config-run.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

/** Every other source of a base URL and a token, set: the environment, a project profile, the credentials store. */
async function everyOtherSource(): Promise<Record<string, string>> {
  await box.write('.jobsrc.yaml', 'profile: prod\nprofiles:\n  prod:\n    base_url: https://elsewhere.example\n    token: tok_from_the_checkout_0123456789\n');
  const store = await box.write(
    join(box.xdg, 'jobs', 'credentials.json'),
    JSON.stringify({ version: 1, profiles: { prod: { token: 'tok_from_the_store_0123456789', base_url: 'https://elsewhere.example' } } }),
  );
  await chmod(store, 0o600);
  return { JOBS_BASE_URL: 'https://jobs.example.test', JOBS_TOKEN: 'tok_from_the_env_0123456789' };
}

describe('--sandbox resolved as a source', () => {
  it('gives the base URL and the sandbox token, whatever the flags, environment, project config and store say', async () => {
    const env = await everyOtherSource();
    const { config } = await resolveDetailed({
      cwd: box.project,
      env: { ...box.env, ...env },
      globals: globals({ sandbox: true, baseUrl: 'https://flag.example' }),
    });
    expect(config.baseUrl).toEqual({ value: undefined, source: { kind: 'sandbox' } });
    expect(config.token).toEqual({ value: SANDBOX_TOKEN, source: { kind: 'sandbox' } });
    expect(config.profile.value).toBe('prod');
  });

  it('without the flag, the project config cannot turn it on: `sandbox` is not a config key', async () => {
    await box.write('.jobsrc.yaml', 'sandbox: true\n');
    const error = await resolveDetailed({ cwd: box.project, env: box.env, globals: globals() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      '.jobsrc.yaml: sandbox: unknown key; known keys here: profile, profiles, defaults, constants, concurrency, timeout, retries, allow_env, allow_insecure_http, export, employer, wording, rules',
    );
  });

  it('with the flag, a project config cannot turn it off or point it elsewhere', async () => {
    await box.write(
      '.jobsrc.yaml',
      'profiles:\n  default:\n    base_url: https://elsewhere.example\n    token: tok_from_the_checkout_0123456789\n    auth_scheme: Token\n',
    );
    const { config } = await resolveDetailed({ cwd: box.project, env: box.env, globals: globals({ sandbox: true }) });
    expect(config.baseUrl.source).toEqual({ kind: 'sandbox' });
    expect(config.token).toEqual({ value: SANDBOX_TOKEN, source: { kind: 'sandbox' } });
  });

  it('`config list` and `config list --json` say the URL and the token come from --sandbox', async () => {
    const dir = box.project;
    await writeFile(join(dir, '.jobsrc.yaml'), 'concurrency: 2\n');
    const env = { JOBS_BASE_URL: 'https://jobs.example.test', JOBS_TOKEN: 'tok_from_the_env_0123456789' };
    const human = await runJobs(['--sandbox', 'config', 'list'], { cwd: dir, env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^base_url +\(the embedded sandbox\) +--sandbox$/m);
    expect(human.stdout).toMatch(/^token +\(set, from --sandbox\)$/m);
    expect(human.stdout).not.toContain('jobs.example.test');
    const json = await runJobs(['--sandbox', 'config', 'list', '--json'], { cwd: dir, env });
    const rows = JSON.parse(json.stdout) as unknown;
    expect(JSON.stringify(rows)).not.toContain('tok_from_the_env');
    expect(JSON.stringify(rows)).toContain('"kind":"sandbox"');
  });
});

describe('jobs --sandbox login', () => {
  it('is refused before reading a token (exit 2): a token stored then would be bound to no service URL', async () => {
    const run = await runJobs(['--sandbox', 'login', '--with-token'], { cwd: box.project, stdin: 'tok_typed_in_0123456789\n' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--sandbox uses the sandbox's own token: there is nothing to log in to; run 'jobs login' without --sandbox");
    expect(run.stdout).toBe('');
  });
});
