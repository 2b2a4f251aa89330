/**
 * JobsClient: one method per endpoint of the Job Advert Service. HTTP details (headers, retries,
 * rate limits, timeouts, error mapping) live in the transport; this file says what each endpoint
 * sends, expects and may safely repeat.
 */
import { ConfigError } from '../errors/failures.js';
import { carriesToken } from '../util/token-text.js';
import { badResponseError } from './api-errors.js';
import { Transport, type ClientOptions, type RawResponse, type RequestSpec } from './transport.js';
import { encodeSegment } from '../config/base-url.js';

export type { ClientOptions } from './transport.js';

export interface Stats {
  views: number;
  likes: number;
  applications: number;
  applications_unviewed: number;
}

export const STATS_FIELDS = ['views', 'likes', 'applications', 'applications_unviewed'] as const satisfies readonly (keyof Stats)[];

export interface ApplicationEvent {
  kind: string;
  data?: Record<string, unknown>;
}

export interface CallOptions {
  /** Aborts the call (and any wait before a retry); the call then throws a CancelledError. */
  signal?: AbortSignal;
  /**
   * Repeat `create` after a 500 or a timeout. Only for callers that handle a repeat which already
   * succeeded (publish does: the repeat answers `reference: [taken]`). Ignored by postEvent.
   */
  retryPost?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const ADVERT_NOT_FOUND = 'the advert does not exist or belongs to another client';

export class JobsClient {
  private readonly transport: Transport;

  constructor(private readonly options: ClientOptions) {
    this.transport = new Transport(options);
  }

  /** The same client with other credentials (the spec lets a client repeat a request after a 401). */
  withToken(token: string): JobsClient {
    return new JobsClient({ ...this.options, token });
  }

  /** The service base URL in use (normalised). */
  get baseUrl(): string {
    return this.transport.baseUrl.href;
  }

  /**
   * The last line of defence for the token: whatever put it into a body (a config's defaults, an
   * advert, an event's data), it is not sent. The error names no secret.
   */
  private send(spec: RequestSpec): Promise<RawResponse> {
    const token = this.options.token?.trim() ?? '';
    if (spec.body !== undefined && token !== '' && bodyCarriesToken(spec.body, token)) {
      throw new ConfigError(`refusing to send ${spec.method} ${spec.path.split(token).join('***')}: the request body contains the service token`, {
        details: ['Nothing was sent. Remove the copy of the token from the advert or event data, or from the defaults of a config file.'],
      });
    }
    return this.transport.send(spec);
  }

  /** POST /jobs -> 201. */
  async create(advert: Record<string, unknown>, options: CallOptions = {}): Promise<void> {
    await this.send({
      method: 'POST',
      path: '/jobs',
      body: advert,
      repeatable: Boolean(options.retryPost),
      notRepeatableBecause: 'not retried: the advert may have been created already',
      notFoundHint: 'the service has no /jobs endpoint at this address; check the service URL',
      signal: options.signal,
    });
  }

  /** PUT /jobs/:reference -> 200. The reference is immutable, so it is never sent in the body. */
  async update(reference: string, patch: Record<string, unknown>, options: CallOptions = {}): Promise<void> {
    const { reference: _immutable, ...body } = patch;
    await this.send({
      method: 'PUT',
      path: `/jobs/${encodeSegment(reference)}`,
      body,
      repeatable: true,
      notFoundHint: ADVERT_NOT_FOUND,
      signal: options.signal,
    });
  }

  /**
   * DELETE /jobs/:reference -> 200. Repeated after a timeout or 500 like the other idempotent
   * calls, so a 404 can mean an earlier attempt already deleted it.
   */
  async delete(reference: string, options: CallOptions = {}): Promise<void> {
    await this.send({
      method: 'DELETE',
      path: `/jobs/${encodeSegment(reference)}`,
      repeatable: true,
      notFoundHint: ADVERT_NOT_FOUND,
      signal: options.signal,
    });
  }

  /** GET /jobs/:reference/stats -> 200 with the four counters, each checked. */
  async stats(reference: string, options: CallOptions = {}): Promise<Stats> {
    return (await this.statsAt(reference, options)).stats;
  }

