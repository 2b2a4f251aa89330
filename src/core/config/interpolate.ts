/**
 * `${VAR}` in config strings reads the environment; `$${VAR}` is a literal `${VAR}`. An unset
 * variable is an error naming the variable and the key that used it, never an empty string that
 * would fail later in a less obvious place.
 */
import { carriesToken } from '../util/token-text.js';
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

/**
 * The variables that hold the service token: JOBS_TOKEN and every variable a profile's `token`
 * reads, with their values. A config file (a project config arrives with any pull request) could
 * otherwise copy the token into `defaults` and so into a published advert, a dry run's output or a
 * URL; only `profiles.<name>.token` may read them.
 */
export interface TokenVariables {
  names: ReadonlySet<string>;
  /** Their non-empty values, to catch another variable holding the same token. */
  values: readonly string[];
}

/** Token variables named by the given config files (raw, before interpolation). */
export function tokenVariables(env: Env, configs: readonly unknown[]): TokenVariables {
  const names = new Set<string>(['JOBS_TOKEN']);
  for (const config of configs) {
    const profiles = isPlainObject(config) ? config.profiles : undefined;
    if (!isPlainObject(profiles)) continue;
    for (const profile of Object.values(profiles)) {
      const token = isPlainObject(profile) ? profile.token : undefined;
      if (typeof token !== 'string') continue;
      for (const [, escape, name] of token.matchAll(REFERENCE)) if (!escape && name && NAME.test(name)) names.add(name);
    }
  }
  const values = [...names].map((name) => env[name]?.trim() ?? '').filter((value) => value !== '');
  return { names, values };
}

/** `profiles.<name>.token`: the one place a token variable may be read. */
export function isTokenKey(key: readonly string[]): boolean {
  return key.length === 3 && key[0] === 'profiles' && key[2] === 'token';
}

/**
 * How one file may read the environment. A project config (it arrives with any checkout, a pull
 * request's included) reads only the variables the user allowed by name (`allowed`); the user's
 * own files read any. Every variable read is reported to `read`, so that a value can still be
 * refused once the token is known, whatever its source.
 */
export interface ReadPolicy {
  /** Undefined: any variable. */
  allowed?: ReadonlySet<string>;
  read?: (name: string, value: string, key: string[]) => void;
}

/** The names given to --allow-env and a user config's allow_env, checked as variable names. */
export function allowedNames(lists: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  for (const list of lists) {
    for (const item of Array.isArray(list) ? list : typeof list === 'string' ? list.split(',') : []) {
      if (typeof item === 'string' && NAME.test(item.trim())) names.add(item.trim());
    }
  }
  return names;
}

/**
 * Expands references in one string; `key` is where it was found, for the error message. A token
 * variable outside `profiles.<name>.token` is an error that names the variable, never its value.
 */
export function interpolateString(text: string, env: Env, key: string[], tokens: TokenVariables, policy: ReadPolicy = {}): string {
  if (!text.includes('${')) return text;
  return text.replace(REFERENCE, (whole, escape: string, name: string) => {
    if (escape) return whole.slice(1);
    if (!NAME.test(name)) throw new InterpolationError(`\${${name}} is not a valid variable reference (write $\${...} for a literal)`, key);
    if (policy.allowed && !policy.allowed.has(name)) {
      throw new InterpolationError(
        `\${${name}} is not read: a project config may read only the environment variables you allow by name, since it arrives with any checkout (a pull request's included); allow it with 'allow_env: [${name}]' in your user config or with --allow-env ${name}, or write the value itself`,
        key,
      );
    }
    const value = env[name];
    if (value === undefined) throw new InterpolationError(`environment variable ${name} is not set`, key);
    if (!isTokenKey(key)) {
      const what = tokens.names.has(name)
        ? 'holds the service token'
        : tokens.values.some((token) => carriesToken(value, token))
          ? 'holds the service token (the same text as a token variable)'
          : undefined;
      if (what) {
        throw new InterpolationError(
          `\${${name}} ${what}; only profiles.<name>.token may read it, so that the token never ends up in an advert, a URL or output`,
          key,
        );
      }
    }
    policy.read?.(name, value, key);
    return value;
  });
}

/** Expands every string in a config value; `skip` says which key paths to leave as written. */
export function interpolateData(
  value: unknown,
  env: Env,
  tokens: TokenVariables,
  key: string[] = [],
  skip?: (key: string[]) => boolean,
  policy: ReadPolicy = {},
): unknown {
  if (skip?.(key)) return value;
  if (typeof value === 'string') return interpolateString(value, env, key, tokens, policy);
  if (Array.isArray(value)) return value.map((item, i) => interpolateData(item, env, tokens, [...key, String(i)], skip, policy));
  if (isPlainObject(value)) {
    const out: PlainObject = {};
    for (const [k, v] of Object.entries(value)) defineKey(out, k, interpolateData(v, env, tokens, [...key, k], skip, policy));
    return out;
  }
  return value;
}

/** True when a string is exactly one `${VAR}` reference (a token kept out of the file). */
export function isSoleReference(text: string): boolean {
  return SOLE_REFERENCE.test(text.trim());
}
