/**
 * The agents for a service reached through a proxy or trusted through a CA file; loaded only then,
 * so a plain run loads none of it. Each keeps its connections between requests as the direct
 * agents do (node-http.ts):
 * - http:// through a proxy: a keep-alive agent to the proxy, requests in absolute form
 *   (`GET http://host/path`) with Proxy-Authorization on each;
 * - https:// through a proxy: an https agent whose connections are CONNECT tunnels through the proxy,
 *   with TLS to the service inside; the agent pools the tunnels (and TLS sessions) like sockets.
 * Written on Node's documented Agent#createConnection(options, callback) rather than with a package:
 * it is short, and a refusal of the tunnel (407, 403, 502) must reach the request loop as what it is,
 * not as the service's answer.
 */
import { readFile } from 'node:fs/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { ConfigError } from '../errors/failures.js';
import { CONNECT_TIMEOUT, type Route } from './node-http.js';
import type { ProxyServer } from './proxy.js';
import { ProxyRefusal, reachingProxy, type ProxyLabel } from './proxy-failures.js';
import type { CaFileLabel } from './tls-hints.js';

type RequestFn = (url: string, options: http.RequestOptions) => http.ClientRequest;

export interface Timing {
  idleMs: number;
  connectTimeoutMs: number;
}

export interface Sender {
  request: RequestFn;
  agent: http.Agent;
  /** Set when requests go through a proxy: a 407 on a proxied http request is the proxy's. */
  proxy?: ProxyLabel;
}

export function labelOf(proxy: ProxyServer): ProxyLabel {
  return { shown: proxy.shown, variable: proxy.variable, withCredentials: proxy.authorization !== undefined };
}

export async function senderFor(protocol: string, route: Route, timing: Timing): Promise<Sender> {
  const secureContext = protocol === 'https:' && route.caFile ? await contextTrusting(route.caFile) : undefined;
  const proxy = route.proxy;
  if (!proxy) {
    if (protocol !== 'https:') return { request: http.request as RequestFn, agent: new http.Agent({ keepAlive: true, timeout: timing.idleMs }) };
    return {
      request: https.request as RequestFn,
      agent: new https.Agent({ keepAlive: true, timeout: timing.idleMs, ...(secureContext ? { secureContext } : {}) }),
    };
  }
  const label = labelOf(proxy);
  if (protocol === 'https:') {
    const agent = new TunnelAgent(proxy, label, timing.connectTimeoutMs, {
      keepAlive: true,
      timeout: timing.idleMs,
      ...(secureContext ? { secureContext } : {}),
    });
    return { request: https.request as RequestFn, agent, proxy: label };
  }
  const agent = new http.Agent({ keepAlive: true, timeout: timing.idleMs });
  const request: RequestFn = (url, options) => {
    const target = new URL(url);
    const headers: Record<string, string | number> = { ...(options.headers as Record<string, string | number>), Host: target.host };
    if (proxy.authorization) headers['Proxy-Authorization'] = proxy.authorization;
    const req = http.request({ ...options, host: hostOf(proxy.url), port: portOf(proxy.url), path: target.href, headers, setHost: false });
    // A failure before the connection to the proxy is made is the proxy's: say so.
    let connected = false;
    req.once('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    req.prependListener('error', (error) => {
      if (!connected) reachingProxy(error, label);
    });
    return req;
  };
  return { request, agent, proxy: label };
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function portOf(url: URL): number {
  return Number(url.port || 80);
}

class TunnelAgent extends https.Agent {
  constructor(
    private readonly proxy: ProxyServer,
    private readonly label: ProxyLabel,
    private readonly connectMs: number,
    options: https.AgentOptions,
  ) {
    super(options);
  }

  override createConnection(options: http.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const done = callback!;
    const host = String(options.host ?? 'localhost');
    const target = `${host.includes(':') ? `[${host}]` : host}:${options.port ?? 443}`;
    const headers: Record<string, string> = { Host: target };
    if (this.proxy.authorization) headers['Proxy-Authorization'] = this.proxy.authorization;
    const connect = http.request({
      host: hostOf(this.proxy.url),
      port: portOf(this.proxy.url),
      method: 'CONNECT',
      path: target,
      headers,
      agent: false,
      setHost: false,
    });
    let secure: tls.TLSSocket | undefined;
    let settled = false;
    const fail = (error: Error) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      done(error, undefined as unknown as Duplex);
    };
    // The tunnel and the TLS handshake inside it, under the one connect time limit.
    const timer = setTimeout(() => {
      const error = Object.assign(new Error(`no connection within ${this.connectMs} ms`), { code: CONNECT_TIMEOUT });
      // Connected to the proxy, which then said nothing: proxy-failures.ts words it so.
      if (!secure && connect.socket && !connect.socket.connecting) Object.assign(error, { proxySilentMs: this.connectMs });
      if (secure) secure.destroy(error);
      else {
        connect.destroy();
        fail(reachingProxy(error, this.label));
      }
    }, this.connectMs);
    connect.once('connect', (res: http.IncomingMessage, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        fail(new ProxyRefusal(res.statusCode ?? 0, this.label, target));
        return;
      }
      settled = true;
      // https.Agent's own connection over the tunnel: it keeps TLS sessions for resumption.
      secure = (https.Agent.prototype.createConnection as (this: https.Agent, o: object) => tls.TLSSocket).call(this, { ...options, socket });
      secure.once('secureConnect', () => clearTimeout(timer));
      secure.once('close', () => clearTimeout(timer));
      done(null, secure);
    });
    // A refusal comes as an ordinary response to CONNECT.
    connect.once('response', (res: http.IncomingMessage) => {
      res.resume();
      fail(new ProxyRefusal(res.statusCode ?? 0, this.label, target));
    });
    connect.once('error', (error) => fail(reachingProxy(error, this.label)));
    connect.end();
    return undefined;
  }
}

/**
 * A TLS context that trusts the CA file on top of what Node trusts by default: the bundled roots and
 * NODE_EXTRA_CA_CERTS (which Node applies only when no `ca` is given, so it is added here again).
 */
async function contextTrusting(caFile: CaFileLabel): Promise<tls.SecureContext> {
  const where = `${caFile.path} (from ${caFile.from})`;
  let pem: string;
  try {
    pem = await readFile(caFile.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`the CA file ${where} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(error)})`}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError(`the CA file ${where} holds no PEM certificate`, {
      details: ['Expected one or more blocks from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.'],
    });
  }
  const ca = [...tls.rootCertificates, ...(await extraCaCerts()), pem];
  try {
    return tls.createSecureContext({ ca });
  } catch (error) {
    throw new ConfigError(`the CA file ${where} is not a valid PEM certificate: ${(error as Error).message}`);
  }
}

async function extraCaCerts(): Promise<string[]> {
  // The process's own setting: Node reads it from the real environment at start-up, as here.
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [await readFile(file, 'utf8')];
  } catch {
    return []; // Node has already warned about it at start-up.
  }
}
