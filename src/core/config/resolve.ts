/**
 * Settings after precedence: flags > environment > project config > user config > defaults, with
 * the credentials store written by `jobs login` as the last source of a token; --sandbox, when
 * given, is the one source of the base URL and the token (sandbox-source.ts). Every value records
 * where it came from so `jobs doctor` and `jobs config list` can say so.
 */
import { statSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { proxyEnvOf } from './proxy-env.js';
import { ConfigError, UsageError } from '../errors/failures.js';
import { readCredentials, storeKey, type CredentialsFile } from './credentials.js';
import { describeSource } from './describe.js';
import { parseDurationMs } from './duration.js';
import { sandboxSettings } from './sandbox-source.js';
import { InterpolationError, interpolateString, isTokenKey } from './interpolate.js';
import { carriesToken } from '../util/token-text.js';
import { readFile, whyUnreadable } from '../util/quick-fs.js';
import { loadConfigFiles, readPolicy, type ConfigLayer, type FoundConfig } from './load.js';
import { credentialsFile, displayPath, homeDir } from './paths.js';
import { deepMerge, getPath, isPlainObject, type PlainObject } from './plain.js';
import type { ConstantFamily, ResolvedConfig, Setting, SettingSource } from './types.js';
import type { ConfigFlags, ConfigInput, Env } from './inputs.js';

export type ResolveInput = ConfigInput;

export const DEFAULTS = { concurrency: 4, timeoutMs: 30_000, retries: 5, authScheme: 'Bearer' } as const;

export async function resolveConfig(input: ResolveInput, options: ResolveOptions = {}): Promise<ResolvedConfigWithHttp> {
  return (await resolveDetailed(input, options)).config;
}

/** ResolvedConfig plus `allow_insecure_http`, which src/core/api/from-config.ts reads when present. */
export type ResolvedConfigWithHttp = ResolvedConfig & { allowInsecureHttp: Setting<boolean> };

export interface ResolvedDetails {
  config: ResolvedConfigWithHttp;
  found: FoundConfig;
  /** Config files merged (project over user), strings under `profiles` as written. */
  merged: PlainObject;
  /** Whether the selected profile is defined in a config file or the credentials store. */
  profileDefined: boolean;
  /** Where the credentials store is (whether or not it exists). */
  storePath: string;
}

export interface ResolveOptions {
  /** `jobs login` may name a profile that exists nowhere yet: it creates it in the store. */
  allowUnknownProfile?: boolean;
  /**
   * For commands that send nothing (validate, report): a token in the OS keyring is left there (no
   * token then), so they do not load the keyring module or wait for it.
   */
  skipKeyring?: boolean;
}

export async function resolveDetailed(input: ResolveInput, options: ResolveOptions = {}): Promise<ResolvedDetails> {
  const { cwd, env, globals } = input;
  const found = await loadConfigFiles({ cwd, env, configFlag: globals.config, ...(globals.allowEnv ? { allowEnv: globals.allowEnv } : {}) });
  const layers = found.layers;
  const show = (file: string): string => displayPath(file, cwd, env);
  const warnings = [...found.warnings];
  const merged = layers.reduceRight<PlainObject>((acc, layer) => deepMerge(acc, layer.data), {});

  // The store is read only when no earlier source answered (JOBS_TOKEN, a token file, the profile).
  let store: { path: string; store: CredentialsFile } | undefined;
  const readStore = async () => {
    if (!store) {
      const read = await readCredentials(env);
      for (const warning of read.warnings) warnings.push(warning);
      store = read;
    }
    return store;
  };
  const storePath = credentialsFile(env);

  const profile = selectProfile(globals, env, layers);
  const profileNames = definedProfiles(layers);
  let profileDefined = profile.value === undefined || profileNames.includes(profile.value);
  if (!profileDefined && profile.value !== undefined) {
    const stored = await readStore();
    profileDefined = Object.prototype.hasOwnProperty.call(stored.store.profiles, profile.value);
    if (!profileDefined && !options.allowUnknownProfile) {
      const known = [...new Set([...profileNames, ...Object.keys(stored.store.profiles)])].sort();
      throw new ConfigError(`profile "${profile.value}" (from ${describeSource(profile.source, cwd, env)}) is not defined`, {
        details: [
          known.length > 0 ? `Existing profiles: ${known.join(', ')}.` : 'No profile is defined yet.',
          `Define it with 'jobs config set profiles.${profile.value}.base_url <url>', or store a token for it with 'jobs --profile ${profile.value} login'.`,
        ],
      });
    }
  }

  const profileEntry = (field: string, from: ConfigLayer[] = layers): { value: string; source: SettingSource; layer: ConfigLayer } | undefined => {
    if (profile.value === undefined) return undefined;
    for (const layer of from) {
      const entry = layer.profiles[profile.value];
      const raw = isPlainObject(entry) ? entry[field] : undefined;
      if (typeof raw !== 'string') continue;
      const key = ['profiles', profile.value, field];
      try {
        return {
          value: interpolateString(raw, env, key, found.tokens, readPolicy(layer.kind, layer.path, found)),
          source: { kind: 'file', path: layer.path, key: key.join('.') },
          layer,
        };
      } catch (error) {
        if (error instanceof InterpolationError) throw new ConfigError(`${show(layer.path)}: ${key.join('.')}: ${error.message}`);
        throw error;
      }
    }
    return undefined;
  };
  const profileValue = (field: string): { value: string; source: SettingSource } | undefined => {
    const entry = profileEntry(field);
    return entry && { value: entry.value, source: entry.source };
  };

  // --sandbox: the sandbox's URL and token, and no other is read (see sandbox-source.ts).
  const sandbox = sandboxSettings(globals);
  // Base URL: --base-url > JOBS_BASE_URL > the profile's base_url > the URL recorded by `jobs login`.
  let baseUrl: Setting<string | undefined> | undefined = sandbox
    ? sandbox.baseUrl
    : globals.baseUrl
      ? { value: globals.baseUrl, source: { kind: 'flag', name: '--base-url' } }
      : env.JOBS_BASE_URL
        ? { value: env.JOBS_BASE_URL, source: { kind: 'env', name: 'JOBS_BASE_URL' } }
        : profileValue('base_url');
  if (!baseUrl || baseUrl.value === '') {
    const stored = await readStore();
    const entry = ownEntry(stored.store, storeKey(profile.value));
    baseUrl = entry?.base_url ? { value: entry.base_url, source: { kind: 'store', path: stored.path } } : { value: undefined, source: { kind: 'default' } };
  }
  if (baseUrl.value !== undefined) {
    baseUrl = { value: checkBaseUrl(baseUrl.value, describeSource(baseUrl.source, cwd, env)), source: baseUrl.source };
  }
  // Whether plain http may carry the token to a non-loopback host is the client's decision, made
  // when it is about to send; commands that send nothing must not fail over it.
  const allowInsecureHttp = insecureHttpSetting(layers, show, warnings);

  const authScheme: Setting<string> = profileValue('auth_scheme') ?? { value: DEFAULTS.authScheme, source: { kind: 'default' } };
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]*$/.test(authScheme.value)) {
    throw new ConfigError(`${describeSource(authScheme.source, cwd, env)}: must be one word such as Bearer or Token (or empty to send the token alone)`);
  }

  const token =
    sandbox?.token ??
    (await findToken({
      cwd,
      env,
      globals,
      profileValue,
      readStore,
      profile: profile.value,
      baseUrl: baseUrl.value,
      warnings,
      skipKeyring: Boolean(options.skipKeyring),
    }));
  // The sandbox's token is public (and a word): only a secret one is kept out of values.
  if (token && !sandbox) refuseTokenCopies(found, token, show, cwd, env);
  // A malformed token is the client's to refuse when it is about to send; `validate` needs none.

  const config: ResolvedConfigWithHttp = {
    profile,
    baseUrl,
    token,
    authScheme,
    defaults: objectAt(merged, 'defaults'),
    constants: objectAt(merged, 'constants') as Partial<Record<ConstantFamily, Record<string, number | string>>>,
    export: objectAt(merged, 'export') as NonNullable<ResolvedConfig['export']>,
    concurrency: numberSetting(layers, 'concurrency', DEFAULTS.concurrency),
    timeoutMs: timeoutSetting(globals, layers, show),
    retries:
      globals.retries !== undefined
        ? { value: globals.retries, source: { kind: 'flag', name: '--retries' } }
        : numberSetting(layers, 'retries', DEFAULTS.retries),
    employer: objectAt(merged, 'employer') as ResolvedConfig['employer'] & object,
    ruleLevels: ruleLevelsOf(layers),
    ...projectEmployerFile(layers),
    wording: wordingOf(merged),
    files: layers.map((layer) => layer.path),
    warnings,
    allowInsecureHttp,
    proxyEnv: proxyEnvOf(env),
  };
  const caFile = caFileSetting(env, cwd, layers, profileEntry, show, warnings);
  if (caFile) config.caFile = { ...caFile, from: describeSource(caFile.source, cwd, env) };
  return { config, found, merged, profileDefined, storePath };
}

