/**
 * Builds the JobsClient a command uses from the resolved configuration (api/from-config.ts, where
 * missing settings fail), which says whether the service is the embedded sandbox (--sandbox, resolved
 * in config/sandbox-source.ts), with what the terminal adds:
 * request status, the --verbose trace and, on a terminal, a new token after a 401.
 */
import type { Context } from './context.js';
import { sanitize } from '../core/util/sanitize.js';
import { JobsClient } from '../core/api/client.js';
import { clientFromConfig, type ClientExtras } from '../core/api/from-config.js';
import { usesSandbox } from '../core/config/sandbox-source.js';

export async function clientFromContext(ctx: Context): Promise<JobsClient> {
  const config = await ctx.config();
  // The core draws nothing: waits and slow requests are shown by the output layer's callbacks.
  const { requestStatus } = await import('./output/request-status.js');
  const common: ClientExtras = {
    timeoutMs: config.timeoutMs.value,
    retries: config.retries.value,
    ...requestStatus(ctx),
  };
  if (ctx.globals.verbose) common.trace = (line) => ctx.io.stderr.write(`${line}\n`);

  if (usesSandbox(config)) {
    // Loaded only with --sandbox: the emulator is not part of a normal run. Its URL is known once it listens.
    const { startEmbeddedSandbox } = await import('../core/sandbox/embedded.js');
    const sandbox = await startEmbeddedSandbox({
      env: ctx.env,
      ...(ctx.globals.verbose ? { log: (line: string) => ctx.io.stderr.write(`sandbox: ${sanitize(line)}\n`) } : {}),
    });
    return new JobsClient({ ...common, baseUrl: sandbox.baseUrl, token: config.token?.value ?? sandbox.token, knownFailure: sandbox.knownFailure });
  }

  const client = clientFromConfig(config, common);
  const { withReauth } = await import('./reauth.js');
  return withReauth(client, ctx);
}
