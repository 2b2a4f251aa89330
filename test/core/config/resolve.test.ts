import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/core/config/resolve.js';
import { ConfigError, ExitCode, UsageError } from '../../../src/core/errors/failures.js';
import { globals, makeSandbox, type Sandbox } from '../../support/config-run.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

function resolveIn(options: { env?: Record<string, string>; cwd?: string; flags?: Parameters<typeof globals>[0] } = {}) {
  return resolveConfig({ cwd: options.cwd ?? box.project, env: { ...box.env, ...options.env }, globals: globals(options.flags) });
}

async function configError(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).exitCode).toBe(ExitCode.usage);
  return error as ConfigError;
}

describe('defaults', () => {
  it('without any config, flag or variable, uses the documented defaults', async () => {
    const config = await resolveIn();
    expect(config.profile).toEqual({ value: undefined, source: { kind: 'default' } });
    expect(config.baseUrl).toEqual({ value: undefined, source: { kind: 'default' } });
    expect(config.token).toBeUndefined();
    expect(config.authScheme).toEqual({ value: 'Bearer', source: { kind: 'default' } });
    expect(config.concurrency).toEqual({ value: 4, source: { kind: 'default' } });
    expect(config.timeoutMs).toEqual({ value: 30_000, source: { kind: 'default' } });
    expect(config.retries).toEqual({ value: 5, source: { kind: 'default' } });
    expect(config.defaults).toEqual({});
    expect(config.constants).toEqual({});
    expect(config.files).toEqual([]);
    expect(config.warnings).toEqual([]);
  });
});

describe('project config file names', () => {
  const cases: Array<[string, string]> = [
    ['package.json', JSON.stringify({ name: 'x', jobs: { concurrency: 7 } })],
    ['.jobsrc', 'concurrency: 7\n'],
    ['.jobsrc.json', '{"concurrency": 7}'],
    ['.jobsrc.yaml', 'concurrency: 7\n'],
    ['.jobsrc.yml', 'concurrency: 7\n'],
  ];
  const javaScript: Array<[string, string]> = [
    ['.jobsrc.js', 'module.exports = { concurrency: 7 };\n'],
    ['.jobsrc.cjs', 'module.exports = { concurrency: 7 };\n'],
    ['.jobsrc.mjs', 'export default { concurrency: 7 };\n'],
    ['jobs.config.js', 'module.exports = { concurrency: 7 };\n'],
    ['jobs.config.cjs', 'module.exports = { concurrency: 7 };\n'],
    ['jobs.config.mjs', 'export default { concurrency: 7 };\n'],
  ];
  it.each(cases)('finds %s in the working directory', async (name, text) => {
    const file = await box.write(name, text);
    const config = await resolveIn();
    expect(config.concurrency).toEqual({ value: 7, source: { kind: 'file', path: file, key: 'concurrency' } });
    expect(config.files).toEqual([file]);
  });

  it.each(javaScript)('finds %s but does not run it, and says how to; named with --config it runs', async (name, text) => {
    const file = await box.write(name, text);
    // The search ends at the nearest file: a YAML config further up does not apply in its place.
    await box.write(join(box.home, '.jobsrc.yaml'), 'concurrency: 3\n');
    const found = await resolveIn();
    expect(found.concurrency).toEqual({ value: 4, source: { kind: 'default' } });
    expect(found.files).toEqual([]);
    expect(found.warnings).toEqual([
      `${name} was not loaded: a JavaScript config found by searching from the working directory is not run, because any checkout (a pull request in CI, say) could bring one; name it with --config ${name} or JOBS_CONFIG to run it, or write the settings as .jobsrc.yaml`,
    ]);
    const named = await resolveIn({ flags: { config: name } });
    expect(named.concurrency).toEqual({ value: 7, source: { kind: 'file', path: file, key: 'concurrency' } });
    expect(named.warnings).toEqual([]);
    expect((await resolveIn({ env: { JOBS_CONFIG: file } })).concurrency.value).toBe(7);
  });

  it('ignores a package.json without a "jobs" key and keeps searching upwards', async () => {
    await box.write('package.json', JSON.stringify({ name: 'x' }));
    const above = await box.write(join(box.home, 'work', '.jobsrc.yaml'), 'retries: 2\n');
    const config = await resolveIn();
    expect(config.retries).toEqual({ value: 2, source: { kind: 'file', path: above, key: 'retries' } });
  });

  it('reads only the nearest project config, searching from a subdirectory upwards', async () => {
    await box.write(join(box.home, 'work', '.jobsrc.yaml'), 'retries: 2\nconcurrency: 9\n');
    const near = await box.write('.jobsrc.yaml', 'retries: 3\n');
    const sub = join(box.project, 'adverts', 'eng');
    await mkdir(sub, { recursive: true });
    const config = await resolveIn({ cwd: sub });
    expect(config.retries.value).toBe(3);
    expect(config.concurrency).toEqual({ value: 4, source: { kind: 'default' } });
    expect(config.files).toEqual([near]);
  });

  it('stops searching at the home directory', async () => {
    await box.write(join(box.root, '.jobsrc.yaml'), 'retries: 2\n');
    const config = await resolveIn();
    expect(config.retries.source).toEqual({ kind: 'default' });
    expect(config.files).toEqual([]);
  });

  it('finds a config in the home directory itself', async () => {
    const file = await box.write(join(box.home, '.jobsrc.yaml'), 'retries: 2\n');
    expect((await resolveIn()).files).toEqual([file]);
  });
});