/**
 * `allow_insecure_http` from the user config or a file named with --config / JOBS_CONFIG. A project
 * config found by the search arrives with any checkout: lifting the plain-http guard there would let
 * a pull request send the token in clear, so it is ignored (with a warning when it says true).
 */
function insecureHttpSetting(layers: ConfigLayer[], show: (file: string) => string, warnings: string[]): Setting<boolean> {
  const project = layers.find((layer) => layer.kind === 'project');
  if (project && getPath(project.data, ['allow_insecure_http']) === true) {
    warnings.push(
      `${show(project.path)}: allow_insecure_http is ignored in a project config (a checkout must not be able to send your token over plain http); set it in your user config with 'jobs config set allow_insecure_http true'`,
    );
  }
  const found = lookup(
    layers.filter((layer) => layer.kind !== 'project'),
    ['allow_insecure_http'],
  );
  return found && typeof found.value === 'boolean' ? { value: found.value, source: found.source } : { value: false, source: { kind: 'default' } };
}

/**
 * JOBS_CA_FILE > the profile's ca_file in the user config or a file named with --config / JOBS_CONFIG.
 * Not from a project config: a checkout that could add a certificate authority could have its own
 * server impersonate the service and read the token. A relative path is relative to the file it is in.
 */
function caFileSetting(
  env: Env,
  cwd: string,
  layers: ConfigLayer[],
  profileEntry: (field: string, from?: ConfigLayer[]) => { value: string; source: SettingSource; layer: ConfigLayer } | undefined,
  show: (file: string) => string,
  warnings: string[],
): Setting<string> | undefined {
  const fromEnv = env.JOBS_CA_FILE?.trim();
  if (fromEnv) return { value: resolvePath(cwd, expandHome(fromEnv, env)), source: { kind: 'env', name: 'JOBS_CA_FILE' } };
  const project = layers.filter((layer) => layer.kind === 'project');
  const ignored = profileEntry('ca_file', project);
  if (ignored && ignored.value.trim() !== '') {
    warnings.push(
      `${show(ignored.layer.path)}: ${(ignored.source as { key: string }).key} is ignored in a project config (a checkout must not be able to add a certificate authority you trust); set it in your user config, or set JOBS_CA_FILE`,
    );
  }
  const found = profileEntry(
    'ca_file',
    layers.filter((layer) => layer.kind !== 'project'),
  );
  if (!found || found.value.trim() === '') return undefined;
  return { value: resolvePath(dirname(found.layer.path), expandHome(found.value.trim(), env)), source: found.source };
}

