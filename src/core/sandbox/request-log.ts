/**
 * The requests `GET /_sandbox/requests` lists, bounded in count and in bytes: anyone who can reach
 * the port can send requests, so what is remembered must not grow with what they send. A body
 * larger than MAX_KEPT_BODY_BYTES is not kept (the entry says how large it was), and the oldest
 * entries are dropped past MAX_ENTRIES or MAX_TOTAL_BYTES.
 */
import type { RecordedRequest } from './types.js';

const MAX_ENTRIES = 1000;
/** Far above a real advert (a few KiB), so tests and demos see every body they send. */
export const MAX_KEPT_BODY_BYTES = 64 * 1024;
export const MAX_TOTAL_BYTES = 4 * 1024 * 1024;
/** Method, status, time and JSON punctuation of an entry, roughly. */
const ENTRY_OVERHEAD = 100;

/** A request's body as read: its size, and its JSON value (null when absent, unread or not JSON). */
export interface SeenBody {
  bytes: number;
  value: unknown;
}

export class RequestLog {
  private entries: { request: RecordedRequest; cost: number }[] = [];
  private total = 0;

  add(method: string, path: string, status: number, body: SeenBody | undefined, at: string): void {
    const kept = body !== undefined && body.bytes <= MAX_KEPT_BODY_BYTES;
    const request: RecordedRequest = { method, path, status, body: kept ? body.value : null, at };
    if (body !== undefined && !kept) Object.assign(request, { body_truncated: true, body_bytes: body.bytes });
    const cost = ENTRY_OVERHEAD + method.length + path.length + (kept ? body.bytes : 0);
    this.entries.push({ request, cost });
    this.total += cost;
    while (this.entries.length > MAX_ENTRIES || (this.total > MAX_TOTAL_BYTES && this.entries.length > 1)) {
      this.total -= this.entries.shift()!.cost;
    }
  }

  list(): RecordedRequest[] {
    return this.entries.map((e) => e.request);
  }

  clear(): void {
    this.entries = [];
    this.total = 0;
  }
}
