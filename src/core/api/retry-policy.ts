/**
 * When to repeat a request and how long to wait first. Pure functions so the rules can be read
 * (and tested) apart from the request loop.
 */
import type { HeaderLookup } from './node-http.js';
import { proxyFailure } from './proxy-failures.js';

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;

/** Statuses repeated for every call: the request did not reach the service's logic (or was refused for rate). */
/** The request was not taken on: 429 (over quota) and 503 (unavailable). */
const ALWAYS_RETRIED = new Set([429, 503]);
/**
 * Statuses that may come after the service acted: a 500, or a gateway's 502/504 whose upstream may
 * have received the request. Only calls whose repeat is harmless are repeated.
 */
const RETRIED_IF_REPEATABLE = new Set([500, 502, 504]);

/**
 * Failures before any response that are worth another try for every call: the service did not
 * get (or did not start to answer) the request.
 */
const CONNECT_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  CONNECT_TIMEOUT: 'connection timed out',
};

/**
 * A connection that broke once open: the request may have reached the service and been acted on,
 * so only calls whose repeat is harmless try again (an event posted twice notifies twice).
 */
const DROPPED_CONNECTIONS: Record<string, string> = {
  ETIMEDOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CLOSED: 'connection closed',
};

/** Names for the statuses that are retried, as a waiting user reads them. */
const STATUS_WORDS: Record<number, string> = {
  429: 'rate limit',
  500: 'service error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

export function statusWords(status: number): string {
  return STATUS_WORDS[status] ?? 'service error';
}

export type Retry = 'always' | 'if-repeatable' | 'never';

/** Which responses may be repeated, and for which calls. */
export function retryForStatus(status: number): Retry {
  if (ALWAYS_RETRIED.has(status)) return 'always';
  if (RETRIED_IF_REPEATABLE.has(status)) return 'if-repeatable';
  return 'never';
}

export interface FailureInfo {
  /** Short human reason, e.g. "connection refused". */
  reason: string;
  retry: Retry;
  /** The error's code when it had one (ECONNREFUSED, ...). */
  code: string | undefined;
}

/** Classifies an error raised before the response headers arrived (node:http, or a fetch handed in). */
export function classifyConnectFailure(error: unknown): FailureInfo {
  const viaProxy = proxyFailure(error, CONNECT_FAILURES);
  if (viaProxy) return viaProxy;
  const code = errorCode(error);
  if (code !== undefined && CONNECT_FAILURES[code]) return { reason: CONNECT_FAILURES[code], retry: 'always', code };
  if (code !== undefined && DROPPED_CONNECTIONS[code]) return { reason: DROPPED_CONNECTIONS[code], retry: 'if-repeatable', code };
  const message = innermostMessage(error);
  if (/bad port/i.test(message)) return { reason: 'fetch refuses to connect to this port', retry: 'never', code };
  if (/wrong version number/i.test(message)) return { reason: 'TLS error: no TLS on that port (is the service http://?)', retry: 'never', code };
  if (code !== undefined && isTlsCode(code)) return { reason: `TLS error ${code}`, retry: 'never', code };
  // Unknown: it may have happened after the request was sent, so only repeatable calls try again.
  return { reason: code ?? (message || 'network error'), retry: 'if-repeatable', code };
}

/**
 * TLS failures, which repeating cannot mend: OpenSSL's certificate checks (CERT_HAS_EXPIRED,
 * DEPTH_ZERO_SELF_SIGNED_CERT, UNABLE_TO_VERIFY_LEAF_SIGNATURE, ...), Node's ERR_TLS_* and
 * ERR_SSL_*, and EPROTO (a handshake the other end does not speak).
 */
function isTlsCode(code: string): boolean {
  return /CERT|SSL|TLS|^UNABLE_TO_|^DEPTH_ZERO|SELF_SIGNED|^EPROTO$/i.test(code);
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
  }
  return undefined;
}

function innermostMessage(error: unknown): string {
  let message = '';
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const m = (e as { message?: unknown }).message;
    if (typeof m === 'string' && m !== '') message = m;
  }
  return message;
}

/** Full-jitter exponential backoff: a random wait in [0, min(cap, base * 2^(retry-1))). */
export function backoffDelay(retry: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retry - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * ceiling);
}

/** `Retry-After`: delta-seconds or an HTTP-date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only accept something that looks like a date, so garbage such as "soon" is ignored.
  if (!/[A-Za-z]{3}/.test(text) || !/\d{4}/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Wait announced by RateLimit headers: `RateLimit-Reset: <s>`, `RateLimit: limit=.., remaining=..,
 * reset=<s>` (older drafts), `RateLimit: "policy";r=0;t=<s>` (current draft), or
 * `X-RateLimit-Reset: <s>`. The spec does not say which (if any) the service sends, so all are
 * read; a reset value that looks like a Unix time (seconds) is taken as one.
 */
export function parseRateLimitWait(headers: HeaderLookup, now: number): number | undefined {
  const reset =
    resetSeconds(headers.get('ratelimit-reset'), now) ?? rateLimitField(headers.get('ratelimit'), now) ?? resetSeconds(headers.get('x-ratelimit-reset'), now);
  return reset;
}

const UNIX_TIME_FLOOR = 1_000_000_000; // 2001-09-09: no quota window is that long.

function resetSeconds(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  if (n >= UNIX_TIME_FLOOR) return Math.max(0, Math.round(n * 1000 - now));
  return Math.round(n * 1000);
}

function rateLimitField(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  // Current draft: comma-separated items, each `"name";r=<remaining>;t=<seconds>`.
  const items = value.split(',').map((item) => parseParams(item));
  const withT = items.filter((p) => p.t !== undefined);
  if (withT.length > 0) {
    const exhausted = withT.filter((p) => p.r === '0');
    const pool = exhausted.length > 0 ? exhausted : withT;
    const waits = pool.map((p) => resetSeconds(p.t!, now)).filter((w): w is number => w !== undefined);
    return waits.length > 0 ? Math.max(...waits) : undefined;
  }
  // Older drafts: `limit=100, remaining=0, reset=30`.
  for (const p of items) if (p.reset !== undefined) return resetSeconds(p.reset, now);
  return undefined;
}

function parseParams(item: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of item.split(';')) {
    const m = /^\s*([A-Za-z][\w-]*)\s*=\s*"?([^";]*)"?\s*$/.exec(part);
    if (m) out[m[1]!.toLowerCase()] = m[2]!;
  }
  return out;
}

/** `1200` -> `1.2s`, for traces and messages. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
