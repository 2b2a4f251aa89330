/** The core's client from resolved settings, with no CLI context: what scripts and the library build on. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { clientFromConfig } from '../../../src/core/api/from-config.js';
import type { ResolvedConfig } from '../../../src/core/config/types.js';
import { ConfigError } from '../../../src/core/errors/failures.js';
import { TOKEN, useNock } from '../../support/http-client.js';

useNock();

const dflt = { kind: 'default' } as const;

function settings(overrides: Partial<ResolvedConfig> = {}): ResolvedConfig {
  return {
    profile: { value: undefined, source: dflt },
    baseUrl: { value: 'https://jobs.test/api', source: dflt },
    token: { value: TOKEN, source: dflt },
    authScheme: { value: 'Token', source: dflt },
    defaults: {},
    constants: {},
    concurrency: { value: 4, source: dflt },
    timeoutMs: { value: 30_000, source: dflt },
    retries: { value: 2, source: dflt },
    allowInsecureHttp: { value: false, source: dflt },
    files: [],
    warnings: [],
    ...overrides,
  };
}

describe('clientFromConfig', () => {
  it('sends to the configured URL with the token and scheme, and calls the callbacks handed in', async () => {
    const scope = nock('https://jobs.test', { reqheaders: { authorization: `Token ${TOKEN}` } })
      .delete('/api/jobs/A')
      .reply(200);
    const trace: string[] = [];
    const client = clientFromConfig(settings(), { trace: (line) => trace.push(line) });
    await client.delete('A');
    scope.done();
    expect(trace.join('\n')).toContain('DELETE https://jobs.test/api/jobs/A');
    expect(trace.join('\n')).not.toContain(TOKEN);
  });

  it('refuses missing settings before sending anything, saying where it looked', () => {
    expect(() => clientFromConfig(settings({ token: undefined, files: ['/p/.jobsrc.yaml'] }))).toThrow(ConfigError);
    expect(() => clientFromConfig(settings({ baseUrl: { value: ' ', source: dflt } }))).toThrow(/no service URL/);
    let thrown: unknown;
    try {
      clientFromConfig(settings({ token: undefined, files: ['/p/.jobsrc.yaml'] }));
    } catch (error) {
      thrown = error;
    }
    expect((thrown as ConfigError).details).toEqual(['config files read: /p/.jobsrc.yaml']);
  });
});
