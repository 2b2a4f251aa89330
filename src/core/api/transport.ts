/**
 * One exchange with the service, with everything HTTP: headers, a timeout per attempt, retries with
 * backoff, the shared rate gate, the retry time bound, the verbose trace, and the mapping of
 * failures to ApiError. JobsClient above it only knows endpoints.
 */
import { CancelledError, ConfigError } from '../errors/failures.js';
import { VERSION } from '../version.js';
import { brokenBodyError, connectError, quotaWaitError, responseError, timeoutError, type Exchange } from './api-errors.js';
import { readBodyCapped, type BodyText } from './body.js';
import { AWAITING_CONNECTION, CONNECT_TIMEOUT, CONNECT_TIMEOUT_MS, NodeHttp, type Exchanged, type HeaderLookup, type OutgoingRequest } from './node-http.js';
import { onAbort } from '../util/abort-fanout.js';
import { Deadlines } from './deadlines.js';
import { RateGate } from './rate-gate.js';
import {
  backoffDelay,
  classifyConnectFailure,
  formatSeconds,
  parseRateLimitWait,
  parseRetryAfter,
  retryForStatus,
  statusWords,
  type Retry,
} from './retry-policy.js';
import { isLoopbackHost, joinUrl, parseBaseUrl } from '../config/base-url.js';
import { formatDuration } from '../config/duration.js';
import { chooseProxy, type ProxyEnv, type ProxyServer } from './proxy.js';
import { proxyHint, reachingProxy } from './proxy-failures.js';
import { tlsHint, type CaFileLabel } from './tls-hints.js';

export interface ClientOptions {
  /** Service base URL; any path is kept (`https://h/api/v1` + `/jobs`). */
  baseUrl: string;
  token?: string;
  /** Authorization scheme; default `Bearer`; `''` sends the bare token. */
  authScheme?: string;
  /** Per attempt; default 30 000. */
  timeoutMs?: number;
  /** For a new connection and its TLS handshake; default 10 000 (fetch's). Given up, nothing was sent: any call is repeated. */
  connectTimeoutMs?: number;
  /** Retries after the first attempt; default 5. */
  retries?: number;
  /** Bound on the total time spent waiting to retry; default 120 000. */
  maxRetryTimeMs?: number;
  userAgent?: string;
  /** Sends requests with this fetch instead of node:http / node:https (tests, an in-process service). */
  fetch?: typeof fetch;
  /**
   * A failure known in this process that no retry cures (the embedded sandbox could not keep a
   * change: a link planted at its journal): after a failed attempt it is thrown at once, in place
   * of the service's answer, unretried; once known, no further request is sent.
   */
  knownFailure?: () => Error | undefined;
  /** Verbose trace, one line per request, response and retry decision; the token is never in it. */
  trace?: (line: string) => void;
  /** Allow plain http:// to a host that is not loopback while a token is set. */
  allowInsecureHttp?: boolean;
  /** The environment HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) are read from; no proxy without it, or with `fetch`. */
  proxyEnv?: ProxyEnv;
  /** A PEM file of certificate authorities trusted on top of the default ones (ca_file, JOBS_CA_FILE). */
  caFile?: CaFileLabel;
  /**
   * Told when an attempt goes on the wire; the function it returns is called when the attempt ends.
   * The CLI shows a spinner for a request that takes long; the core draws nothing itself.
   */
  onRequest?: (request: string) => (() => void) | void;
  /** Told before each wait for a retry; the function it returns is called when the wait ends. */
  onWait?: (wait: RetryWait) => (() => void) | void;
  /** Injectable for tests: waits `ms`, rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable for tests: jitter source in [0, 1). */
  random?: () => number;
  /** Injectable for tests: wall clock in ms (HTTP-dates, the rate gate). */
  now?: () => number;
}