describe('user config', () => {
  it('reads $XDG_CONFIG_HOME/jobs/config.yaml', async () => {
    const file = await box.write(join(box.xdg, 'jobs', 'config.yaml'), 'retries: 1\n');
    expect((await resolveIn()).retries).toEqual({ value: 1, source: { kind: 'file', path: file, key: 'retries' } });
  });

  it('reads ~/.config/jobs/ when XDG_CONFIG_HOME is not set', async () => {
    const file = await box.write(join(box.home, '.config', 'jobs', 'config.json'), '{"retries": 1}');
    const config = await resolveConfig({ cwd: box.project, env: { HOME: box.home }, globals: globals() });
    expect(config.retries).toEqual({ value: 1, source: { kind: 'file', path: file, key: 'retries' } });
  });

  it("runs a JavaScript config in the user config dir (the user's own, like shell start-up files)", async () => {
    const file = await box.write(join(box.xdg, 'jobs', 'config.cjs'), 'module.exports = { retries: 1 };\n');
    const config = await resolveIn();
    expect(config.retries).toEqual({ value: 1, source: { kind: 'file', path: file, key: 'retries' } });
    expect(config.warnings).toEqual([]);
  });

  it('accepts the project names too (.jobsrc.yaml) in the user config dir', async () => {
    const file = await box.write(join(box.xdg, 'jobs', '.jobsrc.yaml'), 'retries: 1\n');
    expect((await resolveIn()).files).toEqual([file]);
  });

  it('is deep-merged under the project config, which wins', async () => {
    const user = await box.write(
      join(box.xdg, 'jobs', 'config.yaml'),
      'profile: prod\nprofiles:\n  prod:\n    base_url: https://user.example.com\n    auth_scheme: Token\nconstants:\n  contract: {permanent: 1, temporary: 2}\nconcurrency: 2\n',
    );
    const project = await box.write('.jobsrc.yaml', 'profiles:\n  prod:\n    base_url: https://project.example.com\nconstants:\n  contract: {temporary: 5}\n');
    const config = await resolveIn();
    expect(config.profile).toEqual({ value: 'prod', source: { kind: 'file', path: user, key: 'profile' } });
    expect(config.baseUrl).toEqual({ value: 'https://project.example.com', source: { kind: 'file', path: project, key: 'profiles.prod.base_url' } });
    expect(config.authScheme).toEqual({ value: 'Token', source: { kind: 'file', path: user, key: 'profiles.prod.auth_scheme' } });
    expect(config.constants).toEqual({ contract: { permanent: 1, temporary: 5 } });
    expect(config.concurrency).toEqual({ value: 2, source: { kind: 'file', path: user, key: 'concurrency' } });
    expect(config.files).toEqual([project, user]);
  });
});