  /**
   * The statistics and the moment they describe: the simulated clock of a sandbox on a loopback
   * address (its `X-Sandbox-Time` header, so fast-forwarded demo days land on their own dates in
   * the history), else undefined (the caller's clock). A remote service cannot move the clock.
   */
  async statsAt(reference: string, options: CallOptions = {}): Promise<{ stats: Stats; at?: number }> {
    const path = `/jobs/${encodeSegment(reference)}/stats`;
    const response = await this.send({ method: 'GET', path, repeatable: true, needsBody: true, notFoundHint: ADVERT_NOT_FOUND, signal: options.signal });
    const stats = parseStats(response, `GET ${path}`, this.transport.redact);
    const at = LOOPBACK.has(this.transport.baseUrl.hostname) ? Date.parse(response.headers.get('x-sandbox-time') ?? '') : NaN;
    return Number.isFinite(at) ? { stats, at } : { stats };
  }

  /**
   * POST /job_applications/:id/events -> 200. Never repeated after a 500 or a timeout: an event
   * posted twice notifies the applicant twice.
   */
  async postEvent(applicationId: string, event: ApplicationEvent, options: CallOptions = {}): Promise<void> {
    const body: ApplicationEvent = { kind: event.kind };
    if (event.data !== undefined) body.data = event.data;
    await this.send({
      method: 'POST',
      path: `/job_applications/${encodeSegment(applicationId, 'application id')}/events`,
      body,
      repeatable: false,
      notRepeatableBecause: 'not retried: the event may have been recorded already, and a repeat would notify the applicant twice',
      notFoundHint: 'the job application does not exist or belongs to another client',
      signal: options.signal,
    });
  }
}

/** Every key and string value, as they would be serialised on the wire. */
function bodyCarriesToken(body: unknown, token: string): boolean {
  // A walk of plain data (what the adverts and events files give) costs a fraction of a stringify
  // with a replacer, which calls back for every value: every event posts once.
  const plain = plainCarriesToken(body, token, 0);
  if (plain !== undefined) return plain;
  let found = false;
  JSON.stringify(body, (key: string, value: unknown) => {
    if (carriesToken(key, token) || (typeof value === 'string' && carriesToken(value, token))) found = true;
    return value;
  });
  return found;
}

/**
 * The same answer for plain objects, arrays and primitives (keys as JSON.stringify visits them,
 * array indexes included); undefined for anything else (a toJSON, a class instance, a boxed
 * string, deep nesting), which the stringify then checks.
 */
function plainCarriesToken(value: unknown, token: string, depth: number): boolean | undefined {
  if (typeof value === 'string') return carriesToken(value, token);
  if (value === null || typeof value !== 'object') return false;
  if (depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = plainCarriesToken(value[i], token, depth + 1);
      if (inner !== false) return inner;
      if (carriesToken(String(i), token)) return true;
    }
    return false;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  for (const key of Object.keys(value)) {
    if (carriesToken(key, token)) return true;
    const inner = plainCarriesToken((value as Record<string, unknown>)[key], token, depth + 1);
    if (inner !== false) return inner;
  }
  return false;
}

function parseStats(response: RawResponse, label: string, redact: (s: string) => string): Stats {
  const fail = (problem: string): Error => badResponseError(response.status, problem, response.body, { label, retries: 0, notFoundHint: '', redact });
  if (response.body.truncated) throw fail('the statistics body is too large');
  let value: unknown;
  try {
    value = JSON.parse(response.body.text);
  } catch {
    throw fail('the statistics are not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail('the statistics are not a JSON object');
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of STATS_FIELDS) {
    const v = record[field];
    if (v === undefined) problems.push(`${field} is missing`);
    else if (typeof v === 'number' && !Number.isFinite(v))
      problems.push(`${field} is not a non-negative integer (got ${numberAsWritten(response.body.text, field)}, too large for any count)`);
    else if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      problems.push(`${field} is not a non-negative integer (got ${JSON.stringify(v).slice(0, 40)})`);
  }
  if (problems.length > 0) throw fail(problems.join('; '));
  return {
    views: record.views as number,
    likes: record.likes as number,
    applications: record.applications as number,
    applications_unviewed: record.applications_unviewed as number,
  };
}

/**
 * A JSON number beyond a double's range (`1e400`) parses to Infinity, which JSON.stringify shows as
 * `null`: the number as the service wrote it, for the message.
 */
function numberAsWritten(text: string, field: string): string {
  const match = new RegExp(`"${field}"\\s*:\\s*(-?[0-9][0-9.eE+-]{0,38})`).exec(text);
  return match ? match[1]! : 'a number';
}
