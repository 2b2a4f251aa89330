/**
 * The config schema (schemas/config.schema.json) is the one description of the config keys: it
 * validates files (through the ajv standalone validator compiled at build time), types the values of
 * `jobs config set`, and lists the known keys for "did you mean".
 */
import { configSchema } from '../generated/config-schema.js';
import { validateConfig, type AjvError } from '../generated/validators.js';
import { didYouMean } from '../util/did-you-mean.js';
import { getPath, isPlainObject } from './plain.js';

export interface SchemaNode {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  minimum?: number;
  maximum?: number;
}

const root = () => configSchema() as SchemaNode;

/** Keys users reach for at the top level that live under a profile. */
const PROFILE_KEYS = ['base_url', 'token', 'auth_scheme', 'ca_file'];

export type KeyLookup =
  /** `node` is undefined inside a free-form object (`defaults`), where any key is accepted. */
  { ok: true; node: SchemaNode | undefined } | { ok: false; depth: number; hint: string };

/** The schema of a dotted key's value, or why the key does not exist. */
export function schemaAt(path: readonly string[]): KeyLookup {
  let node: SchemaNode | undefined = root();
  for (let depth = 0; depth < path.length; depth++) {
    if (node === undefined) return { ok: true, node: undefined };
    const key = path[depth]!;
    const named: SchemaNode | undefined = node.properties && Object.prototype.hasOwnProperty.call(node.properties, key) ? node.properties[key] : undefined;
    if (named) node = named;
    else if (typeof node.additionalProperties === 'object') node = node.additionalProperties;
    else if (node.additionalProperties === false || !isObjectType(node)) {
      return { ok: false, depth, hint: unknownKeyHint(path.slice(0, depth), key) };
    } else node = undefined; // free-form object
  }
  return { ok: true, node };
}

/** "unknown key" with the nearest known key, or where a profile key belongs. */
export function unknownKeyHint(parent: readonly string[], key: string): string {
  const profileKey = PROFILE_KEYS.find((k) => k === key.toLowerCase().replace(/-/g, '_'));
  if (parent.length === 0 && profileKey) {
    return `unknown key; ${profileKey} belongs to a profile: profiles.<name>.${profileKey} (the profile "default" is used when none is selected)`;
  }
  const lookup = parent.length === 0 ? { ok: true as const, node: root() } : schemaAt(parent);
  const known = lookup.ok && lookup.node?.properties ? Object.keys(lookup.node.properties).filter((k) => k !== '$schema') : [];
  const suggestion = didYouMean(key, known);
  if (suggestion) return `unknown key; did you mean "${[...parent, suggestion].join('.')}"?`;
  return known.length > 0 ? `unknown key; known keys here: ${known.join(', ')}` : 'unknown key';
}

function isObjectType(node: SchemaNode): boolean {
  return node.type === 'object';
}

export interface ConfigProblem {
  /** Key path of the offending value (for unknown keys: the unknown key itself). */
  key: string[];
  message: string;
  /** Reported at the key's line and column in the file (where the file's text can say). */
  located?: boolean;
}

/**
 * `defaults.locations`: an advert's `locations:` list is read into one advert per place as its file is
 * read, long before defaults apply, so a default list would be sent as an unknown `locations` array
 * beside (or instead of) the `location` the service requires. Refused, with the way that works.
 */
const DEFAULT_LOCATIONS: ConfigProblem = {
  key: ['defaults', 'locations'],
  message:
    "a list of places cannot be a default: each advert file's places are its own (they make its adverts and their references). Set defaults.location for one place every advert shares, or write `locations:` in the advert files",
  located: true,
};

/** Schema problems of one file's data, worded for users; empty when the data is valid. */
export function checkConfig(data: unknown): ConfigProblem[] {
  const defaults = isPlainObject(data) ? data.defaults : undefined;
  const own = isPlainObject(defaults) && Object.hasOwn(defaults, 'locations') ? [DEFAULT_LOCATIONS] : [];
  if (validateConfig(data)) return own;
  const problems: ConfigProblem[] = [...own];
  const seen = new Set<string>();
  for (const error of validateConfig.errors ?? []) {
    const problem = toProblem(error, data);
    if (!problem) continue;
    const id = `${problem.key.join('.')}\u0000${problem.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push(problem);
  }
  return problems;
}

function toProblem(error: AjvError & { propertyName?: string }, data: unknown): ConfigProblem | undefined {
  const path = pointerToPath(error.instancePath);
  const params = error.params;
  // propertyNames reports the name once more through its sub-schema; one message is enough.
  if (error.propertyName !== undefined) return undefined;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      return { key: [...path, key], message: unknownKeyHint(path, key) };
    }
    case 'propertyNames':
      return { key: [...path, String(params.propertyName)], message: 'is not a valid profile name (use letters, digits, - and _)' };
    case 'type':
      return { key: path, message: `must be ${typePhrase(params.type)}` };
    case 'minimum':
      return { key: path, message: `must be at least ${String(params.limit)}` };
    case 'maximum':
      return { key: path, message: `must be at most ${String(params.limit)}` };
    case 'exclusiveMinimum':
      return { key: path, message: `must be more than ${String(params.limit)}` };
    case 'minLength':
      return { key: path, message: 'must not be empty' };
    case 'enum':
      // A choice (a rule's level): the choices, at the key's line.
      return { key: path, message: `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`, located: true };
    case 'pattern':
      if (path.length === 1 && path[0] === 'timeout') return { key: path, message: 'must be a duration such as 30s, 500ms or 2m, or a number of seconds' };
      return { key: path, message: `has an invalid form (${JSON.stringify(getPath(data, path))})` };
    default:
      return { key: path, message: error.message ?? `fails ${error.keyword}` };
  }
}

const ARTICLES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer (a whole number)',
  number: 'a number',
  boolean: 'true or false',
  object: 'a mapping of keys to values',
  array: 'a list',
};

function typePhrase(type: unknown): string {
  const types = Array.isArray(type) ? type.map(String) : String(type).split(',');
  return types.map((t) => ARTICLES[t] ?? t).join(' or ');
}

function pointerToPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Dotted display of a key path; the whole file when empty. */
export function keyText(path: readonly string[]): string {
  return path.length === 0 ? '(top level)' : path.join('.');
}
