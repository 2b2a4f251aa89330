/**
 * Turning a failed exchange into an ApiError that reads well: what was asked, what went wrong, the
 * service's error tree (sanitized) when it sent one, a short excerpt of the body when it did not.
 */
import { parseJsonObject } from '../util/json.js';
import { ApiError, type ApiErrorKind } from '../errors/failures.js';
import { describeMessage } from '../errors/messages.js';
import { flattenTree, isErrorTree, type ErrorTree } from '../errors/tree.js';
import { sanitize } from '../util/sanitize.js';
import { excerpt, type BodyText } from './body.js';
import type { HeaderLookup } from './node-http.js';

/** What the request loop knows when it stops. */
export interface Exchange {
  /** `POST /jobs`, `GET /jobs/ACME%2F1/stats`: the endpoint as sent, relative to the base URL. */
  label: string;
  /** Retries already made (attempts - 1). */
  retries: number;
  /** Why no further retry was made although the failure is retryable (time bound). */
  stoppedBecause?: string;
  /** Why a failure that is retryable for other calls was not repeated for this one. */
  notRepeatedBecause?: string;
  /** Completes "not found (404): ..." for this endpoint. */
  notFoundHint: string;
  /** Removes the token from any text (the service could echo it back). */
  redact: (text: string) => string;
}

export const APPLY_EMAIL_HINT =
  "apply_email is not available by default: it must be enabled for your account through the service's support (or remove apply_email from the advert)";

const MAX_TREE_LINES = 30;

/** Every error leaves through here: the token is removed from its message and details. */
function apiError(
  ex: Exchange,
  message: string,
  kind: ApiErrorKind,
  status: number | undefined,
  tree: ErrorTree | undefined,
  details: string[],
  cause?: unknown,
): ApiError {
  return new ApiError(ex.redact(message), kind, status, tree, { details: details.map(ex.redact), ...(cause === undefined ? {} : { cause }) });
}

function afterRetries(n: number): string {
  return n > 0 ? ` after ${n} ${n === 1 ? 'retry' : 'retries'}` : '';
}

function trailer(ex: Exchange): string[] {
  const out: string[] = [];
  if (ex.stoppedBecause) out.push(ex.stoppedBecause);
  if (ex.notRepeatedBecause) out.push(ex.notRepeatedBecause);
  return out;
}

/** The `errors` object of a body, when the body is the spec's error resource. */
export function parseErrorBody(text: string, clean: (s: string) => string): ErrorTree | undefined {
  const errors = parseJsonObject(text)?.errors;
  return isErrorTree(errors) ? cleanTree(errors, clean) : undefined;
}

/** Service text is data: keys and messages are sanitized (and redacted) before anyone shows them. */
function cleanTree(tree: ErrorTree, clean: (s: string) => string): ErrorTree {
  const out: ErrorTree = {};
  for (const [key, value] of Object.entries(tree)) {
    out[clean(key)] = Array.isArray(value) ? value.map(clean) : cleanTree(value, clean);
  }
  return out;
}

/** `title: is too long (maximum 80 characters) [too_long:80]`; unknown identifiers as they came. */
export function treeLines(tree: ErrorTree, skip: readonly string[] = []): string[] {
  const entries = flattenTree(tree).filter((e) => !(e.path.length === 0 && skip.includes(e.message)));
  const lines = entries.slice(0, MAX_TREE_LINES).map((e) => {
    const where = e.path.length === 0 ? 'base' : e.path.join('.');
    const human = describeMessage(e.message);
    return human ? `${where}: ${human} [${e.message}]` : `${where}: ${e.message}`;
  });
  if (entries.length > MAX_TREE_LINES) lines.push(`… and ${entries.length - MAX_TREE_LINES} more`);
  return lines;
}

function bodyLines(body: BodyText, contentType: string | null, clean: (s: string) => string): string[] {
  if (body.text.trim() === '') return ['the response body was empty'];
  const kind = contentType ? ` (${sanitize(contentType).split(';')[0]!.trim()})` : '';
  const cut = body.truncated ? ', cut off' : '';
  return [`the service said${kind}${cut}: ${clean(excerpt(body.text))}`];
}

function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 429) return 'quota';
  if (status >= 500 && status <= 599) return 'server';
  if (status >= 400 && status <= 499) return 'rejected';
  return 'bad_response';
}

