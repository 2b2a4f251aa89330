/**
 * An entry's journal key: a hash of what it says (application id, kind, canonical JSON of data) and
 * its occurrence among identical entries. Two identical likes are two entries (`…:1`, `…:2`), and
 * editing other lines does not change a key.
 */
import { createHash } from 'node:crypto';
import type { EventEntry } from './types.js';

/** JSON with object keys sorted at every level, so `{"a":1,"b":2}` and `{"b":2,"a":1}` agree. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Hex digest of an entry's content; absent data and `{}` are different events. */
export function contentHash(entry: Pick<EventEntry, 'application_id' | 'kind' | 'data'>): string {
  const content = canonicalJson(entry.data === undefined ? [entry.application_id, entry.kind] : [entry.application_id, entry.kind, entry.data]);
  return createHash('sha256').update(content).digest('hex').slice(0, 32);
}

/** Gives entries their keys one at a time, in file order: `<hash>:<occurrence>`, occurrences counted from 1. */
export class EntryKeys {
  private readonly seen = new Map<string, number>();

  next(entry: Pick<EventEntry, 'application_id' | 'kind' | 'data'>): string {
    const hash = contentHash(entry);
    const occurrence = (this.seen.get(hash) ?? 0) + 1;
    this.seen.set(hash, occurrence);
    return `${hash}:${occurrence}`;
  }
}

/** The key of every entry, in file order. */
export function entryKeys(entries: readonly EventEntry[]): string[] {
  const keys = new EntryKeys();
  return entries.map((entry) => keys.next(entry));
}
