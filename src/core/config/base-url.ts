/**
 * Service URLs: parsing the configured base URL, joining endpoint paths onto it (keeping any base
 * path), encoding references as exactly one path segment, and telling loopback hosts apart.
 */
import { ConfigError, UsageError } from '../errors/failures.js';
import { sanitize } from '../util/sanitize.js';
import { unusableIdentifier } from '../adverts/reference.js';

/** Parses and checks the configured base URL; the returned URL is never mutated. */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConfigError(`invalid service URL "${sanitize(text).slice(0, 200)}": expected an absolute URL such as https://jobs.example.com/api`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`invalid service URL: the scheme must be https:// or http://, not ${sanitize(url.protocol)}//`);
  }
  // Credentials in a URL end up in traces, error messages and shell history; we never echo it back.
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(
      'invalid service URL: it must not contain a user name or password; give the token through JOBS_TOKEN, --token-file, a profile or `jobs login`',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(`invalid service URL "${sanitize(url.href).slice(0, 200)}": it must not have a query (?...) or fragment (#...)`);
  }
  return url;
}

/** Characters a URL path keeps as written (RFC 3986 pchar and `/`): the parser encodes the others. */
const UNCHANGED_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
/** A `.` or `..` segment, written or percent-encoded, which the parser removes. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

/** The base's origin and path without its trailing slashes, for a base with nothing else; one base per run, so kept. */
let prefixOf: { base: URL; href: string; prefix: string | undefined } | undefined;
function plainPrefix(base: URL): string | undefined {
  if (prefixOf?.base !== base || prefixOf.href !== base.href) {
    const plain = base.search === '' && base.hash === '' && base.username === '' && base.password === '';
    prefixOf = { base, href: base.href, prefix: plain ? `${base.origin}${base.pathname.replace(/\/+$/, '')}` : undefined };
  }
  return prefixOf.prefix;
}

/**
 * `https://h/api/v1` or `https://h/api/v1/` + `/jobs` -> `https://h/api/v1/jobs`. Throws when URL
 * normalisation would change the path (it must address exactly the resource asked for).
 */
export function joinUrl(base: URL, path: string): string {
  // Every event posts once: a path the URL parser would leave as it is skips the parser (a URL per
  // request cost about 10 µs of CPU). The result is the same href the parser gives.
  if (UNCHANGED_PATH.test(path) && !DOT_SEGMENT.test(path)) {
    const prefix = plainPrefix(base);
    if (prefix !== undefined) return `${prefix}/${path.replace(/^\/+/, '')}`;
  }
  const url = new URL(base.href);
  const wanted = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  url.pathname = wanted;
  if (url.pathname !== wanted)
    throw new UsageError(`cannot address ${sanitize(path)} at ${sanitize(base.href)}: the URL would be rewritten to ${sanitize(url.pathname)}`);
  return url.href;
}

/**
 * Encodes a reference or application id as ONE path segment: `/`, `?`, `#`, `%` and spaces are
 * encoded, so are the sub-delimiters encodeURIComponent keeps (`!'()*`), which some proxies and
 * routers treat specially.
 *
 * `.` and `..` alone cannot be sent at all: the WHATWG URL parser (which fetch uses) treats them,
 * and their encoded forms `%2E`/`%2E%2E`, as dot segments and removes them, so
 * `/jobs/%2E%2E/stats` would become `/stats`. They are refused instead of escaping the path.
 */
export function encodeSegment(value: string, what = 'reference'): string {
  if (value === '') throw new UsageError(`the ${what} must not be empty`);
  if (value === '.' || value === '..') {
    throw new UsageError(`the ${what} "${value}" cannot be used in a URL: "." and ".." are path navigation, not names`);
  }
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    // URIError "URI malformed": a lone surrogate, which has no UTF-8 form. Refused for this one
    // request, as a usage error (a bulk run reports it against its advert and goes on).
    const why = unusableIdentifier(value, what) ?? `the ${what} cannot be put in a URL`;
    throw new UsageError(`${why}; nothing was sent`);
  }
  return encoded.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. `localhost.` (a trailing
 * dot) is not: it is a fully qualified DNS name, which a resolver may look up on the network instead
 * of in /etc/hosts, so plain http with a token to it is refused like to any other host.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  // Only the name itself: what a *.localhost name resolves to is up to the resolver.
  if (host === 'localhost') return true;
  if (host === '[::1]' || host === '::1') return true;
  // WHATWG URL parsing already normalises IPv4 forms such as 127.1 or 0x7f.1 to dotted quads.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