/** An error response (after any retries) as an ApiError. */
export function responseError(status: number, headers: HeaderLookup, body: BodyText, ex: Exchange): ApiError {
  const clean = (s: string): string => ex.redact(sanitize(ex.redact(s)));
  const tree = parseErrorBody(body.text, clean);
  const kind = kindForStatus(status);
  let message: string;
  const details: string[] = [];
  let ownIdentifier: string[] = [];
  switch (kind) {
    case 'unauthorized':
      message = `${ex.label}: unauthorized (401): the service did not accept the token`;
      ownIdentifier = ['unauthorized'];
      break;
    case 'not_found':
      message = `${ex.label}: not found (404): ${ex.notFoundHint}`;
      ownIdentifier = ['not_found'];
      break;
    case 'quota':
      message = `${ex.label}: rate quota exceeded (429)${afterRetries(ex.retries)}`;
      ownIdentifier = ['quota_exceeded'];
      break;
    case 'server':
      message = `${ex.label}: service error (${status})${afterRetries(ex.retries)}`;
      break;
    case 'rejected':
      message = `${ex.label}: the service rejected the request (${status})`;
      break;
    default:
      message =
        status >= 300 && status < 400
          ? `${ex.label}: unexpected redirect (${status})${headers.get('location') ? ` to ${clean(excerpt(headers.get('location')!))}` : ''}: check the service URL`
          : `${ex.label}: unexpected response status ${status}`;
  }
  if (tree) {
    for (const line of treeLines(tree, ownIdentifier)) details.push(line);
    if (status === 422 && 'apply_email' in tree) details.push(APPLY_EMAIL_HINT);
  } else if (!(status >= 300 && status < 400)) {
    for (const line of bodyLines(body, headers.get('content-type'), clean)) details.push(line);
  }
  if (kind === 'unauthorized') {
    details.push("check the token (JOBS_TOKEN, --token-file, the profile's token or `jobs login`) and the profile's auth_scheme");
  }
  for (const line of trailer(ex)) details.push(line);
  return apiError(ex, message, kind, status, tree, details);
}

/** A failure before any response: nothing came back from the service. */
export function connectError(baseUrl: string, reason: string, cause: unknown, ex: Exchange, hint?: string): ApiError {
  // node:http's parser codes (HPE_INVALID_STATUS, HPE_INVALID_CONSTANT, ...): the host was reached
  // and answered, in something else than HTTP (an SSH or SMTP banner, a broken proxy).
  // The hint is in the message: bulk commands show one line per failure.
  const what = /^HPE_[A-Z_]+$/.test(reason) ? `the service at ${baseUrl} answered with something that is not HTTP` : `cannot reach ${baseUrl}`;
  const message = `${what} (${reason})${afterRetries(ex.retries)}${hint ? `; ${hint}` : ''}`;
  return apiError(ex, message, 'network', undefined, undefined, [`while sending ${ex.label}`, ...trailer(ex)], cause);
}

/** The response began but its body could not be read to the end. */
export function brokenBodyError(status: number, reason: string, cause: unknown, ex: Exchange): ApiError {
  const message = /^HPE_[A-Z_]+$/.test(reason)
    ? `${ex.label}: the response (${status}) turned into something that is not HTTP (${reason})${afterRetries(ex.retries)}`
    : `${ex.label}: the connection broke while reading the response (${status}, ${reason})${afterRetries(ex.retries)}`;
  return apiError(ex, message, 'network', status, undefined, trailer(ex), cause);
}

export function timeoutError(timeout: string, ex: Exchange): ApiError {
  const message = `${ex.label}: no response within ${timeout} (timeout)${afterRetries(ex.retries)}`;
  return apiError(ex, message, 'timeout', undefined, undefined, [...trailer(ex), 'a slow service or network: raise --timeout, or try again later']);
}

/** A 429 wait (announced to this request or to another one of the same client) beyond the retry time limit. */
export function quotaWaitError(waitText: string, limitText: string, ex: Exchange): ApiError {
  const message = `${ex.label}: rate quota exceeded (429): the service asks to wait ${waitText}, beyond the retry time limit of ${limitText}`;
  return apiError(ex, message, 'quota', 429, undefined, ['try again later, or with fewer requests at a time']);
}

/** A 2xx whose body is not what the spec promises. */
export function badResponseError(status: number, problem: string, body: BodyText, ex: Exchange): ApiError {
  const clean = (s: string): string => ex.redact(sanitize(ex.redact(s)));
  return apiError(ex, `${ex.label}: unexpected response (${status}): ${clean(problem)}`, 'bad_response', status, undefined, bodyLines(body, null, clean));
}