/** A wait before the next attempt of a request, as `onWait` hears it. */
export interface RetryWait {
  /** The request, as `POST /jobs`. */
  request: string;
  /** What went wrong: `rate limit (429)`, `service unavailable (503)`, `connection refused (127.0.0.1:4011)`, `no response within 30s`. */
  reason: string;
  /** True when the service said how long to wait (Retry-After, RateLimit headers); false for the client's own backoff. */
  askedByService: boolean;
  ms: number;
  /** The attempt that follows the wait (2 for the first retry), and the most there will be. */
  attempt: number;
  attempts: number;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestSpec {
  method: Method;
  /** Encoded path relative to the base URL, starting with `/`. */
  path: string;
  body?: unknown;
  /** True when repeating the call after a 500, a timeout or a broken response is harmless. */
  repeatable: boolean;
  /** Said when a failure that others would retry is not retried for this call. */
  notRepeatableBecause?: string;
  /** Completes "not found (404): ...". */
  notFoundHint: string;
  /** True when a 2xx is useless without its whole body (stats); other calls succeed on the status alone. */
  needsBody?: boolean;
  signal?: AbortSignal | undefined;
}

export interface RawResponse {
  status: number;
  headers: HeaderLookup;
  body: BodyText;
}

/** How long before an attempt's time runs out a tunnel through a proxy is given up (see the constructor). */
const PROXY_TUNNEL_MARGIN_MS = 50;

export const DEFAULTS = { authScheme: 'Bearer', timeoutMs: 30_000, retries: 5, maxRetryTimeMs: 120_000 } as const;

/** At most this many gate re-checks per attempt, so a gate extended again and again cannot spin forever. */
const MAX_GATE_ROUNDS = 8;

type Outcome =
  | { type: 'response'; response: RawResponse; ms: number }
  | { type: 'connect-failure'; error: unknown; reason: string; retry: Retry; code: string | undefined; ms: number }
  | { type: 'body-failure'; status: number; error: unknown; reason: string; ms: number }
  | { type: 'timeout'; ms: number }
  | { type: 'cancelled' };

class TimeoutReason extends Error {}

/** One exchange through a fetch handed in: the same result as node-http.ts gives. */
async function viaFetch(fetchFn: typeof fetch, url: string, request: OutgoingRequest): Promise<Exchanged> {
  const response = await fetchFn(url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    // A redirect would re-send the request (maybe as GET, maybe elsewhere): report it instead.
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, body: await readBodyCapped(response) };
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      stopListening?.();
      resolve();
    }, ms);
    const stopListening = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        })
      : undefined;
  });
}

function nonNegativeInt(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`invalid ${what}: ${value} (expected a number of 0 or more)`);
  return Math.floor(value);
}

