/** Plain-object helpers shared by config merging and advert defaults. */

export type PlainObject = Record<string, unknown>;

/** An object literal (or YAML/JSON mapping): not an array, a Date, a class instance or null. */
export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Own-property lookup, so names such as `constructor` or `__proto__` are never inherited hits. */
export function ownValue(object: PlainObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/** Sets a key even when it is `__proto__`, without touching the prototype. */
export function defineKey(target: PlainObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy of plain objects and arrays; other values are shared (they are immutable scalars). */
export function cloneData<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneData(item) as unknown) as T;
  if (isPlainObject(value)) {
    const copy: PlainObject = {};
    for (const [key, item] of Object.entries(value)) defineKey(copy, key, cloneData(item));
    return copy as T;
  }
  return value;
}

/**
 * Deep merge of plain objects: `over` wins, arrays and scalars are replaced, not concatenated,
 * `undefined` in `over` leaves the base value. Returns fresh objects; inputs are not mutated.
 */
export function deepMerge(base: PlainObject, over: PlainObject): PlainObject {
  const result = cloneData(base);
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = ownValue(result, key);
    defineKey(result, key, isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : cloneData(value));
  }
  return result;
}

/** The value at a key path, following own properties of plain objects only. */
export function getPath(object: unknown, path: readonly string[]): unknown {
  let node: unknown = object;
  for (const key of path) {
    if (!isPlainObject(node)) return undefined;
    node = ownValue(node, key);
  }
  return node;
}
