import type { Context } from '../context.js';
import type { ResolvedConfig } from '../config/types.js';
import { ConfigError } from '../errors/failures.js';

/**
 * What a state's entries are keyed by: the service URL (so one folder can be synced to staging and
 * production), or `sandbox` for the embedded sandbox, whose port changes from run to run.
 */
export function serviceKey(ctx: Context, config: ResolvedConfig): string {
  if (ctx.globals.sandbox) return 'sandbox';
  const url = config.baseUrl.value?.trim();
  if (!url) throw new ConfigError('no service URL: set JOBS_BASE_URL, --base-url or base_url in a profile (or use --sandbox)');
  return url.replace(/\/+$/, '');
}
