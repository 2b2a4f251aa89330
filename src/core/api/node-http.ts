/**
 * How requests go out unless a `fetch` is handed in: node:http and node:https with keep-alive
 * agents. Node 20's fetch costs about three times the CPU per request: posting 10,000 events to a
 * loopback server took 5.1 s of CPU with fetch and 1.4 s with node:http (WHATWG streams, Headers and
 * Response objects for every exchange). Behaviour is fetch's as the transport uses it: no redirect is
 * followed, the body is read up to a cap, and the attempt's signal aborts the request and the body.
 */
import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';
import type { Socket } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { onAbort } from '../util/abort-fanout.js';
import { CappedChunks, MAX_BODY_BYTES, type BodyText } from './body.js';
import type { ProxyServer } from './proxy.js';
import { ProxyRefusal, type ProxyLabel } from './proxy-failures.js';
import type { CaFileLabel } from './tls-hints.js';

/** The response headers the transport reads: names in any case, repeated values joined by `, `. */
export interface HeaderLookup {
  get(name: string): string | null;
}

export interface Exchanged {
  status: number;
  headers: HeaderLookup;
  body: BodyText;
}

export interface OutgoingRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

type RequestFn = (url: string, options: RequestOptions) => ClientRequest;

/**
 * An idle connection is closed after this long (sooner when the service's Keep-Alive header says it
 * closes sooner: Node's agent reads it), as fetch does: a request sent on a connection the service
 * is closing fails without having been read, and a POST is then not repeated (it may have been).
 */
const IDLE_MS = 4000;

/** As fetch: a connection (with its TLS handshake) not made within this long is given up. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The code of a request given up because its connection was not made in time: nothing was sent,
 * so any call may be repeated (see retry-policy.ts). An attempt's own time running out first is a
 * timeout, as with fetch: whether the request went out is then not known.
 */
export const CONNECT_TIMEOUT = 'CONNECT_TIMEOUT';

/** The code of a request stopped while it waited for its connection (through a proxy: the tunnel). */
export const AWAITING_CONNECTION = 'AWAITING_CONNECTION';

/** What a proxy or a CA file changes: the agents come from proxy-agents.ts (see there). */
export interface Route {
  proxy?: ProxyServer | undefined;
  caFile?: CaFileLabel | undefined;
}

interface Sender {
  request: RequestFn;
  agent: Agent;
  proxy?: ProxyLabel;
}

/** One per transport: its connections are kept between requests. */
export class NodeHttp {
  private readonly modules = new Map<string, Promise<Sender>>();
  /** The senders loaded: a request after the first awaits no module. */
  private readonly loaded = new Map<string, Sender>();

  constructor(
    private readonly connectTimeoutMs = CONNECT_TIMEOUT_MS,
    private readonly route: Route = {},
  ) {}

  /** Sends `request` to `url`, whose scheme is `protocol` (`http:` or `https:`). */
  async send(protocol: string, url: string, request: OutgoingRequest): Promise<Exchanged> {
    const { request: send, agent, proxy } = this.loaded.get(protocol) ?? (await this.moduleFor(protocol));
    const exchanged = await exchange(send, agent, url, request, protocol === 'https:' ? 'secureConnect' : 'connect', this.connectTimeoutMs);
    // Through a proxy, a 407 to an http request is the proxy's, never the service's.
    if (proxy && exchanged.status === 407) throw new ProxyRefusal(407, proxy, new URL(url).host);
    return exchanged;
  }

  /** node:https (and with it TLS) is loaded only for an https:// service; the proxy's agents only for a proxy or a CA file. */
  private moduleFor(protocol: string): Promise<Sender> {
    let loaded = this.modules.get(protocol);
    if (!loaded) {
      if (this.route.proxy || this.route.caFile) {
        const timing = { idleMs: IDLE_MS, connectTimeoutMs: this.connectTimeoutMs };
        loaded = import('./proxy-agents.js').then((m) => m.senderFor(protocol, this.route, timing));
      } else {
        loaded = (protocol === 'https:' ? import('node:https') : import('node:http')).then((m) => ({
          request: (url, options) => m.request(withTarget(url, options)),
          agent: new m.Agent({ keepAlive: true, timeout: IDLE_MS }),
        }));
      }
      this.modules.set(
        protocol,
        (loaded = loaded.then((sender) => {
          this.loaded.set(protocol, sender);
          return sender;
        })),
      );
    }
    return loaded;
  }
}

/** The host part of each service URL, as node:http wants it: one service, one entry. */
const origins = new Map<string, { protocol: string; hostname: string; port: number | undefined }>();

