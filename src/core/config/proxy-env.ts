/**
 * The environment's proxy variables, as configuration reads them (ResolvedConfig.proxyEnv) and the
 * client's proxy choice (api/proxy.ts) uses them. Here, below the client, so resolving settings
 * does not load the client's code.
 */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/** The variables read, so a caller can hand over only those. */
export const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'] as const;

/** The environment's proxy variables only, for settings that travel with a client. */
export function proxyEnvOf(env: ProxyEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PROXY_VARIABLES) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
