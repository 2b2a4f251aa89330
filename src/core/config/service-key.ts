import type { ResolvedConfig } from './types.js';
import { parseBaseUrl } from './base-url.js';
import { ConfigError } from '../errors/failures.js';

/**
 * What a state's entries and a journal's lines are keyed by: the service URL (so one folder can be
 * synced to staging and production), or `sandbox` for the embedded sandbox, whose port changes
 * from run to run.
 */
export function serviceKey(sandbox: boolean, config: Pick<ResolvedConfig, 'baseUrl'>): string {
  if (sandbox) return 'sandbox';
  const url = config.baseUrl.value?.trim();
  if (!url) throw new ConfigError('no service URL: set JOBS_BASE_URL, --base-url or base_url in a profile (or use --sandbox)');
  return urlKey(parseBaseUrl(url));
}

/**
 * One key per service however its URL is spelt: `HTTP://Host:80/api/./v1/../` and
 * `http://host/api` name the same service, so neither may see the other's records as foreign (a
 * sync would adopt everything again, `events` would post every event again). WHATWG parsing
 * lower-cases scheme and host, drops a default port and resolves dot segments; trailing slashes are
 * dropped here. Also reads keys written by earlier versions, which kept the text as it was given;
 * anything that is not an http(s) URL (`sandbox`) is its own key.
 */
export function canonicalServiceKey(text: string): string {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return trimmed;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? urlKey(url) : trimmed;
}

function urlKey(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}
