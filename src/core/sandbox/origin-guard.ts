/**
 * Who may talk to a running sandbox. It listens on this machine, where the user's browser runs too:
 * without these checks a web page could reset or read it, by DNS rebinding (a name the page controls
 * made to resolve to 127.0.0.1: the request then carries that name as its Host) or by a simple
 * cross-origin POST (the browser sends it, with an Origin header, without asking first).
 *
 * - Host must name the sandbox as it listens: localhost, 127.0.0.1, [::1], the address it is bound
 *   to or the name it was started with, with its port. Bound to every interface (0.0.0.0, ::), any
 *   IP address with the port is accepted too (an address is not a name a page can re-point).
 * - A request a browser marks as coming from another origin is refused: an Origin header other than
 *   the sandbox's own `http://<host>`, or Sec-Fetch-Site `cross-site` / `same-site`.
 * Clients that are not browsers (jobs, curl, scripts) send no Origin and the right Host: unaffected.
 */
import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

export interface HostRule {
  /** Accepted `host:port` values, lower case. */
  names: ReadonlySet<string>;
  port: number;
  /** Bound to every interface: any IP literal with the port is accepted. */
  anyAddress: boolean;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The Host values a sandbox answers, from where it asked to listen and where it is bound. */
export function hostRule(requested: string, boundAddress: string, port: number): HostRule {
  const hostPart = (name: string) => (isIP(name) === 6 ? `[${name}]` : name.toLowerCase());
  const names = new Set<string>();
  for (const name of ['localhost', '127.0.0.1', '::1', boundAddress, requested.replace(/^\[|\]$/g, '')]) {
    if (WILDCARDS.has(name)) continue;
    names.add(`${hostPart(name)}:${port}`);
    // Without a port a Host means port 80.
    if (port === 80) names.add(hostPart(name));
  }
  return { names, port, anyAddress: WILDCARDS.has(requested) || WILDCARDS.has(boundAddress) };
}

/** Why a request is refused (a message identifier), or undefined when it may go on. */
export function refusedBecause(headers: IncomingHttpHeaders, rule: HostRule): 'host_not_allowed' | 'cross_origin' | undefined {
  const host = (headers.host ?? '').trim().toLowerCase();
  if (!hostAllowed(host, rule)) return 'host_not_allowed';
  const origin = headers.origin;
  if (origin !== undefined && origin.trim().toLowerCase() !== `http://${host}`) return 'cross_origin';
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return 'cross_origin';
  return undefined;
}

function hostAllowed(host: string, rule: HostRule): boolean {
  if (rule.names.has(host)) return true;
  if (!rule.anyAddress) return false;
  const match = /^(\[[0-9a-f:.]+\]|[0-9.]+)(?::(\d+))?$/.exec(host);
  if (!match) return false;
  const port = match[2] === undefined ? 80 : Number(match[2]);
  return port === rule.port && isIP(match[1]!.replace(/^\[|\]$/g, '')) !== 0;
}
