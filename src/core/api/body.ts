/**
 * Reading response bodies without trusting them: a size cap (a proxy's error page or a broken
 * stream must not eat memory) and a short, sanitized excerpt for messages.
 */
import { sanitize } from '../util/sanitize.js';

/** Bodies this service sends are tiny (empty, an error object, four counters). */
export const MAX_BODY_BYTES = 1024 * 1024;
export const EXCERPT_CHARS = 200;

export interface BodyText {
  text: string;
  /** True when the body was longer than the cap, or broke off, and the rest is missing. */
  truncated: boolean;
  /** Set when the connection failed while the body was being read. */
  error?: unknown;
}

/** A body's chunks up to a byte cap: what passes the cap is cut off and the body marked truncated. */
export class CappedChunks {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit = MAX_BODY_BYTES) {}

  /** Keeps what fits; false once the cap is reached (the rest is not wanted). */
  add(chunk: Uint8Array): boolean {
    const room = this.limit - this.size;
    if (chunk.byteLength > room) {
      this.chunks.push(chunk.subarray(0, room));
      this.size = this.limit;
      this.truncated = true;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    return true;
  }

  /** The body read so far as UTF-8 text (malformed bytes become U+FFFD). */
  text(): string {
    // A 2xx to an event or a delete has no body: no decoder for it.
    if (this.chunks.length === 0) return '';
    const decoder = new TextDecoder('utf-8', { fatal: false });
    return this.chunks.map((c) => decoder.decode(c, { stream: true })).join('') + decoder.decode();
  }
}

/** Reads at most `limit` bytes; a read that fails midway keeps what arrived and reports the error. */
export async function readBodyCapped(response: Response, limit = MAX_BODY_BYTES): Promise<BodyText> {
  if (!response.body) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const body = new CappedChunks(limit);
  let error: unknown;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (e) {
      error = e ?? new Error('the response body broke off');
      break;
    }
    if (chunk.done) break;
    if (!body.add(chunk.value)) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const text = body.text();
  return error === undefined ? { text, truncated: body.truncated } : { text, truncated: true, error };
}

/**
 * A one-line excerpt of a body for an error message: markup removed (a proxy's HTML error page
 * reads as its text), control characters and escape sequences stripped, at most `max` characters.
 */
export function excerpt(text: string, max = EXCERPT_CHARS): string {
  let head = text.slice(0, max * 20);
  if (/^\s*</.test(head)) {
    head = head
      .replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
      .replace(/<[^>]*>?/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  const flat = sanitize(head).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
