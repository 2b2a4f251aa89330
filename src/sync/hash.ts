/** Content hashes of what is sent: canonical JSON (keys sorted) so key order in a file does not matter. */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function hashOf(value: unknown, length = 64): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, length);
}

/** A short hash per top-level field, so a plan can name the fields that changed. */
export function fieldHashes(payload: Record<string, unknown>): Record<string, string> {
  // fromEntries defines own properties: a field named `__proto__` is a field like any other.
  return Object.fromEntries(Object.keys(payload).sort().map((key) => [key, hashOf(payload[key], 12)]));
}