/**
 * `options` (a fresh object per request) with the URL's host and path: node:http given a URL
 * string parses it on every request. The URL comes from joinUrl (an href, no query); its host part
 * is parsed once; anything else is parsed whole.
 */
function withTarget(url: string, options: RequestOptions): RequestOptions {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash < 0 || url.includes('?') || url.includes('#')) return { ...urlToHttpOptions(new URL(url)), ...options };
  const origin = url.slice(0, slash);
  let host = origins.get(origin);
  if (!host) {
    const { protocol, hostname, port } = urlToHttpOptions(new URL(origin));
    origins.set(origin, (host = { protocol: protocol!, hostname: hostname!, port: port === undefined ? undefined : Number(port) }));
  }
  options.protocol = host.protocol;
  options.hostname = host.hostname;
  if (host.port !== undefined) options.port = host.port;
  options.path = url.slice(slash);
  return options;
}

function connectTimeout(ms: number): Error {
  return Object.assign(new Error(`no connection within ${ms} ms`), { code: CONNECT_TIMEOUT });
}

function exchange(
  send: RequestFn,
  agent: Agent,
  url: string,
  request: OutgoingRequest,
  connected: 'connect' | 'secureConnect',
  connectMs: number,
): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['Content-Length'] = Buffer.byteLength(request.body);
    let req: ClientRequest;
    try {
      // The signal is not handed to node:http: its abort could destroy a connection the agent has
      // just taken back (Node 20 then throws from the socket). It is applied below, until the end.
      req = send(url, { method: request.method, headers, agent });
    } catch (error) {
      reject(error);
      return;
    }
    let res: IncomingMessage | undefined;
    let connectTimer: ReturnType<typeof setTimeout> | undefined;
    let socketGiven = false;
    let socketConnected = false;
    const stopListening = onAbort(request.signal, () => {
      // A response read to its end needs nothing more.
      if (!res?.complete) req.destroy(request.signal.reason as Error);
      // Still waiting for the agent's connection (a tunnel through a proxy), or for the connection
      // itself (TCP, or a TLS handshake a server never answers): nothing was sent, and the caller
      // says so (the host, not "no response"). Without a socket, destroying the request settles
      // nothing until that connection comes, so the wait ends here.
      if (!socketGiven || !socketConnected) {
        done();
        reject(Object.assign(new Error('no connection was given to the request'), { code: AWAITING_CONNECTION }));
      }
    });
    const done = () => {
      stopListening();
      clearTimeout(connectTimer);
    };
    req.on('socket', (socket: Socket) => {
      socketGiven = true;
      // A kept-alive socket, or one a proxy's agent hands over once its tunnel is made.
      if (!socket.connecting) {
        socketConnected = true;
        return;
      }
      connectTimer = setTimeout(() => req.destroy(connectTimeout(connectMs)), connectMs);
      socket.once(connected, () => {
        socketConnected = true;
        clearTimeout(connectTimer);
      });
    });
    req.on('error', (error) => {
      if (res) {
        // After the headers the body reader reports it; a parser error (HPE_*) is handed to it, so
        // it is reported as what it is rather than as the connection reset that follows.
        if (/^HPE_/.test(String((error as NodeJS.ErrnoException).code)) && !res.destroyed) res.destroy(error);
        return;
      }
      done();
      reject(error);
    });
    req.on('response', (response) => {
      res = response;
      clearTimeout(connectTimer);
      readCapped(response).then((body) => {
        done();
        resolve({ status: response.statusCode ?? 0, headers: lookup(response.headers), body });
      });
    });
    if (request.signal.aborted) req.destroy(request.signal.reason as Error);
    else req.end(request.body);
  });
}

function lookup(headers: IncomingHttpHeaders): HeaderLookup {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** Reads at most `limit` bytes; a body that breaks off keeps what arrived and reports the error. */
function readCapped(res: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyText> {
  return new Promise((resolve) => {
    const body = new CappedChunks(limit);
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      const text = body.text();
      resolve(error === undefined ? { text, truncated: body.truncated } : { text, truncated: true, error });
    };
    res.on('data', (chunk: Buffer) => {
      if (settled || body.add(chunk)) return;
      res.destroy();
      finish();
    });
    res.on('end', () => finish());
    res.on('error', (error) => finish(error ?? new Error('the response body broke off')));
    res.on('close', () => {
      if (!res.complete) finish(Object.assign(new Error('the response body broke off'), { code: 'ECONNRESET' }));
    });
  });
}