describe('precedence: flags > environment > project > user > defaults', () => {
  beforeEach(async () => {
    await box.write(
      join(box.xdg, 'jobs', 'config.yaml'),
      'profiles:\n  a: {base_url: https://user.example.com}\n  b: {base_url: https://b.example.com}\ntimeout: 10s\nretries: 1\n',
    );
  });

  it('base URL', async () => {
    expect((await resolveIn({ flags: { profile: 'a' } })).baseUrl.value).toBe('https://user.example.com');
    const project = await box.write('.jobsrc.yaml', 'profiles:\n  a: {base_url: https://project.example.com/}\n');
    expect((await resolveIn({ flags: { profile: 'a' } })).baseUrl).toEqual({
      value: 'https://project.example.com',
      source: { kind: 'file', path: project, key: 'profiles.a.base_url' },
    });
    const env = { JOBS_BASE_URL: 'https://env.example.com' };
    expect((await resolveIn({ env, flags: { profile: 'a' } })).baseUrl).toEqual({
      value: 'https://env.example.com',
      source: { kind: 'env', name: 'JOBS_BASE_URL' },
    });
    expect((await resolveIn({ env, flags: { profile: 'a', baseUrl: 'https://flag.example.com' } })).baseUrl).toEqual({
      value: 'https://flag.example.com',
      source: { kind: 'flag', name: '--base-url' },
    });
  });

  it('timeout and retries', async () => {
    expect((await resolveIn()).timeoutMs.value).toBe(10_000);
    await box.write('.jobsrc.yaml', 'timeout: 1.5\nretries: 0\n');
    const fromProject = await resolveIn();
    expect(fromProject.timeoutMs.value).toBe(1500);
    expect(fromProject.retries.value).toBe(0);
    const fromFlags = await resolveIn({ flags: { timeout: '2m', retries: 9 } });
    expect(fromFlags.timeoutMs).toEqual({ value: 120_000, source: { kind: 'flag', name: '--timeout' } });
    expect(fromFlags.retries).toEqual({ value: 9, source: { kind: 'flag', name: '--retries' } });
  });

  it('a bad --timeout is a usage error', async () => {
    await expect(resolveIn({ flags: { timeout: 'soon' } })).rejects.toThrow(UsageError);
    await expect(resolveIn({ flags: { timeout: 'soon' } })).rejects.toThrow('--timeout soon: expected a duration from 1ms to 1h, such as 30s, 500ms or 2m');
  });

  it('profile', async () => {
    await box.write('.jobsrc.yaml', 'profile: a\n');
    expect((await resolveIn()).profile.value).toBe('a');
    expect((await resolveIn({ env: { JOBS_PROFILE: 'b' } })).profile).toEqual({ value: 'b', source: { kind: 'env', name: 'JOBS_PROFILE' } });
    expect((await resolveIn({ env: { JOBS_PROFILE: 'b' }, flags: { profile: 'a' } })).profile).toEqual({
      value: 'a',
      source: { kind: 'flag', name: '--profile' },
    });
  });
});

describe('--config and JOBS_CONFIG', () => {
  it('read one named file instead of searching', async () => {
    await box.write('.jobsrc.yaml', 'retries: 1\n');
    await box.write(join(box.xdg, 'jobs', 'config.yaml'), 'concurrency: 2\n');
    const named = await box.write(join(box.root, 'ci', 'jobs.yaml'), 'retries: 3\n');
    const config = await resolveIn({ flags: { config: '../../../ci/jobs.yaml' } });
    expect(config.files).toEqual([named]);
    expect(config.retries.value).toBe(3);
    expect(config.concurrency.value).toBe(4);
    const viaEnv = await resolveIn({ env: { JOBS_CONFIG: named } });
    expect(viaEnv.files).toEqual([named]);
  });

  it('the flag wins over the variable', async () => {
    const a = await box.write('a.yaml', 'retries: 1\n');
    const b = await box.write('b.yaml', 'retries: 2\n');
    const config = await resolveIn({ env: { JOBS_CONFIG: b }, flags: { config: a } });
    expect(config.retries.value).toBe(1);
  });

  it('a missing file is an error that names it and where it was named', async () => {
    const error = await configError(resolveIn({ flags: { config: 'nope.yaml' } }));
    expect(error.message).toBe('config file nope.yaml (from --config) does not exist');
    const fromEnv = await configError(resolveIn({ env: { JOBS_CONFIG: join(box.root, 'gone.yaml') } }));
    expect(fromEnv.message).toBe(`config file ${join(box.root, 'gone.yaml')} (from JOBS_CONFIG) does not exist`);
  });
});

