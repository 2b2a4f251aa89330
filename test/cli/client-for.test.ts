/** Building the client from a command's context: required settings, the verbose trace, --sandbox. */
import nock from 'nock';
import { describe, expect, it, vi } from 'vitest';
import { clientFromContext } from '../../src/cli/client-for.js';
import { startEmbeddedSandbox } from '../../src/core/sandbox/embedded.js';
import type { ResolvedConfig } from '../../src/core/config/types.js';
import type { Context, GlobalOptions } from '../../src/cli/context.js';
import { ConfigError } from '../../src/core/errors/failures.js';
import { TOKEN, rejection, useNock } from '../support/http-client.js';

vi.mock('../../src/core/sandbox/embedded.js', () => ({
  startEmbeddedSandbox: vi.fn(async () => ({ baseUrl: 'http://127.0.0.1:4999', token: 'sandbox-token' })),
}));

useNock();

const dflt = { kind: 'default' } as const;

function config(overrides: Partial<ResolvedConfig> = {}): ResolvedConfig {
  return {
    profile: { value: undefined, source: dflt },
    baseUrl: { value: 'https://jobs.test/api', source: { kind: 'env', name: 'JOBS_BASE_URL' } },
    token: { value: TOKEN, source: { kind: 'env', name: 'JOBS_TOKEN' } },
    authScheme: { value: 'Bearer', source: dflt },
    defaults: {},
    constants: {},
    concurrency: { value: 4, source: dflt },
    timeoutMs: { value: 30_000, source: dflt },
    retries: { value: 0, source: dflt },
    allowInsecureHttp: { value: false, source: dflt },
    files: [],
    warnings: [],
    ...overrides,
  };
}

function context(resolved: ResolvedConfig, globals: Partial<GlobalOptions> = {}): { ctx: Context; stderr: string[] } {
  const stderr: string[] = [];
  const ctx: Context = {
    name: 'jobs',
    io: { stdin: (async function* () {})(), stdout: { write: () => true }, stderr: { write: (s: string) => stderr.push(s) } },
    env: {},
    cwd: '/tmp',
    globals: { output: 'human', quiet: false, verbose: false, color: false, input: false, sandbox: false, ...globals },
    signal: new AbortController().signal,
    config: async () => resolved,
    client: async () => {
      throw new Error('not used');
    },
  };
  return { ctx, stderr };
}

describe('clientFromContext', () => {
  it('builds a client for the configured URL, token and scheme', async () => {
    const scope = nock('https://jobs.test', { reqheaders: { authorization: `Token ${TOKEN}` } })
      .delete('/api/jobs/A')
      .reply(200);
    const client = await clientFromContext(context(config({ authScheme: { value: 'Token', source: dflt } })).ctx);
    await client.delete('A');
    scope.done();
  });

  it('uses retries and timeout from the config', async () => {
    const scope = nock('https://jobs.test').get('/api/jobs/A/stats').times(2).reply(500);
    const client = await clientFromContext(context(config({ retries: { value: 1, source: dflt } })).ctx);
    // One retry: exactly two requests (scope.done), then the error says so. The wait is real: 0..500ms.
    const error = await rejection(client.stats('A'));
    scope.done();
    expect(error.message).toBe('GET /jobs/A/stats: service error (500) after 1 retry');
  });

  it('traces to stderr with --verbose, without the token', async () => {
    const scope = nock('https://jobs.test').delete('/api/jobs/A').reply(200);
    const { ctx, stderr } = context(config(), { verbose: true });
    await (await clientFromContext(ctx)).delete('A');
    scope.done();
    expect(stderr.join('')).toMatch(/^> DELETE https:\/\/jobs\.test\/api\/jobs\/A\n> authorization: Bearer \*\*\*\n< 200 in \d+ms\n$/);
    expect(stderr.join('')).not.toContain(TOKEN);
  });

  it('stays quiet without --verbose', async () => {
    const scope = nock('https://jobs.test').delete('/api/jobs/A').reply(200);
    const { ctx, stderr } = context(config());
    await (await clientFromContext(ctx)).delete('A');
    scope.done();
    expect(stderr).toEqual([]);
  });

  it('without a base URL: ConfigError naming where to set it', async () => {
    const error = await rejection(clientFromContext(context(config({ baseUrl: { value: undefined, source: dflt } })).ctx));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe('no service URL: set JOBS_BASE_URL, --base-url or base_url in a profile');
  });

  it('without a token: ConfigError naming every place it looked', async () => {
    const resolved = config({
      token: undefined,
      profile: { value: 'staging', source: { kind: 'flag', name: '--profile' } },
      files: ['/home/u/.config/jobs/config.yaml'],
    });
    const error = await rejection<ConfigError>(clientFromContext(context(resolved).ctx));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('no token: set JOBS_TOKEN, pass --token-file <file>, put token in profile "staging" of the config, or run `jobs login`');
    expect(error.details).toEqual(['config files read: /home/u/.config/jobs/config.yaml']);
  });

  it('with --sandbox resolved: the embedded sandbox URL and token', async () => {
    const scope = nock('http://127.0.0.1:4999', { reqheaders: { authorization: 'Bearer sandbox-token' } })
      .delete('/jobs/A')
      .reply(200);
    const resolved = config({ baseUrl: { value: undefined, source: { kind: 'sandbox' } }, token: { value: 'sandbox-token', source: { kind: 'sandbox' } } });
    const client = await clientFromContext(context(resolved, { sandbox: true }).ctx);
    await client.delete('A');
    scope.done();
  });

  it('with --sandbox --verbose: the request lines of the sandbox on stderr, as data; without --verbose none', async () => {
    const resolved = config({ baseUrl: { value: undefined, source: { kind: 'sandbox' } }, token: { value: 'sandbox-token', source: { kind: 'sandbox' } } });
    const started = vi.mocked(startEmbeddedSandbox);
    started.mockClear();
    const loud = context(resolved, { sandbox: true, verbose: true });
    await clientFromContext(loud.ctx);
    const log = started.mock.calls[0]![0].log!;
    log('GET /jobs/\u001b[31mX/stats 404 3ms');
    expect(loud.stderr.join('')).toContain('sandbox: GET /jobs/X/stats 404 3ms\n');
    await clientFromContext(context(resolved, { sandbox: true }).ctx);
    expect(started.mock.calls[1]![0].log).toBeUndefined();
  });
});
