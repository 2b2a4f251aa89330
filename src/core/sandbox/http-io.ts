/**
 * The sandbox's HTTP plumbing: reading a request body under a size cap, judging its content type
 * and JSON, and writing replies in the service's error format.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorTree } from '../errors/tree.js';
import type { Reply } from './types.js';

/**
 * The spec shows no payload limit. The sandbox answers a larger body with 413 and
 * `too_long:<bytes>` (the spec's message format), without buffering it; 1 MiB is far above any real
 * advert. `maxBodyBytes` (`jobs sandbox --max-body`) changes it.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * The deepest nesting of objects and arrays a JSON body may have; deeper is 400 `invalid`, the
 * spec's malformed request. An advert nests two levels and event data a few more; unbounded depth
 * would let one body overflow the stack of everything that later walks the stored state.
 */
export const MAX_JSON_DEPTH = 64;

export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * Reads the body, giving up as soon as it is known to exceed `limit` (from Content-Length before
 * reading anything, or while streaming): the rest is never buffered.
 */
export function readBody(req: IncomingMessage, limit = MAX_REQUEST_BYTES): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settle({ ok: false, reason: 'too_large' });
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle({ ok: true, bytes: Buffer.concat(chunks) }));
    req.once('error', () => settle({ ok: false, reason: 'aborted' }));
    req.once('close', () => settle(req.complete ? { ok: true, bytes: Buffer.concat(chunks) } : { ok: false, reason: 'aborted' }));
  });
}

/** How much of a refused body is read and dropped, so the client can read the answer, before hanging up. */
const DISCARD_LIMIT = 8 * MAX_REQUEST_BYTES;

/**
 * After a refusal (413, or 401 and the like before the body was read): the rest of the body is
 * dropped, never buffered. Closing at once could make the
 * client's TCP stack discard our answer (a reset), so a bounded amount is drained first.
 */
export function discardRest(req: IncomingMessage): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DISCARD_LIMIT) req.socket.destroy();
  });
  req.resume();
}

export function errorReply(status: number, tree: ErrorTree, headers?: Record<string, string>): Reply {
  return { status, body: { errors: tree }, ...(headers ? { headers } : {}) };
}

export function baseError(status: number, message: string, headers?: Record<string, string>): Reply {
  return errorReply(status, { base: [message] }, headers);
}

/**
 * The spec does not show the request content type, so a body without one is read as JSON; a body
 * that declares anything but JSON (UTF-8) is refused.
 */
export function acceptableContentType(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  const [type, ...params] = header.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => !p.startsWith('charset=') || /^charset="?utf-8"?$/.test(p));
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false };

export function parseJson(bytes: Buffer, maxDepth = MAX_JSON_DEPTH): ParsedJson {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.trim() === '') return { ok: true, value: undefined };
  if (nestingExceeds(text, maxDepth)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** True when brackets outside strings nest deeper than `max`; one pass, no recursion. */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function sendReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string | number> = { ...reply.headers };
  if (reply.body === undefined) {
    headers['Content-Length'] = 0;
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(reply.status, headers);
  res.end(text);
}