describe('${VAR} interpolation', () => {
  it('reads the environment in any string; $${VAR} stays literal', async () => {
    await box.write(
      '.jobsrc.yaml',
      'profile: prod\nprofiles:\n  prod:\n    base_url: https://${HOST}/v1\n    token: ${PROD_TOKEN}\ndefaults:\n  recruiter: {email: "${WHO}@example.com"}\n  question: "Cost: $${PRICE}"\ntimeout: ${T}\n',
    );
    const config = await resolveIn({
      env: { HOST: 'api.example.com', PROD_TOKEN: 'tok-1', WHO: 'ann', T: '5s' },
      flags: { allowEnv: ['HOST', 'PROD_TOKEN', 'WHO', 'T'] },
    });
    expect(config.baseUrl.value).toBe('https://api.example.com/v1');
    expect(config.token?.value).toBe('tok-1');
    expect(config.defaults).toEqual({ recruiter: { email: 'ann@example.com' }, question: 'Cost: ${PRICE}' });
    expect(config.timeoutMs.value).toBe(5000);
  });

  it('an unset variable is an error naming the variable, the file and the key', async () => {
    await box.write('.jobsrc.yaml', 'defaults:\n  recruiter:\n    email: ${RECRUITER_EMAIL}\n');
    const error = await configError(resolveIn({ flags: { allowEnv: ['RECRUITER_EMAIL'] } }));
    expect(error.message).toBe('.jobsrc.yaml: defaults.recruiter.email: environment variable RECRUITER_EMAIL is not set');
  });

  it('in the selected profile too, but not in a profile nobody uses', async () => {
    await box.write('.jobsrc.yaml', 'profiles:\n  prod: {base_url: "https://${PROD_HOST}"}\n  dev: {base_url: "http://127.0.0.1:8080"}\n');
    expect((await resolveIn({ flags: { profile: 'dev' } })).baseUrl.value).toBe('http://127.0.0.1:8080');
    const error = await configError(resolveIn({ flags: { profile: 'prod', allowEnv: ['PROD_HOST'] } }));
    expect(error.message).toBe('.jobsrc.yaml: profiles.prod.base_url: environment variable PROD_HOST is not set');
  });
});

