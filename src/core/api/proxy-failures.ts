/**
 * Failures that belong to the proxy rather than the service: the proxy could not be reached, or it
 * answered the tunnel request (CONNECT) or a proxied http request with a refusal. They carry the
 * proxy as shown (credentials removed), so a message says which proxy and which variable named it.
 */
import type { Retry } from './retry-policy.js';

export const PROXY_REFUSED = 'PROXY_REFUSED';

/** The proxy as messages show it. */
export interface ProxyLabel {
  /** `http://***@proxy:3128` */
  shown: string;
  /** `HTTPS_PROXY` */
  variable: string;
  /** Whether credentials were sent (Proxy-Authorization). */
  withCredentials: boolean;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  407: 'Proxy Authentication Required',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class ProxyRefusal extends Error {
  readonly code = PROXY_REFUSED;
  constructor(
    readonly status: number,
    readonly proxy: ProxyLabel,
    /** `host:port` the tunnel was asked for. */
    readonly target: string,
  ) {
    super(`the proxy ${proxy.shown} answered ${status} ${STATUS_TEXT[status] ?? ''}`.trim());
  }
}

/** Marks an error as raised while reaching the proxy itself (refused, host not found, ...). */
export function reachingProxy<E>(error: E, proxy: ProxyLabel): E {
  if (error && typeof error === 'object') Object.defineProperty(error, 'reachingProxy', { value: proxy, enumerable: false });
  return error;
}

function proxyOf(error: unknown): ProxyLabel | undefined {
  return error && typeof error === 'object' ? (error as { reachingProxy?: ProxyLabel }).reachingProxy : undefined;
}

/** How the request loop reads a proxy failure; undefined for any other error. */
export function proxyFailure(error: unknown, connectWords: Record<string, string>): { reason: string; retry: Retry; code: string | undefined } | undefined {
  if (error instanceof ProxyRefusal) {
    const { status, proxy, target } = error;
    const code = `${status} ${STATUS_TEXT[status] ?? ''}`.trim();
    // 407 is the proxy's way to ask; some (tinyproxy, for CONNECT) answer 401.
    if (status === 407 || status === 401) {
      const why = proxy.withCredentials ? `did not accept the credentials in ${proxy.variable}` : 'asks for credentials';
      return { reason: `the proxy ${proxy.shown} ${why} (${code})`, retry: 'never', code: PROXY_REFUSED };
    }
    // The service got nothing: a proxy that could not reach it may manage on the next try.
    if (status === 502 || status === 503 || status === 504)
      return { reason: `the proxy ${proxy.shown} could not reach ${target} (${code})`, retry: 'always', code: PROXY_REFUSED };
    return { reason: `the proxy ${proxy.shown} refused the connection to ${target} (${code})`, retry: 'never', code: PROXY_REFUSED };
  }
  const proxy = proxyOf(error);
  if (!proxy) return undefined;
  const code = (error as { code?: unknown }).code;
  const silentFor = (error as { proxySilentMs?: unknown }).proxySilentMs;
  // The proxy took the connection and never answered the tunnel request: it is the one to look at.
  if (typeof silentFor === 'number')
    return {
      reason: `the proxy ${proxy.shown} accepted the connection but did not answer the tunnel request (CONNECT) within ${silentFor} ms`,
      retry: 'always',
      code: typeof code === 'string' ? code : undefined,
    };
  const words = typeof code === 'string' ? connectWords[code] : undefined;
  // Marked only before the proxy connection (or the tunnel) was made: the service got nothing.
  return {
    reason: `${words ?? (typeof code === 'string' ? code : 'network error')} reaching the proxy ${proxy.shown}`,
    retry: 'always',
    code: typeof code === 'string' ? code : undefined,
  };
}

/** What to do about a proxy failure: one clause that ends the error's message. */
export function proxyHint(error: unknown): string | undefined {
  if (error instanceof ProxyRefusal) {
    const { status, proxy } = error;
    if (status === 407 || status === 401) {
      return proxy.withCredentials
        ? `check the user name and password in ${proxy.variable} (percent-encode @ : / in them)`
        : `put the proxy's user name and password in ${proxy.variable}: http://user:password@host:port`;
    }
    if (status === 403)
      return "the proxy does not let this machine reach the service: ask its administrators, or add the service's host to NO_PROXY if it can be reached directly";
    return undefined;
  }
  const proxy = proxyOf(error);
  return proxy ? `check ${proxy.variable} (${proxy.shown}), or add the service's host to NO_PROXY if it can be reached directly` : undefined;
}
