/**
 * Partial updates from `--set path=value` flags: each value is typed by the update schema with the
 * same rules as a YAML file (an unquoted value in a string field stays text; integer fields take
 * numbers only; list fields take a YAML flow list such as [Go, Rust]).
 */
import { parseDocument } from 'yaml';
import { typedPlainScalar } from '../adverts/scalars.js';
import { UsageError } from '../errors/failures.js';
import { advertFieldTypes } from '../generated/validators.js';
import { defineKey, isPlainObject, ownValue, type PlainObject } from '../config/plain.js';

/**
 * Names that reach an object's prototype when used as keys (`patch.__proto__.x = ...` would set `x`
 * on every object, such as the request options of the PUT). No advert field has these names.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The field types of the update schema, by own key only (`hasOwnProperty` is not a field). */
function fieldTypes(dotted: string): (typeof advertFieldTypes)[string] | undefined {
  return Object.prototype.hasOwnProperty.call(advertFieldTypes, dotted) ? advertFieldTypes[dotted] : undefined;
}

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
  const unsafe = path.find((p) => PROTOTYPE_KEYS.has(p));
  if (unsafe !== undefined) {
    throw new UsageError(`--set ${text}: "${unsafe}" cannot be a field name (it names a JavaScript object's prototype, and no advert field is called that)`);
  }
  if (dotted === 'reference') {
    throw new UsageError(
      `--set ${text}: the reference is immutable: it names the advert to update and is never sent; to use another reference, publish the advert under the new one and delete the old`,
    );
  }
  const types = fieldTypes(dotted);
  if (types === 'array') {
    // A warning (an unknown tag: `[!foo a]`) is refused too, instead of printed as a Node warning.
    const doc = parseDocument(raw.trim().startsWith('[') ? raw : `[${raw}]`, { schema: 'failsafe' });
    if (doc.errors.length > 0 || doc.warnings.length > 0) throw new UsageError(`--set ${text}: write a list as [a, b, c]`);
    const list: unknown = doc.toJS();
    return { path, value: Array.isArray(list) ? list.map((v) => typedPlainScalar(String(v), fieldTypes(`${dotted}[]`))) : list, text };
  }
  if (types === 'object') throw new UsageError(`--set ${text}: ${dotted} is an object; set its fields one by one (--set ${dotted}.<field>=...)`);
  return { path, value: typedPlainScalar(raw, types), text };
}

/**
 * Sets a dotted path in a patch, creating nested objects on the way. Plain data only: keys are
 * defined as own properties and read as own properties, so no key reaches a prototype.
 */
export function applySet(patch: Record<string, unknown>, set: SetFlag): void {
  let node: PlainObject = patch;
  for (const key of set.path.slice(0, -1)) {
    let next = ownValue(node, key);
    if (!isPlainObject(next)) {
      next = {};
      defineKey(node, key, next);
    }
    node = next as PlainObject;
  }
  defineKey(node, set.path[set.path.length - 1]!, set.value);
}