export class Transport {
  readonly baseUrl: URL;
  private readonly scheme: string;
  private readonly authorization: string | undefined;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly maxRetryTimeMs: number;
  private readonly userAgent: string;
  private readonly gate: RateGate;
  private readonly sleep: NonNullable<ClientOptions['sleep']>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly deadlines: Deadlines;
  private readonly http: NodeHttp;
  private readonly proxy: ProxyServer | undefined;
  private proxyTraced = false;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.scheme = (options.authScheme ?? DEFAULTS.authScheme).trim();
    const token = options.token?.trim();
    this.token = token === '' ? undefined : token;
    if (this.token !== undefined) {
      // A newline in a token file would split the header; say so without showing the token.
      if (!/^[\x21-\x7e]+$/.test(this.token)) {
        throw new ConfigError('the token contains spaces, line breaks or non-ASCII characters and cannot be sent in a header; check where it comes from');
      }
      if (this.baseUrl.protocol === 'http:' && !isLoopbackHost(this.baseUrl.hostname) && !options.allowInsecureHttp) {
        throw new ConfigError(
          `refusing to send the token over plain http:// to ${this.baseUrl.host}: anyone on the network could read it; use an https:// service URL (http:// is allowed only for loopback addresses such as 127.0.0.1 and localhost, or with allow_insecure_http: true in your user config if you accept that risk)${this.baseUrl.hostname.endsWith('.') ? `; ${this.baseUrl.hostname} with its trailing dot is a DNS name, not this machine: write ${this.baseUrl.hostname.replace(/\.+$/, '')}` : ''}`,
        );
      }
      this.authorization = this.scheme === '' ? this.token : `${this.scheme} ${this.token}`;
    }
    this.timeoutMs = nonNegativeInt(options.timeoutMs, DEFAULTS.timeoutMs, 'timeout');
    if (this.timeoutMs === 0) throw new ConfigError('invalid timeout: 0 (expected more than 0 ms)');
    this.retries = nonNegativeInt(options.retries, DEFAULTS.retries, 'retry count');
    this.maxRetryTimeMs = nonNegativeInt(options.maxRetryTimeMs, DEFAULTS.maxRetryTimeMs, 'retry time limit');
    this.userAgent = options.userAgent ?? `jobs/${VERSION} node/${process.version}`;
    this.now = options.now ?? Date.now;
    this.gate = new RateGate(this.now);
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.deadlines = new Deadlines(this.timeoutMs, () => new TimeoutReason());
    const decision = options.proxyEnv && !options.fetch ? chooseProxy(this.baseUrl, options.proxyEnv) : undefined;
    this.proxy = decision?.kind === 'proxy' ? decision.proxy : undefined;
    const connectMs = Math.max(1, nonNegativeInt(options.connectTimeoutMs, CONNECT_TIMEOUT_MS, 'connect timeout'));
    // Through a proxy, the tunnel is given up just before the attempt's own time (--timeout): a
    // proxy that accepts the connection and never answers is then named, and waited on no longer
    // than --timeout says (a request waiting for its tunnel is not ended by the attempt's abort).
    this.http = new NodeHttp(this.proxy && this.timeoutMs > 0 ? Math.min(connectMs, Math.max(1, this.timeoutMs - PROXY_TUNNEL_MARGIN_MS)) : connectMs, {
      proxy: this.proxy,
      caFile: options.caFile,
    });
  }

  /** Removes the token (and the proxy's credentials) from a text that could contain them. */
  redact = (text: string): string => {
    let out = this.token ? text.split(this.token).join('***') : text;
    for (const secret of this.proxy?.secrets ?? []) out = out.split(secret).join('***');
    return out;
  };

  private trace(line: string): void {
    if (this.options.trace) this.options.trace(this.redact(line));
  }

  /** Sends one request, repeating it as the retry rules allow; resolves with a 2xx response. */
  async send(spec: RequestSpec): Promise<RawResponse> {
    let url: string;
    try {
      url = joinUrl(this.baseUrl, spec.path);
    } catch (error) {
      if (error instanceof Error) error.message = this.redact(error.message);
      throw error;
    }
    // No request after the embedded sandbox could not keep a change: each would only fail the same way.
    const knownBefore = this.options.knownFailure?.();
    if (knownBefore) throw knownBefore;
    const attempts = this.retries + 1;
    const exchange = (retries: number, extra: Partial<Exchange> = {}): Exchange => ({
      label: `${spec.method} ${spec.path}`,
      retries,
      notFoundHint: spec.notFoundHint,
      redact: this.redact,
      ...extra,
    });
    let waited = 0;
    let announced = false;
    // A 429's wait is spent at the gate on the next round: the caller hears of its end there.
    let gateWaitEnds: (() => void) | void = undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        // An open gate (nearly always) costs no await and no Exchange.
        if (this.gate.remaining() > 0) waited += await this.passGate(spec, waited, announced, exchange(attempt - 1));
      } finally {
        gateWaitEnds?.();
        gateWaitEnds = undefined;
      }
      announced = false;
      const outcome = await this.attempt(url, spec);
      if (outcome.type === 'cancelled') throw this.cancelled(spec);
      if (outcome.type === 'response' && outcome.response.status >= 200 && outcome.response.status <= 299) return outcome.response;

      const known = this.options.knownFailure?.();
      if (known) throw known;
      const retry = this.retryFor(outcome);
      const allowed = retry === 'always' || (retry === 'if-repeatable' && spec.repeatable);
      const notRepeated = retry === 'if-repeatable' && !spec.repeatable ? spec.notRepeatableBecause : undefined;
      if (!allowed || attempt >= attempts) throw this.failure(outcome, exchange(attempt - 1, { notRepeatedBecause: notRepeated }));

      const { ms: wait, askedByService } = this.waitBefore(outcome, attempt);
      if (waited + wait > this.maxRetryTimeMs) {
        const because = `stopped retrying: the next wait (${formatSeconds(wait)}) would pass the retry time limit (${formatDuration(this.maxRetryTimeMs)})`;
        this.trace(`giving up: ${because.replace(/^stopped retrying: /, '')}`);
        // Still close the gate: the other requests of this client would only hear 429 too.
        if (outcome.type === 'response' && outcome.response.status === 429) this.gate.pause(wait);
        throw this.failure(outcome, exchange(attempt - 1, { stoppedBecause: because }));
      }
      this.trace(`retrying in ${formatSeconds(wait)} (${this.describe(outcome)}, attempt ${attempt + 1}/${attempts})`);
      const waitEnds = this.options.onWait?.({
        request: this.redact(`${spec.method} ${spec.path}`),
        reason: this.reasonFor(outcome),
        askedByService,
        ms: wait,
        attempt: attempt + 1,
        attempts,
      });
      if (outcome.type === 'response' && outcome.response.status === 429) {
        // The quota is the client's: every request of this client waits, this one at the gate too.
        this.gate.pause(wait);
        announced = true;
        gateWaitEnds = waitEnds;
      } else {
        try {
          await this.pause(wait, spec);
        } finally {
          waitEnds?.();
        }
        waited += wait;
      }
    }
  }

  /** Waits while the shared gate is closed; returns the time waited. */
  private async passGate(spec: RequestSpec, waitedSoFar: number, announced: boolean, ex: Exchange): Promise<number> {
    let waited = 0;
    for (let round = 0; round < MAX_GATE_ROUNDS; round++) {
      const remaining = this.gate.remaining();
      if (remaining <= 0) break;
      if (waitedSoFar + waited + remaining > this.maxRetryTimeMs) {
        this.trace(`giving up: the rate limit wait (${formatSeconds(remaining)}) would pass the retry time limit (${formatDuration(this.maxRetryTimeMs)})`);
        throw quotaWaitError(formatSeconds(remaining), formatDuration(this.maxRetryTimeMs), ex);
      }
      if (!announced || round > 0) this.trace(`waiting ${formatSeconds(remaining)}: the service asked this client to slow down (429)`);
      const opensAt = this.gate.opensAt;
      await this.pause(remaining, spec);
      waited += remaining;
      // Re-check only when another 429 pushed the gate further while we slept.
      if (this.gate.opensAt <= opensAt) break;
    }
    return waited;
  }

  private async pause(ms: number, spec: RequestSpec): Promise<void> {
    if (spec.signal?.aborted) throw this.cancelled(spec);
    try {
      await this.sleep(ms, spec.signal);
    } catch (error) {
      if (spec.signal?.aborted) throw this.cancelled(spec);
      throw error;
    }
    if (spec.signal?.aborted) throw this.cancelled(spec);
  }

  private cancelled(spec: RequestSpec): CancelledError {
    return new CancelledError(this.redact(`${spec.method} ${spec.path}: cancelled`));
  }

  /** The request headers with a body and without, made once: every request reads one (node-http.ts copies it). */
  private readonly headerSets: Partial<Record<'body' | 'none', Readonly<Record<string, string>>>> = {};

  private headers(hasBody: boolean): Record<string, string> {
    const which = hasBody ? 'body' : 'none';
    let headers = this.headerSets[which];
    if (headers === undefined) {
      const made: Record<string, string> = { Accept: 'application/json', 'User-Agent': this.userAgent };
      if (this.authorization !== undefined) made.Authorization = this.authorization;
      if (hasBody) made['Content-Type'] = 'application/json';
      this.headerSets[which] = headers = Object.freeze(made);
    }
    return headers as Record<string, string>;
  }

  /** One attempt: the timeout covers the whole exchange, headers and body. */
  private async attempt(url: string, spec: RequestSpec): Promise<Outcome> {
    if (spec.signal?.aborted) return { type: 'cancelled' };
    const deadline = this.deadlines.start();
    const outer = spec.signal;
    // A caller's signal (Ctrl-C) stops this attempt only: the deadline's signal is shared with others.
    const own = outer ? new AbortController() : undefined;
    const stopListening = own
      ? [onAbort(outer!, () => own.abort(outer!.reason)), onAbort(deadline.signal, () => own.abort(deadline.signal.reason))]
      : undefined;
    const signal = own ? own.signal : deadline.signal;
    const hasBody = spec.body !== undefined;
    const started = this.now();
    const elapsed = (): number => Math.max(0, Math.round(this.now() - started));
    const interrupted = (): Outcome | undefined =>
      spec.signal?.aborted ? { type: 'cancelled' } : signal.reason instanceof TimeoutReason ? { type: 'timeout', ms: elapsed() } : undefined;

    let ended: (() => void) | void = undefined;
    try {
      // Inside the try: a trace callback that throws still ends the deadline (its timer would hold the process).
      // Without --verbose no trace line is made: an events run makes three per event otherwise.
      if (this.options.trace) {
        this.trace(`> ${spec.method} ${url}`);
        if (this.proxy && !this.proxyTraced) {
          this.proxyTraced = true;
          this.trace(`> through the proxy ${this.proxy.shown} (from ${this.proxy.variable})`);
        }
        if (this.authorization !== undefined) this.trace(`> authorization: ${this.scheme === '' ? '' : `${this.scheme} `}***`);
      }
      ended = this.options.onRequest?.(this.redact(`${spec.method} ${spec.path}`));
      const request: OutgoingRequest = { method: spec.method, headers: this.headers(hasBody), ...(hasBody ? { body: JSON.stringify(spec.body) } : {}), signal };
      let response: Exchanged;
      try {
        response = this.options.fetch ? await viaFetch(this.options.fetch, url, request) : await this.http.send(this.baseUrl.protocol, url, request);
      } catch (error) {
        if (error instanceof ConfigError) throw error; // an unreadable CA file: nothing was sent
        const stop = interrupted();
        // The attempt's time ran out while the proxy had not given a tunnel: the proxy is named.
        if (stop?.type === 'timeout' && this.proxy && (error as { code?: unknown }).code === AWAITING_CONNECTION) {
          const proxy = { shown: this.proxy.shown, variable: this.proxy.variable, withCredentials: this.proxy.authorization !== undefined };
          return this.traced({
            type: 'connect-failure',
            error: reachingProxy(error, proxy),
            reason: `the proxy ${proxy.shown} did not open a connection to the service within ${formatDuration(this.timeoutMs)} (--timeout)`,
            retry: 'always',
            code: CONNECT_TIMEOUT,
            ms: elapsed(),
          });
        }
        // The attempt's time ran out before the connection was made (a server that accepts TCP but
        // never answers TLS): nothing was sent, and the host is named.
        if (stop?.type === 'timeout' && (error as { code?: unknown }).code === AWAITING_CONNECTION) {
          const what = this.baseUrl.protocol === 'https:' ? 'the connection and its TLS handshake' : 'the connection';
          return this.traced({
            type: 'connect-failure',
            // As a connect timeout: nothing was sent (an events run journals it as failed, not uncertain).
            error: Object.assign(new Error(`${what} did not finish in time`), { code: CONNECT_TIMEOUT, cause: error }),
            reason: `${what} did not finish within ${formatDuration(this.timeoutMs)} (--timeout)`,
            retry: 'always',
            code: CONNECT_TIMEOUT,
            ms: elapsed(),
          });
        }
        if (stop) return this.traced(stop);
        const info = classifyConnectFailure(error);
        return this.traced({ type: 'connect-failure', error, reason: info.reason, retry: info.retry, code: info.code, ms: elapsed() });
      }
      const body = response.body;
      // The status decides success or failure: a body that breaks off matters only for a 2xx whose
      // data we need (stats); an error status is reported with what arrived.
      const ok = response.status >= 200 && response.status <= 299;
      if (body.error !== undefined && ok && spec.needsBody) {
        const stop = interrupted();
        if (stop) return this.traced(stop);
        return this.traced({
          type: 'body-failure',
          status: response.status,
          error: body.error,
          reason: classifyConnectFailure(body.error).reason,
          ms: elapsed(),
        });
      }
      return this.traced({ type: 'response', response: { status: response.status, headers: response.headers, body }, ms: elapsed() });
    } finally {
      deadline.end();
      if (stopListening) for (const stop of stopListening) stop();
      ended?.();
    }
  }

  private traced(outcome: Outcome): Outcome {
    if (!this.options.trace) return outcome;
    switch (outcome.type) {
      case 'response':
        this.trace(`< ${outcome.response.status} in ${outcome.ms}ms`);
        break;
      case 'connect-failure':
      case 'body-failure':
        this.trace(`< ${outcome.reason} after ${outcome.ms}ms`);
        break;
      case 'timeout':
        this.trace(`< no response within ${formatDuration(this.timeoutMs)} (timeout)`);
        break;
      case 'cancelled':
        this.trace('< cancelled');
    }
    return outcome;
  }

  private retryFor(outcome: Exclude<Outcome, { type: 'cancelled' }>): Retry {
    switch (outcome.type) {
      case 'response':
        return retryForStatus(outcome.response.status);
      case 'connect-failure':
        return outcome.retry;
      // The service may have acted on the request: only repeatable calls are repeated.
      case 'body-failure':
      case 'timeout':
        return 'if-repeatable';
    }
  }

  private waitBefore(outcome: Outcome, attempt: number): { ms: number; askedByService: boolean } {
    if (outcome.type === 'response') {
      const { status, headers } = outcome.response;
      const now = this.now();
      const asked = parseRetryAfter(headers.get('retry-after'), now) ?? (status === 429 ? parseRateLimitWait(headers, now) : undefined);
      if (asked !== undefined) return { ms: asked, askedByService: true };
    }
    return { ms: backoffDelay(attempt, this.random), askedByService: false };
  }

  /** What went wrong, in words, for someone waiting on the retry. */
  private reasonFor(outcome: Exclude<Outcome, { type: 'cancelled' }>): string {
    switch (outcome.type) {
      case 'response':
        return `${statusWords(outcome.response.status)} (${outcome.response.status})`;
      case 'connect-failure':
        return `${outcome.reason} (${this.baseUrl.host})`;
      case 'body-failure':
        return `${outcome.reason} while reading the response (${outcome.status})`;
      case 'timeout':
        return `no response within ${formatDuration(this.timeoutMs)}`;
    }
  }

  private describe(outcome: Outcome): string {
    switch (outcome.type) {
      case 'response':
        return String(outcome.response.status);
      case 'connect-failure':
      case 'body-failure':
        return outcome.reason;
      case 'timeout':
        return 'timeout';
      case 'cancelled':
        return 'cancelled';
    }
  }

  private failure(outcome: Exclude<Outcome, { type: 'cancelled' }>, ex: Exchange): Error {
    switch (outcome.type) {
      case 'response': {
        const { status, headers, body } = outcome.response;
        return responseError(status, headers, body, ex);
      }
      case 'connect-failure':
        return connectError(this.baseUrl.href, outcome.reason, outcome.error, ex, proxyHint(outcome.error) ?? tlsHint(outcome.code, this.options.caFile));
      case 'body-failure':
        return brokenBodyError(outcome.status, outcome.reason, outcome.error, ex);
      case 'timeout':
        return timeoutError(formatDuration(this.timeoutMs), ex);
    }
  }
}
