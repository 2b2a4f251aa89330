/**
 * The JobsClient for resolved settings. Missing settings fail here, before anything is sent, with a
 * message that says where the tool looked. What a terminal adds (request status, the --verbose
 * trace, a new token after a 401) comes in as the client's callbacks or wraps the result: see
 * src/cli/client-for.ts.
 */
import type { ResolvedConfig } from '../config/types.js';
import { ConfigError } from '../errors/failures.js';
import { JobsClient, type ClientOptions } from './client.js';

/** The client options that do not come from the settings: callbacks (onWait, onRequest, trace) and overrides. */
export type ClientExtras = Omit<ClientOptions, 'baseUrl' | 'token' | 'authScheme' | 'allowInsecureHttp' | 'proxyEnv' | 'caFile'>;

export function clientFromConfig(config: ResolvedConfig, extras: ClientExtras = {}): JobsClient {
  const baseUrl = config.baseUrl.value;
  if (baseUrl === undefined || baseUrl.trim() === '') {
    throw new ConfigError('no service URL: set JOBS_BASE_URL, --base-url or base_url in a profile', {
      details: [...lookedIn(config.files), 'or try the tool locally with --sandbox'],
    });
  }
  const token = config.token?.value;
  if (token === undefined || token.trim() === '') {
    const profile = config.profile.value;
    throw new ConfigError(
      `no token: set JOBS_TOKEN, pass --token-file <file>, put token in ${profile ? `profile "${profile}"` : 'a profile'} of the config, or run \`jobs login\``,
      { details: lookedIn(config.files) },
    );
  }
  return new JobsClient({
    timeoutMs: config.timeoutMs.value,
    retries: config.retries.value,
    ...extras,
    baseUrl,
    token,
    authScheme: config.authScheme.value,
    allowInsecureHttp: config.allowInsecureHttp.value,
    ...(config.proxyEnv ? { proxyEnv: config.proxyEnv } : {}),
    ...(config.caFile ? { caFile: { path: config.caFile.value, from: config.caFile.from } } : {}),
  });
}

function lookedIn(files: readonly string[]): string[] {
  return [files.length > 0 ? `config files read: ${files.join(', ')}` : 'no config file was found'];
}
