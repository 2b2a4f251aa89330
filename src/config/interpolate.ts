/**
 * `${VAR}` in config strings reads the environment; `$${VAR}` is a literal `${VAR}`. An unset
 * variable is an error naming the variable and the key that used it, never an empty string that
 * would fail later in a less obvious place.
 */
import { isPlainObject, defineKey, type PlainObject } from './plain.js';

const REFERENCE = /\$(\$?)\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SOLE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

export class InterpolationError extends Error {
  constructor(
    message: string,
    readonly key: string[],
  ) {
    super(message);
  }
}

type Env = Record<string, string | undefined>;

/** Expands references in one string; `key` is where it was found, for the error message. */
export function interpolateString(text: string, env: Env, key: string[]): string {
  if (!text.includes('${')) return text;
  return text.replace(REFERENCE, (whole, escape: string, name: string) => {
    if (escape) return whole.slice(1);
    if (!NAME.test(name)) throw new InterpolationError(`\${${name}} is not a valid variable reference (write $\${...} for a literal)`, key);
    const value = env[name];
    if (value === undefined) throw new InterpolationError(`environment variable ${name} is not set`, key);
    return value;
  });
}

/** Expands every string in a config value; `skip` says which key paths to leave as written. */
export function interpolateData(value: unknown, env: Env, key: string[] = [], skip?: (key: string[]) => boolean): unknown {
  if (skip?.(key)) return value;
  if (typeof value === 'string') return interpolateString(value, env, key);
  if (Array.isArray(value)) return value.map((item, i) => interpolateData(item, env, [...key, String(i)], skip));
  if (isPlainObject(value)) {
    const out: PlainObject = {};
    for (const [k, v] of Object.entries(value)) defineKey(out, k, interpolateData(v, env, [...key, k], skip));
    return out;
  }
  return value;
}

/** True when a string is exactly one `${VAR}` reference (a token kept out of the file). */
export function isSoleReference(text: string): boolean {
  return SOLE_REFERENCE.test(text.trim());
}
