/**
 * Content hashes of what is sent: canonical JSON (keys sorted) so key order in a file does not
 * matter. SHA-256 as in state version 1, shortened: a version 1 hash starts with the same characters,
 * so a state written by an earlier release compares equal without a single request.
 */
import { hash as digest } from 'node:crypto';

/** Hex characters kept of an advert's hash (128 bits) and of a field's (only names what changed). */
export const HASH_LENGTH = 32;
export const FIELD_HASH_LENGTH = 8;

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value)) ?? 'null';
}

/**
 * The value with every object's keys in sorted order, for JSON.stringify (much faster than building
 * the text by hand); objects that are sorted already, and hold no objects, are used as they are.
 */
function sortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortedKeys);
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let canonical = true;
  for (let i = 0; i < keys.length && canonical; i++) {
    const v = object[keys[i]!];
    canonical = (i === 0 || keys[i - 1]! < keys[i]!) && (v === null || typeof v !== 'object');
  }
  if (canonical) return object;
  keys.sort();
  // A plain object filled in one order is fast to build and to stringify (a null prototype is not).
  const sorted: Record<string, unknown> = {};
  for (const key of keys) {
    // Assigned, `__proto__` would set the prototype: it is a key like any other.
    if (key === '__proto__') Object.defineProperty(sorted, key, { value: sortedKeys(object[key]), enumerable: true, writable: true, configurable: true });
    else sorted[key] = sortedKeys(object[key]);
  }
  return sorted;
}

export function hashOf(value: unknown, length = HASH_LENGTH): string {
  return digest('sha256', canonicalJson(value), 'hex').slice(0, length);
}

/** The advert's hash and a short hash per top-level field (to name what changed), from one canonical pass. */
export function contentHashes(payload: Record<string, unknown>): { hash: string; fields: Record<string, string> } {
  const keys = Object.keys(payload).sort();
  // Built on a null prototype: a field named `__proto__` is a field like any other.
  const fields: Record<string, string> = Object.create(null);
  const parts: string[] = [];
  for (const key of keys) {
    const value = canonicalJson(payload[key]);
    fields[key] = digest('sha256', value, 'hex').slice(0, FIELD_HASH_LENGTH);
    parts.push(`${JSON.stringify(key)}:${value}`);
  }
  return { hash: digest('sha256', `{${parts.join(',')}}`, 'hex').slice(0, HASH_LENGTH), fields };
}

/**
 * What a file's text yields depends on the reader and on how a payload is built from it (defaults,
 * constant names). Bump this when a release changes either for a text that is already valid: every
 * text hash recorded before then stops matching, and each advert's payload is hashed again.
 */
export const TEXT_HASH_EPOCH = 3;

/** What a text hash covers besides the text: the epoch and the settings that shape a payload. */
export function textHashBasis(settings: unknown, options: unknown): string {
  // The tool's own `jobs:` block is taken off the payload; with unknown fields allowed it used to be
  // sent. Only such runs can get another payload from the same text: only their hashes change (a new
  // epoch would have every no-op sync hash every payload again until its state is next written).
  const own = (options as { allowUnknownFields?: boolean } | undefined)?.allowUnknownFields ? { own_block: 'jobs' } : {};
  return `jobs text hash ${TEXT_HASH_EPOCH}\n${canonicalJson({ settings, options, ...own })}\n`;
}

/**
 * The hash of a file's text (its bytes as read) with the settings: a no-op sync finds an advert
 * unchanged from it without building the payload's canonical JSON (most of the cost of a payload
 * hash). Same basis and same bytes give the same payload: a match is as good as the payload's hash;
 * a mismatch only means "hash the payload". The bytes are hashed as they are (quicker than the
 * decoded text), then with the basis.
 */
export function textHashOf(basis: string, bytes: Uint8Array): string {
  return digest('sha256', basis + digest('sha256', bytes, 'hex'), 'hex').slice(0, HASH_LENGTH);
}
