/**
 * The error tree: the service's error object (`{"errors": {...}}` minus the wrapper) and the one
 * error currency of the tool. Keys are parameters; values are arrays of message identifiers, or
 * nested trees that repeat the request's nesting. `base` holds errors that belong to no parameter.
 */
export type ErrorTree = { [key: string]: string[] | ErrorTree };

/** One message with the path of the parameter it belongs to (`[]` for base). */
export interface ErrorEntry {
  path: string[];
  message: string;
}

export const BASE_KEY = 'base';

/** Own value of a key (a key like `constructor` must not find Object.prototype's). */
function own(node: ErrorTree, key: string): string[] | ErrorTree | undefined {
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

/** Sets a key as an own data property, even `__proto__`. */
function put(node: ErrorTree, key: string, value: string[] | ErrorTree): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Adds one message under a path, creating the nesting on the way. */
export function addError(tree: ErrorTree, path: readonly (string | number)[], message: string): void {
  const keys = path.length === 0 ? [BASE_KEY] : path.map(String);
  let node: ErrorTree = tree;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    let next = own(node, key);
    if (next === undefined) {
      next = {};
      put(node, key, next);
    } else if (Array.isArray(next)) {
      // A key already holding messages for the parent itself: keep them under `base` of the child.
      const child: ErrorTree = { [BASE_KEY]: next };
      put(node, key, child);
      next = child;
    }
    node = next;
  }
  const leaf = keys[keys.length - 1]!;
  const existing = own(node, leaf);
  if (existing === undefined) put(node, leaf, [message]);
  else if (Array.isArray(existing)) addOnce(existing, message);
  else {
    const base = own(existing, BASE_KEY) ?? [];
    if (Array.isArray(base)) addOnce(base, message);
    put(existing, BASE_KEY, base);
  }
}

/** Past this many messages at one path, whether one is there is looked up in a set (see addOnce). */
const INDEXED = 32;
const indexes = new WeakMap<string[], Set<string>>();

/**
 * Adds a message to a path's list unless it is there. A long text can give one field thousands of
 * findings (wording checks): scanning the list for each would make them cost their square.
 */
function addOnce(list: string[], message: string): void {
  let index = indexes.get(list);
  if (index === undefined && list.length >= INDEXED) indexes.set(list, (index = new Set(list)));
  // A list changed behind addError's back (none is, today) would leave the set behind: checked by size.
  if (index !== undefined && index.size !== list.length) indexes.set(list, (index = new Set(list)));
  if (index ? index.has(message) : list.includes(message)) return;
  list.push(message);
  index?.add(message);
}

/** Removes every message at a path (not those below it), dropping objects left empty. */
export function clearErrors(tree: ErrorTree, path: readonly string[]): void {
  const keys = path.length === 0 ? [BASE_KEY] : path;
  const walk = (node: ErrorTree, i: number): void => {
    const key = keys[i]!;
    const value = own(node, key);
    if (value === undefined) return;
    if (i === keys.length - 1) {
      if (Array.isArray(value)) delete node[key];
      else delete value[BASE_KEY];
    } else if (!Array.isArray(value)) walk(value, i + 1);
    const left = own(node, key);
    if (left !== undefined && !Array.isArray(left) && Object.keys(left).length === 0) delete node[key];
  };
  walk(tree, 0);
}

/** Flattens a tree to entries in key order; a nested `base` belongs to its parent path. */
export function flattenTree(tree: ErrorTree, prefix: string[] = [], out: ErrorEntry[] = []): ErrorEntry[] {
  for (const [key, value] of Object.entries(tree)) {
    const path = key === BASE_KEY ? prefix : [...prefix, key];
    if (Array.isArray(value)) for (const message of value) out.push({ path, message: String(message) });
    else flattenTree(value, path, out);
  }
  return out;
}

export function isEmptyTree(tree: ErrorTree): boolean {
  return Object.keys(tree).length === 0;
}

/**
 * Checks that an untrusted value has the error resource's shape: an object whose values are arrays
 * of strings or objects of the same shape. Used on bodies the service sends.
 */
export function isErrorTree(value: unknown, depth = 0): value is ErrorTree {
  if (depth > 32 || value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const v of Object.values(value)) {
    if (Array.isArray(v)) {
      if (!v.every((m) => typeof m === 'string')) return false;
    } else if (!isErrorTree(v, depth + 1)) return false;
  }
  return true;
}

/** True when the tree holds `message` at `path` (e.g. `reference: [taken]`). */
export function hasError(tree: ErrorTree, path: readonly string[], message: string): boolean {
  let node: string[] | ErrorTree | undefined = tree;
  for (const key of path) {
    if (node === undefined || Array.isArray(node)) return false;
    node = own(node, key);
  }
  if (node === undefined) return false;
  const messages = Array.isArray(node) ? node : own(node, BASE_KEY);
  return Array.isArray(messages) && messages.some((m) => m === message || m.startsWith(`${message}:`));
}
