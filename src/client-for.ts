/**
 * Builds the JobsClient a command uses from the resolved configuration (or from the embedded
 * sandbox with --sandbox). Missing settings fail here, before anything is sent, with a message
 * that says where the tool looked.
 */
import type { Context } from './context.js';
import { ConfigError } from './errors/failures.js';
import { sanitize } from './util/sanitize.js';
import { JobsClient, type ClientOptions } from './api/client.js';

export async function clientFromContext(ctx: Context): Promise<JobsClient> {
  const config = await ctx.config();
  // The core draws nothing: waits and slow requests are shown by the output layer's callbacks.
  const { requestStatus } = await import('./output/request-status.js');
  const common: Omit<ClientOptions, 'baseUrl'> = {
    timeoutMs: config.timeoutMs.value,
    retries: config.retries.value,
    ...requestStatus(ctx),
  };
  if (ctx.globals.verbose) common.trace = (line) => ctx.io.stderr.write(`${line}\n`);

  if (ctx.globals.sandbox) {
    // Loaded only with --sandbox: the emulator is not part of a normal run.
    const { startEmbeddedSandbox } = await import('./sandbox/embedded.js');
    const sandbox = await startEmbeddedSandbox({
      env: ctx.env,
      ...(ctx.globals.verbose ? { log: (line: string) => ctx.io.stderr.write(`sandbox: ${sanitize(line)}\n`) } : {}),
    });
    return new JobsClient({ ...common, baseUrl: sandbox.baseUrl, token: sandbox.token });
  }

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
  const client = new JobsClient({ ...common, baseUrl, token, authScheme: config.authScheme.value, allowInsecureHttp: config.allowInsecureHttp.value });
  const { withReauth } = await import('./reauth.js');
  return withReauth(client, ctx);
}

function lookedIn(files: readonly string[]): string[] {
  return [files.length > 0 ? `config files read: ${files.join(', ')}` : 'no config file was found'];
}