describe("${VAR} never copies the token out of a profile's token", () => {
  const SECRET = 'tok_live_0123456789abcdef';
  const only = 'only profiles.<name>.token may read it, so that the token never ends up in an advert, a URL or output';

  it('JOBS_TOKEN in defaults (a project config could publish it): exit 2, the variable named, its value never', async () => {
    await box.write('.jobsrc.yaml', 'defaults:\n  question: "${JOBS_TOKEN}"\n');
    const error = await configError(resolveIn({ env: { JOBS_TOKEN: SECRET }, flags: { allowEnv: ['JOBS_TOKEN'] } }));
    expect(error.message).toBe(`.jobsrc.yaml: defaults.question: \${JOBS_TOKEN} holds the service token; ${only}`);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it("the variable any config's profile takes its token from, read by another file", async () => {
    await box.write(join(box.xdg, 'jobs', 'config.yaml'), 'profiles:\n  default:\n    token: ${ACME_JOBS_TOKEN}\n');
    await box.write('.jobsrc.yaml', 'defaults:\n  recruiter: {email: "x@example.com", first_name: "a ${ACME_JOBS_TOKEN} b"}\n');
    const error = await configError(resolveIn({ env: { ACME_JOBS_TOKEN: SECRET }, flags: { allowEnv: ['ACME_JOBS_TOKEN'] } }));
    expect(error.message).toBe(`.jobsrc.yaml: defaults.recruiter.first_name: \${ACME_JOBS_TOKEN} holds the service token; ${only}`);
  });

  it('another variable holding the same token', async () => {
    await box.write('.jobsrc.yaml', 'defaults:\n  question: "${CI_SECRET}"\n');
    const error = await configError(resolveIn({ env: { JOBS_TOKEN: SECRET, CI_SECRET: SECRET }, flags: { allowEnv: ['CI_SECRET'] } }));
    expect(error.message).toBe(`.jobsrc.yaml: defaults.question: \${CI_SECRET} holds the service token (the same text as a token variable); ${only}`);
  });

  it("a profile's base_url (the token would travel in the URL and show in messages)", async () => {
    await box.write('.jobsrc.yaml', 'profiles:\n  prod:\n    base_url: https://api.example.com/${JOBS_TOKEN}\n');
    const error = await configError(resolveIn({ env: { JOBS_TOKEN: SECRET }, flags: { profile: 'prod', allowEnv: ['JOBS_TOKEN'] } }));
    expect(error.message).toBe(`.jobsrc.yaml: profiles.prod.base_url: \${JOBS_TOKEN} holds the service token; ${only}`);
  });

  it("is read where it belongs: a profile's token", async () => {
    await box.write(
      '.jobsrc.yaml',
      'profiles:\n  default:\n    token: ${ACME_JOBS_TOKEN}\n    base_url: https://api.example.com\ndefaults:\n  question: "${WHY}"\n',
    );
    const config = await resolveIn({ env: { ACME_JOBS_TOKEN: SECRET, WHY: 'Why us?' }, flags: { allowEnv: ['ACME_JOBS_TOKEN', 'WHY'] } });
    expect(config.token?.value).toBe(SECRET);
    expect(config.defaults).toEqual({ question: 'Why us?' });
  });
});

describe('allow_insecure_http: only from the user config or a file named with --config', () => {
  const http = 'profiles:\n  default:\n    base_url: http://jobs.example.com\n';

  it('in a project config found by the search, it is ignored with a warning', async () => {
    await box.write('.jobsrc.yaml', `${http}allow_insecure_http: true\n`);
    const config = await resolveIn();
    expect(config.allowInsecureHttp).toEqual({ value: false, source: { kind: 'default' } });
    expect(config.warnings).toEqual([
      ".jobsrc.yaml: allow_insecure_http is ignored in a project config (a checkout must not be able to send your token over plain http); set it in your user config with 'jobs config set allow_insecure_http true'",
    ]);
  });

  it("the user config lifts the guard; a project config's value is not read", async () => {
    const user = await box.write(join(box.xdg, 'jobs', 'config.yaml'), 'allow_insecure_http: true\n');
    await box.write('.jobsrc.yaml', `${http}allow_insecure_http: false\n`);
    const config = await resolveIn();
    expect(config.allowInsecureHttp).toEqual({ value: true, source: { kind: 'file', path: user, key: 'allow_insecure_http' } });
    expect(config.warnings).toEqual([]);
  });

  it('a file named with --config lifts it (the user chose that file)', async () => {
    const named = await box.write('ci.yaml', `${http}allow_insecure_http: true\n`);
    const config = await resolveIn({ flags: { config: 'ci.yaml' } });
    expect(config.allowInsecureHttp).toEqual({ value: true, source: { kind: 'file', path: named, key: 'allow_insecure_http' } });
  });
});

describe('invalid configs', () => {
  it('a wrong type names the file and the key', async () => {
    await box.write('.jobsrc.yaml', 'profiles:\n  prod:\n    base_url: 42\n');
    const error = await configError(resolveIn());
    expect(error.message).toBe('.jobsrc.yaml: profiles.prod.base_url: must be a string');
  });

  it('an unknown key gets a "did you mean"', async () => {
    await box.write('.jobsrc.yaml', 'concurency: 8\nprofiles:\n  prod:\n    baseUrl: https://x.example.com\n');
    const error = await configError(resolveIn());
    expect(error.message).toBe('.jobsrc.yaml: concurency: unknown key; did you mean "concurrency"?');
    expect(error.details[0]).toBe('.jobsrc.yaml: profiles.prod.baseUrl: unknown key; did you mean "profiles.prod.base_url"?');
  });

  it('a top-level base_url is pointed to profiles', async () => {
    await box.write(join(box.xdg, 'jobs', 'config.yaml'), 'base_url: https://x.example.com\n');
    const error = await configError(resolveIn());
    expect(error.message).toBe(
      `${join(box.xdg, 'jobs', 'config.yaml')}: base_url: unknown key; base_url belongs to a profile: profiles.<name>.base_url (the profile "default" is used when none is selected)`,
    );
  });

  it('out-of-range numbers, bad durations and bad constants', async () => {
    await box.write('.jobsrc.json', JSON.stringify({ concurrency: 100, retries: -1, timeout: 'soon', constants: { contract: { permanent: 'one' } } }));
    const error = await configError(resolveIn());
    expect([error.message, ...error.details]).toEqual([
      '.jobsrc.json: constants.contract.permanent: must be an integer (a whole number)',
      '.jobsrc.json: concurrency: must be at most 64',
      '.jobsrc.json: timeout: must be a duration such as 30s, 500ms or 2m, or a number of seconds',
      '.jobsrc.json: retries: must be at least 0',
      "Fix .jobsrc.json; 'jobs schema config' prints the config schema.",
    ]);
  });

  it('YAML syntax errors name the file and the line', async () => {
    await box.write('.jobsrc.yaml', 'retries: 1\nretries: 2\n');
    const error = await configError(resolveIn());
    expect(error.message).toMatch(/^\.jobsrc\.yaml: invalid YAML: Map keys must be unique at line 2, column 1/);
  });

  it('JSON syntax errors name the file', async () => {
    await box.write('.jobsrc.json', '{"retries": 1,}');
    const error = await configError(resolveIn());
    expect(error.message).toMatch(/^\.jobsrc\.json: invalid JSON: /);
  });

  it('a file that is not a mapping', async () => {
    await box.write('.jobsrc.yaml', '- a\n- b\n');
    const error = await configError(resolveIn());
    expect(error.message).toBe('.jobsrc.yaml: (top level): must be a mapping of keys to values');
  });

  it('a base URL that is not http(s)', async () => {
    await expect(resolveIn({ env: { JOBS_BASE_URL: 'ftp://x.example.com' } })).rejects.toThrow(
      'base URL from JOBS_BASE_URL must start with https:// or http://, not ftp://',
    );
    await expect(resolveIn({ flags: { baseUrl: 'jobs.example.com' } })).rejects.toThrow('base URL from --base-url is not a URL: "jobs.example.com"');
    await expect(resolveIn({ flags: { baseUrl: 'https://u:p@jobs.example.com' } })).rejects.toThrow(/must not hold a user name or password/);
  });
});

describe('profiles', () => {
  it('naming a profile that does not exist lists the existing ones', async () => {
    await box.write('.jobsrc.yaml', 'profiles:\n  prod: {base_url: https://p.example.com}\n  staging: {base_url: https://s.example.com}\n');
    const error = await configError(resolveIn({ flags: { profile: 'prd' } }));
    expect(error.message).toBe('profile "prd" (from --profile) is not defined');
    expect(error.details[0]).toBe('Existing profiles: prod, staging.');
    const fromEnv = await configError(resolveIn({ env: { JOBS_PROFILE: 'qa' } }));
    expect(fromEnv.message).toBe('profile "qa" (from JOBS_PROFILE) is not defined');
  });

  it('a profile named "default" is used when none is selected', async () => {
    await box.write('.jobsrc.yaml', 'profiles:\n  default: {base_url: https://d.example.com}\n');
    const config = await resolveIn();
    expect(config.profile).toEqual({ value: 'default', source: { kind: 'default' } });
    expect(config.baseUrl.value).toBe('https://d.example.com');
  });

  it('without any profile, base URL and token still come from the environment', async () => {
    const config = await resolveIn({ env: { JOBS_BASE_URL: 'https://e.example.com', JOBS_TOKEN: 't' } });
    expect(config.profile.value).toBeUndefined();
    expect(config.baseUrl.value).toBe('https://e.example.com');
    expect(config.token).toEqual({ value: 't', source: { kind: 'env', name: 'JOBS_TOKEN' } });
  });
});

describe('token sources: JOBS_TOKEN > --token-file > profile token > credentials store', () => {
  let tokenFile: string;
  let configFile: string;
  let store: string;
  beforeEach(async () => {
    tokenFile = await box.write(join(box.root, 'secrets', 'token'), '  from-file\n\n');
    configFile = await box.write('.jobsrc.yaml', 'profile: prod\nprofiles:\n  prod: {base_url: https://p.example.com, token: "${PROD_TOKEN}"}\n');
    store = join(box.xdg, 'jobs', 'credentials.json');
    await box.write(store, JSON.stringify({ version: 1, profiles: { prod: { token: 'from-store', base_url: 'https://p.example.com' } } }));
    await chmod(store, 0o600);
  });

  it('takes each in turn', async () => {
    const all = { env: { JOBS_TOKEN: 'from-env', PROD_TOKEN: 'from-profile' }, flags: { tokenFile, allowEnv: ['PROD_TOKEN'] } };
    expect((await resolveIn(all)).token).toEqual({ value: 'from-env', source: { kind: 'env', name: 'JOBS_TOKEN' } });
    expect((await resolveIn({ ...all, env: { PROD_TOKEN: 'from-profile' } })).token).toEqual({
      value: 'from-file',
      source: { kind: 'flag', name: '--token-file' },
    });
    expect((await resolveIn({ env: { PROD_TOKEN: 'from-profile' }, flags: { allowEnv: ['PROD_TOKEN'] } })).token).toEqual({
      value: 'from-profile',
      source: { kind: 'file', path: configFile, key: 'profiles.prod.token' },
    });
    await box.write('.jobsrc.yaml', 'profile: prod\nprofiles:\n  prod: {base_url: https://p.example.com}\n');
    expect((await resolveIn()).token).toEqual({ value: 'from-store', source: { kind: 'store', path: store } });
  });

  it('an unreadable or empty token file is an error', async () => {
    await expect(resolveIn({ flags: { tokenFile: 'missing-token' } })).rejects.toThrow('token file missing-token (from --token-file) does not exist');
    const empty = await box.write('empty-token', '\n');
    await expect(resolveIn({ flags: { tokenFile: empty } })).rejects.toThrow('token file empty-token (from --token-file) is empty');
  });

  it('a stored token is not sent to another base URL', async () => {
    await box.write('.jobsrc.yaml', 'profile: prod\nprofiles:\n  prod: {base_url: https://p.example.com}\n');
    const config = await resolveIn({ env: { JOBS_BASE_URL: 'https://elsewhere.example.com' } });
    expect(config.token).toBeUndefined();
    expect(config.warnings).toEqual([
      `the token stored by 'jobs login' for profile "prod" is for https://p.example.com, so it is not sent to https://elsewhere.example.com; run 'jobs login' for that URL`,
    ]);
  });

  it('the store gives the base URL when nothing else does', async () => {
    await box.write('.jobsrc.yaml', 'profile: prod\nprofiles:\n  prod: {auth_scheme: Token}\n');
    const config = await resolveIn();
    expect(config.baseUrl).toEqual({ value: 'https://p.example.com', source: { kind: 'store', path: store } });
    expect(config.token?.value).toBe('from-store');
  });

  it('a profile that exists only in the store may be selected', async () => {
    await box.write(store, JSON.stringify({ version: 1, profiles: { ci: { token: 'ci-token' } } }));
    const config = await resolveIn({ flags: { profile: 'ci' }, env: { JOBS_BASE_URL: 'https://ci.example.com' } });
    expect(config.token).toEqual({ value: 'ci-token', source: { kind: 'store', path: store } });
  });

  it.runIf(process.platform !== 'win32')('a store others can read gives a warning', async () => {
    await chmod(store, 0o640);
    await box.write('.jobsrc.yaml', 'profile: prod\nprofiles:\n  prod: {base_url: https://p.example.com}\n');
    expect((await resolveIn()).warnings).toEqual([`${store}: holds tokens and is readable by others; chmod 600 it`]);
  });

  it('a damaged store is an error that says what to do', async () => {
    await writeFile(store, '{"version": 1, "profiles": ');
    await box.write('.jobsrc.yaml', 'profile: prod\nprofiles:\n  prod: {base_url: https://p.example.com}\n');
    const error = await configError(resolveIn());
    expect(error.message).toBe(`${store}: is not valid JSON`);
    expect(error.details).toEqual(['Delete the file and run `jobs login` again.']);
  });
});

describe('a literal token in a config file others can read', () => {
  const posix = process.platform !== 'win32';
  it.runIf(posix)('gives a warning', async () => {
    const file = await box.write('.jobsrc.yaml', 'profiles:\n  prod: {base_url: https://p.example.com, token: abc123}\n');
    await chmod(file, 0o644);
    expect((await resolveIn()).warnings).toEqual(['.jobsrc.yaml: holds a token and is readable by others; chmod 600 it or use ${JOBS_TOKEN}']);
  });

  it.runIf(posix)('gives none when the file is private, or the token is a ${VAR} reference', async () => {
    const file = await box.write('.jobsrc.yaml', 'profiles:\n  prod: {base_url: https://p.example.com, token: abc123}\n');
    await chmod(file, 0o600);
    expect((await resolveIn()).warnings).toEqual([]);
    await box.write('.jobsrc.yaml', 'profiles:\n  prod: {base_url: https://p.example.com, token: "${PROD_TOKEN}"}\n');
    await chmod(file, 0o644);
    expect((await resolveIn()).warnings).toEqual([]);
  });
});

describe('everything else', () => {
  it('an empty config file counts as no file', async () => {
    await box.write('.jobsrc.yaml', '# nothing yet\n');
    await writeFile(join(box.project, '.jobsrc.json'), '');
    expect((await resolveIn()).files).toEqual([]);
  });
});