function expandHome(path: string, env: Env): string {
  return path === '~' || path.startsWith('~/') ? `${homeDir(env)}${path.slice(1)}` : path;
}

/** --profile > JOBS_PROFILE > config `profile` > a profile named `default`, if one is defined. */
function selectProfile(globals: ConfigFlags, env: Env, layers: ConfigLayer[]): Setting<string | undefined> {
  if (globals.profile) return { value: globals.profile, source: { kind: 'flag', name: '--profile' } };
  if (env.JOBS_PROFILE) return { value: env.JOBS_PROFILE, source: { kind: 'env', name: 'JOBS_PROFILE' } };
  const fromFile = lookup(layers, ['profile']);
  if (fromFile && typeof fromFile.value === 'string') return { value: fromFile.value, source: fromFile.source };
  if (definedProfiles(layers).includes('default')) return { value: 'default', source: { kind: 'default' } };
  return { value: undefined, source: { kind: 'default' } };
}

function definedProfiles(layers: ConfigLayer[]): string[] {
  return [...new Set(layers.flatMap((layer) => Object.keys(layer.profiles)))];
}

/** The nearest layer's value at a key path. */
export function lookup(layers: ConfigLayer[], path: string[]): { value: unknown; source: SettingSource } | undefined {
  for (const layer of layers) {
    const value = getPath(layer.data, path);
    if (value !== undefined) return { value, source: { kind: 'file', path: layer.path, key: path.join('.') } };
  }
  return undefined;
}

