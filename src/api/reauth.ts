/**
 * After a 401 on a terminal, offer to enter another token and repeat the request with it (the spec
 * says the client may repeat a request with new or replaced credentials), then offer to store it.
 * Without a terminal, or with --no-input, the 401 stands (exit 4).
 */
import type { Context } from '../context.js';
import { canPrompt } from '../context.js';
import { ApiError } from '../errors/failures.js';
import type { JobsClient } from './client.js';

const METHODS = ['create', 'update', 'delete', 'stats', 'statsAt', 'postEvent'] as const;

export function withReauth(client: JobsClient, ctx: Context): JobsClient {
  if (!canPrompt(ctx)) return client;
  let current = client;
  let newToken: string | undefined;
  let storeOffered = false;
  let asking: Promise<boolean> | undefined;

  const ask = async (): Promise<boolean> => {
    const { promptHidden } = await import('../config/cli/hidden-prompt.js');
    const token = (await promptHidden(ctx, 'The service refused the token (401 unauthorized). Enter another token (empty to give up): ')).trim();
    if (token === '') return false;
    current = current.withToken(token);
    newToken = token;
    return true;
  };

  const offerToStore = async () => {
    if (newToken === undefined || storeOffered) return;
    storeOffered = true;
    const [{ confirm }, { storeCredential }] = await Promise.all([import('../output/prompt.js'), import('../config/credentials.js')]);
    const config = await ctx.config();
    if (await confirm(ctx, 'The new token worked. Store it for next time (in a file only you can read)?')) {
      // Bound to the service it was accepted by, like a token stored by `jobs login`.
      const baseUrl = config.baseUrl.value;
      ctx.io.stderr.write(`stored in ${await storeCredential(ctx.env, config.profile.value, baseUrl ? { token: newToken, base_url: baseUrl } : { token: newToken })}\n`);
    }
  };

  const wrapper = Object.create(client) as JobsClient;
  for (const name of METHODS) {
    Object.defineProperty(wrapper, name, {
      value: async (...args: unknown[]) => {
        const call = (c: JobsClient) => (c[name] as (...a: unknown[]) => Promise<unknown>).apply(c, args);
        const used = current;
        try {
          return await call(used);
        } catch (error) {
          if (!(error instanceof ApiError && error.kind === 'unauthorized')) throw error;
          // Calls that fail together share one prompt; a call that failed with an old token just retries.
          if (used === current) {
            asking ??= ask().finally(() => (asking = undefined));
            if (!(await asking)) throw error;
          }
          const result = await call(current);
          await offerToStore();
          return result;
        }
      },
    });
  }
  return wrapper;
}
