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
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:${canonicalJson((value as Record<string, unknown>)[keys[i]!])}`;
  return `${out}}`;
}

export function hashOf(value: unknown, length = HASH_LENGTH): string {
  return digest('sha256', canonicalJson(value), 'hex').slice(0, length);
}

/** The advert's hash and a short hash per top-level field (to name what changed), from one canonical pass. */
export function contentHashes(payload: Record<string, unknown>): { hash: string; fields: Record<string, string> } {
  const keys = Object.keys(payload).sort();
  // Built on a null prototype: a field named `__proto__` is a field like any other.
  const fields: Record<string, string> = Object.create(null);
  let canonical = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = canonicalJson(payload[key]);
    fields[key] = digest('sha256', value, 'hex').slice(0, FIELD_HASH_LENGTH);
    canonical += `${i > 0 ? ',' : ''}${JSON.stringify(key)}:${value}`;
  }
  return { hash: digest('sha256', `${canonical}}`, 'hex').slice(0, HASH_LENGTH), fields };
}