function numberSetting(layers: ConfigLayer[], key: string, fallback: number): Setting<number> {
  const found = lookup(layers, [key]);
  return found && typeof found.value === 'number' ? { value: found.value, source: found.source } : { value: fallback, source: { kind: 'default' } };
}

function timeoutSetting(globals: ConfigFlags, layers: ConfigLayer[], show: (file: string) => string): Setting<number> {
  if (globals.timeout !== undefined) {
    const ms = parseDurationMs(globals.timeout);
    if (ms === undefined) throw new UsageError(`--timeout ${globals.timeout}: expected a duration from 1ms to 1h, such as 30s, 500ms or 2m`);
    return { value: ms, source: { kind: 'flag', name: '--timeout' } };
  }
  const found = lookup(layers, ['timeout']);
  if (!found) return { value: DEFAULTS.timeoutMs, source: { kind: 'default' } };
  const ms = typeof found.value === 'string' || typeof found.value === 'number' ? parseDurationMs(found.value) : undefined;
  if (ms === undefined && found.source.kind === 'file') {
    throw new ConfigError(`${show(found.source.path)}: timeout: must be a duration from 1ms to 1h, such as 30s, 500ms or 2m`);
  }
  return { value: ms ?? DEFAULTS.timeoutMs, source: found.source };
}

interface TokenSearch {
  cwd: string;
  env: Env;
  globals: ConfigFlags;
  profile: string | undefined;
  baseUrl: string | undefined;
  profileValue(field: string): { value: string; source: SettingSource } | undefined;
  readStore(): Promise<{ path: string; store: CredentialsFile }>;
  warnings: string[];
  skipKeyring: boolean;
}

/** The permission bits of a token file, where they mean something (not on Windows). */
function tokenFileMode(path: string): number | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    return statSync(path).mode;
  } catch {
    return undefined;
  }
}

/** JOBS_TOKEN > --token-file > the profile's token > the credentials store (the file, or the OS keyring it points to). */
async function findToken(search: TokenSearch): Promise<Setting<string> | undefined> {
  const { env, globals } = search;
  if (env.JOBS_TOKEN) return { value: env.JOBS_TOKEN, source: { kind: 'env', name: 'JOBS_TOKEN' } };
  if (globals.tokenFile) {
    const path = resolvePath(search.cwd, globals.tokenFile);
    const shown = displayPath(path, search.cwd, env);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      // A FIFO or device is refused without being opened (quick-fs reads regular files only).
      const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read: ${whyUnreadable(error)}`;
      throw new ConfigError(`token file ${shown} (from --token-file) ${why}`);
    }
    const value = text.trim();
    if (!value) throw new ConfigError(`token file ${shown} (from --token-file) is empty`);
    // Never shown: whatever the file holds may be a secret (a file like /proc/self/environ holds many).
    if (/[\x00-\x20\x7f-\x9f]/.test(value))
      throw new ConfigError(
        `token file ${shown} (from --token-file) does not hold a token: a token is one word of printable characters, and this file has spaces, line breaks or control characters in it (its content is not shown)`,
      );
    const mode = tokenFileMode(path);
    // As ssh says of a private key others can read.
    if (mode !== undefined && (mode & 0o044) !== 0)
      search.warnings.push(
        `token file ${shown} (from --token-file) can be read by other users (mode ${(mode & 0o777).toString(8).padStart(4, '0')}): run chmod 600 ${shown}`,
      );
    return { value, source: { kind: 'flag', name: '--token-file' } };
  }
  const fromProfile = search.profileValue('token');
  if (fromProfile && fromProfile.value !== '') return fromProfile;

  const stored = await search.readStore();
  const entry = ownEntry(stored.store, storeKey(search.profile));
  if (!entry || (!entry.token && !entry.keyring)) return undefined;
  if (entry.base_url && search.baseUrl && !sameUrl(entry.base_url, search.baseUrl)) {
    search.warnings.push(
      `the token stored by 'jobs login' for profile "${storeKey(search.profile)}" is for ${entry.base_url}, so it is not sent to ${search.baseUrl}; run 'jobs login' for that URL`,
    );
    return undefined;
  }
  if (entry.token) return { value: entry.token, source: { kind: 'store', path: stored.path } };
  if (search.skipKeyring) return undefined;
  return keyringToken(storeKey(search.profile), search);
}

/** The file says the token is in the OS keyring: the only path that loads the keyring to read. */
async function keyringToken(account: string, search: TokenSearch): Promise<Setting<string> | undefined> {
  const { keyringGet, keyringLabel, KeyringUnavailable } = await import('./keyring.js');
  let value: string | undefined;
  try {
    value = await keyringGet(search.env, account);
  } catch (error) {
    if (!(error instanceof KeyringUnavailable)) throw error;
    search.warnings.push(
      `the token of profile "${account}" is in the ${keyringLabel(account)}, which did not answer: ${error.message}; unlock it, or run 'jobs login' again`,
    );
    return undefined;
  }
  if (value === undefined || value === '') {
    search.warnings.push(`the token of profile "${account}" should be in the ${keyringLabel(account)}, which has none; run 'jobs login' again`);
    return undefined;
  }
  return { value, source: { kind: 'keyring', account } };
}

function ownEntry(store: CredentialsFile, key: string): CredentialsFile['profiles'][string] | undefined {
  return Object.prototype.hasOwnProperty.call(store.profiles, key) ? store.profiles[key] : undefined;
}

function sameUrl(a: string, b: string): boolean {
  const norm = (text: string) => {
    try {
      return new URL(text).href.replace(/\/+$/, '');
    } catch {
      return text.replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}

/** An absolute http(s) URL without credentials, query or fragment; trailing slashes removed. */
export function checkBaseUrl(value: string, where: string): string {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`base URL from ${where} is not a URL: ${JSON.stringify(text)}`, { details: ['Expected https://host[/path].'] });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`base URL from ${where} must start with https:// or http://, not ${url.protocol}//`);
  }
  if (url.username || url.password) {
    throw new ConfigError(`base URL from ${where} must not hold a user name or password; the token is sent in the Authorization header`);
  }
  if (url.search || url.hash) throw new ConfigError(`base URL from ${where} must not have a query (?...) or fragment (#...)`);
  return text.replace(/\/+$/, '');
}

