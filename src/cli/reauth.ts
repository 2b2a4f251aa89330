/**
 * After a 401 on a terminal, offer to enter another token and repeat the request with it (the spec
 * says the client may repeat a request with new or replaced credentials), then offer to store it.
 * Without a terminal, or with --no-input, the 401 stands (exit 4).
 */
import type { Context } from './context.js';
import { canPrompt } from './context.js';
import { ApiError } from '../core/errors/failures.js';
import type { SettingSource } from '../core/config/types.js';
import type { JobsClient } from '../core/api/client.js';

const METHODS = ['create', 'update', 'delete', 'stats', 'statsAt', 'postEvent'] as const;

export function withReauth(client: JobsClient, ctx: Context): JobsClient {
  if (!canPrompt(ctx)) return client;
  let current = client;
  let newToken: string | undefined;
  let storeOffered = false;
  let asking: Promise<boolean> | undefined;

  /** A question on the terminal: the live line (progress, spinner) would draw over it, so it waits. */
  const onTerminal = async <T>(question: () => Promise<T>): Promise<T> => {
    const { liveLine } = await import('./output/live-line.js');
    const release = liveLine(ctx)?.hold();
    try {
      return await question();
    } finally {
      release?.();
    }
  };

  const ask = async (): Promise<boolean> => {
    const { promptHidden } = await import('./output/hidden-prompt.js');
    const token = (
      await onTerminal(() => promptHidden(ctx, 'The service refused the token (401 unauthorized). Enter another token (empty to give up): '))
    ).trim();
    if (token === '') return false;
    current = current.withToken(token);
    newToken = token;
    return true;
  };

  const offerToStore = async () => {
    if (newToken === undefined || storeOffered) return;
    storeOffered = true;
    const [{ confirm }, { saveToken }, { sanitize }] = await Promise.all([
      import('./output/prompt.js'),
      import('../core/config/token-store.js'),
      import('../core/util/sanitize.js'),
    ]);
    const config = await ctx.config();
    // The store is the last place a token is looked for: say what would still win over it.
    const winner = config.token ? await tokenWinner(ctx, config.token.source) : undefined;
    const store = await onTerminal(async () => {
      if (winner) ctx.io.stderr.write(`Note: ${sanitize(winner)}\n`);
      return confirm(ctx, 'The new token worked. Store it for next time (in the OS keyring, or a file only you can read)?');
    });
    if (store) {
      // Bound to the service it was accepted by, like a token stored by `jobs login`.
      const baseUrl = config.baseUrl.value;
      const saved = await saveToken(ctx.env, config.profile.value, newToken, { baseUrl });
      ctx.io.stderr.write(`stored in ${saved.label}${saved.fallback === undefined ? '' : ` (no OS keyring answered: ${saved.fallback})`}\n`);
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

/** What keeps a stored token from being used next time, and how to change that. */
async function tokenWinner(ctx: Context, source: SettingSource): Promise<string | undefined> {
  switch (source.kind) {
    case 'env':
      return `${source.name} is set and will still win over a stored token; run \`unset ${source.name}\` for the stored token to be used.`;
    case 'flag':
      return `${source.name} will still win over a stored token; leave it out for the stored token to be used.`;
    case 'file': {
      const { describeSource } = await import('../core/config/describe.js');
      return `the token in ${describeSource(source, ctx.cwd, ctx.env)} will still win over a stored token; remove it from there for the stored token to be used.`;
    }
    default:
      return undefined;
  }
}
