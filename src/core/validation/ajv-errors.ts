/**
 * Turns ajv's errors into the service's error vocabulary, so a local check and a rejected request
 * read the same: required and absent -> missing; empty -> blank; wrong type -> not_an_integer,
 * not_a_number or invalid; outside a set -> inclusion; bad format -> invalid; bounds and lengths
 * worded exactly as the spec's identifiers.
 */
import type { AjvError } from '../generated/validators.js';
import { addError, type ErrorTree } from '../errors/tree.js';
import { didYouMean } from '../util/did-you-mean.js';

/** Local-only identifier for a field the schema does not have; data: a suggestion. */
export const UNKNOWN_FIELD = 'unknown_field';

/**
 * Local-only identifier, at the first unknown field not listed, for it and those after it in the
 * same mapping; data: how many. A file of 40,000 unknown keys is a mistake to name, not a list to
 * print (each listed field costs a suggestion, a place in the file and a line of output).
 */
export const MORE_UNKNOWN_FIELDS = 'more_unknown_fields';

/** Unknown fields listed (with a suggestion each) per mapping before the rest are counted. */
export const LISTED_UNKNOWN_FIELDS = 50;

export function pointerToPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let v = data;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function isBlank(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/** The message for one ajv error, or undefined for errors that only echo others (if/then). */
export function messageFor(error: AjvError, value: unknown): string | undefined {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return 'missing';
    case 'type': {
      if (isBlank(value)) return 'blank';
      const types = String(p.type).split(',');
      if (types.length === 1 && types[0] === 'integer') return typeof value === 'number' ? 'not_an_integer' : 'not_a_number';
      if (types.length === 1 && types[0] === 'number') return 'not_a_number';
      return 'invalid';
    }
    case 'pattern':
      return p.pattern === '\\S' ? 'blank' : 'invalid';
    case 'minLength':
      return p.limit === 1 ? 'blank' : `too_short:${p.limit}`;
    case 'maxLength':
      return `too_long:${p.limit}`;
    case 'minItems':
      return `too_short:${p.limit}`;
    case 'maxItems':
      return `too_long:${p.limit}`;
    case 'maximum':
      return `greater_than:${p.limit}`;
    case 'exclusiveMaximum':
      return `greater_than_or_equal_to:${p.limit}`;
    case 'minimum':
      return `less_than:${p.limit}`;
    case 'exclusiveMinimum':
      return `less_than_or_equal_to:${p.limit}`;
    case 'enum':
    case 'const':
      return 'inclusion';
    case 'if':
    case 'oneOf':
      return undefined;
    default:
      return 'invalid';
  }
}

export interface ToTreeOptions {
  /** Known field names per parent path (dotted, '' for the root), for suggestions. */
  knownFields?: (parent: string) => Iterable<string>;
}

/**
 * Of alternatives (`location` or `locations`: a root `oneOf` of `required`), the first is the one
 * named missing, in its place among the other missing fields (by the schema's order of fields), as
 * when it was required alone; ajv checks a `oneOf` before `required`, so its errors come first.
 */
function withAlternatives(errors: readonly AjvError[], options: ToTreeOptions): readonly AjvError[] {
  const first = errors.filter((e) => e.keyword === 'required' && e.schemaPath.startsWith('#/oneOf/0/'));
  if (first.length === 0) return errors;
  const rest = errors.filter((e) => e.keyword !== 'oneOf' && !(e.keyword === 'required' && e.schemaPath.startsWith('#/oneOf/')));
  const order = [...(options.knownFields?.('') ?? [])];
  const rank = (e: AjvError) => {
    const i = order.indexOf(String(e.params.missingProperty));
    return i < 0 ? order.length : i;
  };
  const isRootRequired = (e: AjvError) => e.keyword === 'required' && e.instancePath === '';
  const at = Math.max(0, rest.findIndex(isRootRequired));
  const missing = rest
    .filter(isRootRequired)
    .concat(first)
    .sort((a, b) => rank(a) - rank(b));
  const others = rest.filter((e) => !isRootRequired(e));
  return [...others.slice(0, at), ...missing, ...others.slice(at)];
}

export function ajvErrorsToTree(errors: readonly AjvError[], data: unknown, tree: ErrorTree = {}, options: ToTreeOptions = {}): ErrorTree {
  // Per mapping (its JSON pointer): unknown fields seen, and the place the unlisted ones start.
  const unknown = new Map<string, { seen: number; rest?: string[] }>();
  for (const error of withAlternatives(errors, options)) {
    const path = pointerToPath(error.instancePath);
    if (error.keyword === 'required') {
      addError(tree, [...path, String(error.params.missingProperty)], 'missing');
    } else if (error.keyword === 'additionalProperties') {
      const name = String(error.params.additionalProperty);
      const count = unknown.get(error.instancePath) ?? { seen: 0 };
      unknown.set(error.instancePath, count);
      if (++count.seen > LISTED_UNKNOWN_FIELDS) {
        count.rest ??= [...path, name];
        continue;
      }
      const hint = options.knownFields ? didYouMean(name, options.knownFields(path.join('.'))) : undefined;
      addError(tree, [...path, name], hint && /^\w+$/.test(hint) ? `${UNKNOWN_FIELD}:${hint}` : UNKNOWN_FIELD);
    } else {
      const message = messageFor(error, valueAt(data, path));
      if (message) addError(tree, path, message);
    }
  }
  for (const { seen, rest } of unknown.values()) if (rest) addError(tree, rest, `${MORE_UNKNOWN_FIELDS}:${seen - LISTED_UNKNOWN_FIELDS}`);
  return tree;
}