/** `wording:` as merged (the nearest file's list wins; the schema has checked the rule ids). */
function wordingOf(merged: PlainObject): NonNullable<ResolvedConfig['wording']> {
  const w = objectAt(merged, 'wording');
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return { off: strings(w.off), allow: strings(w.allow) };
}

/** `rules:` of every config file, the nearest file's level for each id (layers come nearest first). */
function ruleLevelsOf(layers: ConfigLayer[]): NonNullable<ResolvedConfig['ruleLevels']> {
  const out: NonNullable<ResolvedConfig['ruleLevels']> = {};
  for (const layer of layers) {
    const rules = layer.data.rules;
    if (!isPlainObject(rules)) continue;
    for (const [id, level] of Object.entries(rules))
      if (!Object.hasOwn(out, id) && (level === 'error' || level === 'warning' || level === 'off')) out[id] = { level, file: layer.path };
  }
  return out;
}

/** The project layer that declares `employer:`: its size can exempt the employer from rules, which a run then says. */
function projectEmployerFile(layers: ConfigLayer[]): { employerFile?: string } {
  const layer = layers.find((l) => l.kind === 'project' && isPlainObject(l.data.employer));
  return layer ? { employerFile: layer.path } : {};
}

function objectAt(merged: PlainObject, key: string): Record<string, unknown> {
  const value = merged[key];
  return isPlainObject(value) ? value : {};
}

/**
 * A variable read into a config value (defaults, a base URL) that holds the token, wherever the
 * token came from (--token-file, `jobs login`, a profile): the token would be published in an
 * advert or printed by a dry run. The check at interpolation knows only the token variables.
 */
function refuseTokenCopies(found: FoundConfig, token: Setting<string>, show: (file: string) => string, cwd: string, env: Env): void {
  const value = token.value.trim();
  for (const read of found.reads) {
    if (isTokenKey(read.key) || !carriesToken(read.value, value)) continue;
    throw new ConfigError(
      `${show(read.path)}: ${read.key.join('.')}: \${${read.name}} holds the service token (the same text as the token from ${describeSource(token.source, cwd, env)}); only profiles.<name>.token may read it, so that the token never ends up in an advert, a URL or output`,
    );
  }
}
