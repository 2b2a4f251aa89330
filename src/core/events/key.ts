/**
 * An entry's journal key: a hash of what it says (application id, kind, canonical JSON of data) and
 * its occurrence among identical entries. Two identical likes are two entries (`…:1`, `…:2`), and
 * editing other lines does not change a key.
 */
import { hash } from 'node:crypto';
import type { EventEntry } from './types.js';

/** JSON with object keys sorted at every level, so `{"a":1,"b":2}` and `{"b":2,"a":1}` agree. */
export function canonicalJson(value: unknown): string {
  // Data whose keys are in order already (most events: one or two keys) is what JSON.stringify writes.
  return sortedPlainJson(value, 0) ? JSON.stringify(value) : sortedJson(value);
}

function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/**
 * True when JSON.stringify writes `value` as sortedJson does: plain objects and arrays only, every
 * object's keys in sorted order, no value it would drop or turn (undefined, a function, a toJSON).
 */
function sortedPlainJson(value: unknown, depth: number): boolean {
  if (value === null) return true;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (type !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (value[i] === undefined || !sortedPlainJson(value[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  let previous: string | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
    if (!sortedPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** The first 128 bits of the SHA-256 of an entry's content; absent data and `{}` are different events. */
function contentDigest(entry: Pick<EventEntry, 'application_id' | 'kind' | 'data'>): Buffer {
  const content = canonicalJson(entry.data === undefined ? [entry.application_id, entry.kind] : [entry.application_id, entry.kind, entry.data]);
  // One-shot: a Hash object per entry costs more than the digest itself, a million times over.
  return hash('sha256', content, 'buffer').subarray(0, 16);
}

/** Hex digest of an entry's content. */
export function contentHash(entry: Pick<EventEntry, 'application_id' | 'kind' | 'data'>): string {
  return contentDigest(entry).toString('hex');
}

/**
 * Gives entries their keys one at a time, in file order: `<hash>:<occurrence>`, occurrences counted
 * from 1. The occurrences are counted in a hash table of typed arrays (open addressing) rather than
 * a Map of strings: 40 bytes per entry at most instead of about 150, for a million entries.
 */
export class EntryKeys {
  /** Four 32-bit words of digest per slot; a slot is free while its count is 0. */
  private words = new Uint32Array(4 * 1024);
  private counts = new Uint32Array(1024);
  private size = 0;

  next(entry: Pick<EventEntry, 'application_id' | 'kind' | 'data'>): string {
    const digest = contentDigest(entry);
    const occurrence = this.count(digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12));
    return `${digest.toString('hex')}:${occurrence}`;
  }

  /** Adds one to the count of a digest and returns it. */
  private count(a: number, b: number, c: number, d: number): number {
    const { words, counts } = this;
    const mask = counts.length - 1;
    // The digest is uniform already: its first word is a good slot number.
    for (let slot = a & mask; ; slot = (slot + 1) & mask) {
      if (counts[slot] === 0) {
        words.set([a, b, c, d], slot * 4);
        counts[slot] = 1;
        if (++this.size * 2 > counts.length) this.grow();
        return 1;
      }
      const at = slot * 4;
      if (words[at] === a && words[at + 1] === b && words[at + 2] === c && words[at + 3] === d) return ++counts[slot]!;
    }
  }

  private grow(): void {
    const { words, counts } = this;
    this.words = new Uint32Array(words.length * 2);
    this.counts = new Uint32Array(counts.length * 2);
    const mask = this.counts.length - 1;
    for (let old = 0; old < counts.length; old++) {
      if (counts[old] === 0) continue;
      const a = words[old * 4]!;
      let slot = a & mask;
      while (this.counts[slot] !== 0) slot = (slot + 1) & mask;
      this.words.set(words.subarray(old * 4, old * 4 + 4), slot * 4);
      this.counts[slot] = counts[old]!;
    }
  }
}

/** The key of every entry, in file order. */
export function entryKeys(entries: readonly EventEntry[]): string[] {
  const keys = new EntryKeys();
  return entries.map((entry) => keys.next(entry));
}
