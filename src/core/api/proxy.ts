/**
 * Which proxy, if any, carries requests to the service, from the environment as curl and Go's
 * net/http read it: `https_proxy`/`HTTPS_PROXY` for an https:// service, `http_proxy`/`HTTP_PROXY`
 * for an http:// one (the lower-case form first, as curl; an empty value counts as unset), unless
 * the service is on loopback (never proxied) or `no_proxy`/`NO_PROXY` names it. Pure and cheap: the
 * agents that talk to a proxy are in proxy-agents.ts, loaded only when a proxy applies.
 */
import { ConfigError } from '../errors/failures.js';
import { noProxyMatch } from './no-proxy.js';
import { isLoopbackHost } from '../config/base-url.js';

import type { ProxyEnv } from '../config/proxy-env.js';

export type { ProxyEnv } from '../config/proxy-env.js';

export interface ProxyServer {
  /** `http://proxy.corp:3128`: what to connect to, credentials removed. */
  url: URL;
  /** `http://***@proxy.corp:3128` when the URL holds credentials: the only form ever shown. */
  shown: string;
  /** `Basic ...` when the URL holds a user name (and password). */
  authorization: string | undefined;
  /** The variable it came from. */
  variable: string;
  /** The credentials in the forms they could be echoed in, for redaction. */
  secrets: string[];
}

export type ProxyDecision =
  | { kind: 'proxy'; proxy: ProxyServer }
  | { kind: 'direct'; why: 'loopback' }
  | { kind: 'direct'; why: 'no-proxy'; variable: string; entry: string; proxyVariable: string }
  | { kind: 'direct'; why: 'unset'; variables: [string, string] };

function firstSet(env: ProxyEnv, names: readonly [string, string]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** The proxy for requests to `target` (the service's base URL), and why. */
export function chooseProxy(target: URL, env: ProxyEnv): ProxyDecision {
  const variables: [string, string] = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  if (isLoopbackHost(target.hostname)) return { kind: 'direct', why: 'loopback' };
  const found = firstSet(env, variables);
  if (!found) return { kind: 'direct', why: 'unset', variables };
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  if (noProxy) {
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const entry = noProxyMatch(noProxy.value, target.hostname, port);
    if (entry !== undefined) return { kind: 'direct', why: 'no-proxy', variable: noProxy.name, entry, proxyVariable: found.name };
  }
  return { kind: 'proxy', proxy: parseProxy(found.value, found.name) };
}

/** A proxy URL as curl takes it: `host:port` means `http://host:port`; credentials are percent-encoded. */
export function parseProxy(value: string, variable: string): ProxyServer {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The value may hold a password: only its variable is named.
    throw new ConfigError(`${variable} is not a proxy URL`, { details: ['Expected http://host:port or http://user:password@host:port.'] });
  }
  const hasCredentials = url.username !== '' || url.password !== '';
  const shown = `${url.protocol}//${hasCredentials ? '***@' : ''}${url.host}`;
  if (url.protocol !== 'http:') {
    throw new ConfigError(`${variable} names a ${url.protocol.replace(/:$/, '')}:// proxy (${shown}); jobs speaks to http:// proxies only`, {
      details: [`Use the proxy's http:// address (an https:// service is still encrypted end to end through it), or unset ${variable}.`],
    });
  }
  let authorization: string | undefined;
  const secrets: string[] = [];
  if (hasCredentials) {
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    };
    const basic = Buffer.from(`${decode(url.username)}:${decode(url.password)}`).toString('base64');
    authorization = `Basic ${basic}`;
    secrets.push(basic, `${url.username}:${url.password}@`);
    // A short password would blank out ordinary words; its other forms above are still removed.
    for (const password of new Set([url.password, decode(url.password)])) if (password.length >= 6) secrets.push(password);
  }
  url.username = '';
  url.password = '';
  return { url, shown, authorization, variable, secrets };
}

/** What `doctor` and `--verbose` say about the decision; never a credential. */
export function describeDecision(decision: ProxyDecision): string {
  switch (decision.kind) {
    case 'proxy':
      return `${decision.proxy.shown} (from ${decision.proxy.variable})`;
    case 'direct':
      switch (decision.why) {
        case 'loopback':
          return 'none: the service is on loopback, which is never proxied';
        case 'no-proxy':
          return `none: ${decision.variable} entry "${decision.entry}" matches the service (${decision.proxyVariable} is set)`;
        case 'unset':
          return `none: neither ${decision.variables[0]} nor ${decision.variables[1]} is set`;
      }
  }
}
