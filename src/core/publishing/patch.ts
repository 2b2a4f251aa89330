/**
 * Partial updates from `--set path=value` flags: each value is typed by the update schema with the
 * same rules as a YAML file (an unquoted value in a string field stays text; integer fields take
 * numbers only; list fields take a YAML flow list such as [Go, Rust]).
 */
import { parseDocument } from 'yaml';
import { typedPlainScalar } from '../adverts/scalars.js';
import { UsageError } from '../errors/failures.js';
import { advertFieldTypes } from '../generated/validators.js';

export interface SetFlag {
  path: string[];
  value: unknown;
  /** The flag as given, for error messages. */
  text: string;
}

export function parseSetFlag(text: string): SetFlag {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set ${text}: expected path=value, for example --set location.city=Lyon`);
  const dotted = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1);
  const path = dotted.split('.');
  if (path.some((p) => p === '')) throw new UsageError(`--set ${text}: "${dotted}" is not a field path (use dots between names: recruiter.phone)`);
  if (dotted === 'reference') {
    throw new UsageError(`--set ${text}: the reference is immutable: it names the advert to update and is never sent; to use another reference, publish the advert under the new one and delete the old`);
  }
  const types = advertFieldTypes[dotted];
  if (types === 'array') {
    // A warning (an unknown tag: `[!foo a]`) is refused too, instead of printed as a Node warning.
    const doc = parseDocument(raw.trim().startsWith('[') ? raw : `[${raw}]`, { schema: 'failsafe' });
    if (doc.errors.length > 0 || doc.warnings.length > 0) throw new UsageError(`--set ${text}: write a list as [a, b, c]`);
    const list: unknown = doc.toJS();
    return { path, value: Array.isArray(list) ? list.map((v) => typedPlainScalar(String(v), advertFieldTypes[`${dotted}[]`])) : list, text };
  }
  if (types === 'object') throw new UsageError(`--set ${text}: ${dotted} is an object; set its fields one by one (--set ${dotted}.<field>=...)`);
  return { path, value: typedPlainScalar(raw, types), text };
}

/** Sets a dotted path in a patch, creating nested objects on the way. */
export function applySet(patch: Record<string, unknown>, set: SetFlag): void {
  let node = patch;
  for (const key of set.path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[set.path[set.path.length - 1]!] = set.value;
}
