/**
 * Finding and reading config files: the nearest project config from cwd upwards (stopping at home or
 * the filesystem root), the user config in the XDG config dir, or one file named by --config /
 * JOBS_CONFIG instead of both. Each file is parsed, interpolated and validated on its own so an error
 * names the file it is in.
 *
 * A project config arrives with any checkout, a pull request's included, so what it can do is
 * limited: a JavaScript one found by the search is not run (see searchUpwards), and no config
 * may copy the token anywhere but a profile's `token` (see interpolate.ts).
 */
import { readdir, readFile as readFileText, stat } from '../util/quick-fs.js';
import { dirname, extname, resolve as resolvePath } from 'node:path';
import type { cosmiconfig as Cosmiconfig, Loader } from 'cosmiconfig';
import { ConfigError } from '../errors/failures.js';
import { allowedNames, InterpolationError, interpolateData, isSoleReference, tokenVariables, type ReadPolicy, type TokenVariables } from './interpolate.js';
import { displayPath, homeDir, userConfigDir } from './paths.js';
import { isPlainObject, type PlainObject } from './plain.js';
import { checkConfig, keyText } from './schema.js';
import type { SettingSource } from './types.js';

type Env = Record<string, string | undefined>;

/** Project config names, in the order cosmiconfig tries them in each directory. */
export const PROJECT_PLACES: readonly string[] = [
  'package.json',
  '.jobsrc',
  '.jobsrc.json',
  '.jobsrc.yaml',
  '.jobsrc.yml',
  '.jobsrc.js',
  '.jobsrc.cjs',
  '.jobsrc.mjs',
  'jobs.config.js',
  'jobs.config.cjs',
  'jobs.config.mjs',
];

/** User config names in the XDG config dir: config.yaml first (what `jobs config set` writes). */
export const USER_PLACES: readonly string[] = [
  'config.yaml',
  'config.yml',
  'config.json',
  'config',
  'config.js',
  'config.cjs',
  'config.mjs',
  ...PROJECT_PLACES.filter((place) => place !== 'package.json'),
];

export type LayerKind = 'project' | 'user' | 'explicit';

export interface ConfigLayer {
  kind: LayerKind;
  /** Absolute path of the file. */
  path: string;
  /** The file's settings, validated; strings interpolated except under `profiles` (see below). */
  data: PlainObject;
  /**
   * Profiles as written: their strings are interpolated only when the profile is used, so an unset
   * variable in a profile nobody selected does not break every command.
   */
  profiles: Record<string, PlainObject>;
}

export interface FoundConfig {
  /** Nearest first: project then user, or the one explicit file. */
  layers: ConfigLayer[];
  /** Where --config / JOBS_CONFIG pointed, with the source that named it. */
  explicit?: { path: string; source: SettingSource };
  /** The user config's directory, searched whether or not a file was there. */
  userDir: string;
  /** Warnings found while reading (e.g. a token in a file others can read). */
  warnings: string[];
  /** The variables holding the token, which only `profiles.<name>.token` may read. */
  tokens: TokenVariables;
  /** The variables a project config may read: --allow-env and the user config's allow_env. */
  allowedEnv: ReadonlySet<string>;
  /** Every variable a file read, with its value: checked against the token once it is known. */
  reads: EnvRead[];
}

export interface EnvRead {
  /** The file that read it. */
  path: string;
  key: string[];
  name: string;
  value: string;
}

/** How a layer reads the environment: a project config only the allowed variables; every read noted. */
export function readPolicy(kind: LayerKind, path: string, found: Pick<FoundConfig, 'allowedEnv' | 'reads'>): ReadPolicy {
  return {
    ...(kind === 'project' ? { allowed: found.allowedEnv } : {}),
    read: (name, value, key) => found.reads.push({ path, key, name, value }),
  };
}

export interface LoadInput {
  cwd: string;
  env: Env;
  /** The --config flag's value. */
  configFlag?: string;
  /** The --allow-env flags' values: variables a project config may read. */
  allowEnv?: readonly string[];
}

/** Locates, reads and validates the config files that apply to `cwd`. */
export async function loadConfigFiles(input: LoadInput): Promise<FoundConfig> {
  const { cwd, env } = input;
  const show = (file: string): string => displayPath(file, cwd, env);
  const warnings: string[] = [];
  const userDir = userConfigDir(env);
  const explicit = explicitConfig(input);
  const files: Array<{ kind: LayerKind; path: string; config: unknown }> = [];

  if (explicit) {
    const path = resolvePath(cwd, explicit.value);
    const what = explicit.source.kind === 'flag' ? '--config' : 'JOBS_CONFIG';
    if (!(await isFile(path))) {
      throw new ConfigError(`config file ${show(path)} (from ${what}) does not exist`, {
        details: [`Create it, or ${explicit.source.kind === 'flag' ? 'drop --config' : 'unset JOBS_CONFIG'} to search for .jobsrc.yaml and the user config.`],
      });
    }
    files.push({ kind: 'explicit', path, config: (await readConfigFile(path, show)) ?? {} });
  } else {
    const project = await searchUpwards(cwd, homeDir(env), show);
    if (project && 'notRun' in project) warnings.push(notRunWarning(show(project.path)));
    else if (project) files.push({ kind: 'project', path: project.path, config: project.config });
    // The user's own directory, like their shell's start-up files: JavaScript there is run.
    const user = await searchIn(userDir, USER_PLACES, show, true);
    if (user && 'config' in user) files.push({ kind: 'user', path: user.path, config: user.config });
  }

  // Every file's profiles name token variables before any file is interpolated: a project config
  // must not read the variable that the user config's profile takes its token from.
  const tokens = tokenVariables(
    env,
    files.map((file) => file.config),
  );
  // The user's own files say which variables a project config may read; a project config cannot.
  const trusted = files.filter((file) => file.kind !== 'project').map((file) => (isPlainObject(file.config) ? file.config.allow_env : undefined));
  const reads: EnvRead[] = [];
  const policy = { allowedEnv: allowedNames([...trusted, ...(input.allowEnv ?? [])]), reads };
  const layers: ConfigLayer[] = [];
  for (const file of files)
    layers.push(await toLayer(file.kind, file.path, file.config, env, tokens, show, warnings, readPolicy(file.kind, file.path, policy)));
  const project = files.find((file) => file.kind === 'project');
  if (project && isPlainObject(project.config) && project.config.allow_env !== undefined) {
    warnings.push(
      `${show(project.path)}: allow_env is ignored in a project config (a checkout must not be able to choose which of your environment variables it reads); set it in your user config, or pass --allow-env`,
    );
  }
  return { layers, ...(explicit ? { explicit: { path: files[0]!.path, source: explicit.source } } : {}), userDir, warnings, tokens, ...policy };
}

/** .js, .cjs and .mjs config files, which cosmiconfig loads by running them. */
export function isJavaScriptConfig(path: string): boolean {
  return /\.(c|m)?js$/.test(path);
}

function notRunWarning(shown: string): string {
  return (
    `${shown} was not loaded: a JavaScript config found by searching from the working directory is not run, ` +
    `because any checkout (a pull request in CI, say) could bring one; name it with --config ${shown} or JOBS_CONFIG to run it, or write the settings as .jobsrc.yaml`
  );
}

function explicitConfig(input: LoadInput): { value: string; source: SettingSource } | undefined {
  if (input.configFlag) return { value: input.configFlag, source: { kind: 'flag', name: '--config' } };
  const fromEnv = input.env.JOBS_CONFIG;
  if (fromEnv) return { value: fromEnv, source: { kind: 'env', name: 'JOBS_CONFIG' } };
  return undefined;
}

type Explorer = ReturnType<typeof Cosmiconfig>;

/**
 * cosmiconfig is loaded only for JavaScript config files: YAML and JSON are parsed here, and the
 * search itself is a readdir per folder, so a run without a JS config (most runs) doesn't pay for it.
 */
async function explorer(places: readonly string[], show: (file: string) => string): Promise<Explorer> {
  const { cosmiconfig } = await import('cosmiconfig');
  const { parseDocument } = await import('yaml');
  const yamlLoader: Loader = (file, content) => parseYamlConfig(parseDocument, content, show(file));
  const jsonLoader: Loader = (file, content) => parseJsonConfig(content, show(file));
  return cosmiconfig('jobs', {
    searchPlaces: [...places],
    searchStrategy: 'none',
    cache: false,
    loaders: { '.yaml': yamlLoader, '.yml': yamlLoader, noExt: yamlLoader, '.json': jsonLoader },
  });
}

type Found = { path: string; config: unknown } | { path: string; notRun: true };

/**
 * The nearest project config. A JavaScript file found here is not run (`notRun`); it still ends the
 * search, so the file that applies is always the nearest one, never one further up in its place.
 */
async function searchUpwards(cwd: string, home: string, show: (file: string) => string): Promise<Found | undefined> {
  const stopAt = resolvePath(home);
  let dir = resolvePath(cwd);
  // Bounded by the depth of the path: each step goes one directory up.
  for (;;) {
    const found = await searchIn(dir, PROJECT_PLACES, show, false);
    if (found) return found;
    const parent = dirname(dir);
    if (dir === stopAt || parent === dir) return undefined;
    dir = parent;
  }
}

/** The first of `places` in `dir` that holds a config (as cosmiconfig would pick it). */
async function searchIn(dir: string, places: readonly string[], show: (file: string) => string, runJavaScript: boolean): Promise<Found | undefined> {
  let names: Set<string>;
  try {
    names = new Set(await readdir(dir));
  } catch {
    return undefined;
  }
  for (const place of places) {
    if (!names.has(place)) continue;
    const path = resolvePath(dir, place);
    if (!(await isFile(path))) continue;
    if (place === 'package.json') {
      const pkg = parseJsonConfig(await readFileText(path, 'utf8'), show(path));
      if (isPlainObject(pkg) && Object.prototype.hasOwnProperty.call(pkg, 'jobs')) return { path, config: pkg.jobs };
      continue;
    }
    if (!runJavaScript && isJavaScriptConfig(path)) {
      if ((await readFileText(path, 'utf8')).trim() !== '') return { path, notRun: true };
      continue;
    }
    const config = await readConfigFile(path, show);
    // Like cosmiconfig's search, an empty file is passed over.
    if (config !== undefined && config !== null) return { path, config };
  }
  return undefined;
}

/** Reads one config file: YAML and JSON here, JavaScript through cosmiconfig. */
async function readConfigFile(path: string, show: (file: string) => string): Promise<unknown> {
  const ext = extname(path);
  if (ext === '.json' || ext === '.yaml' || ext === '.yml' || ext === '') {
    const text = await readFileText(path, 'utf8');
    if (text.trim() === '') return undefined;
    if (ext !== '.json') return parseYamlConfig((await import('yaml')).parseDocument, text, show(path));
    const data = parseJsonConfig(text, show(path));
    // Named directly (--config package.json), a package.json holds its config under `jobs`.
    return path.endsWith('package.json') && isPlainObject(data) ? data.jobs : data;
  }
  try {
    const result = await (await explorer([], show)).load(path);
    return result?.config;
  } catch (error) {
    throw asConfigError(error, show);
  }
}

function asConfigError(error: unknown, show: (file: string) => string): ConfigError {
  if (error instanceof ConfigError) return error;
  const file = (error as { filepath?: string }).filepath;
  const message = error instanceof Error ? error.message : String(error);
  return new ConfigError(`${file ? show(file) : 'config file'}: cannot be read: ${message.split('\n')[0]}`, { cause: error });
}

/**
 * A warning of the yaml package (an unknown tag such as `!foo` or `!!timestamp`) is an error here:
 * `parse` would print it as a Node warning and read the value as something else, unnoticed.
 */
function parseYamlConfig(parseDocument: typeof import('yaml').parseDocument, content: string, shown: string): unknown {
  const doc = parseDocument(content, { uniqueKeys: true, prettyErrors: true });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw new ConfigError(`${shown}: invalid YAML: ${problem.message.split('\n')[0]!.replace(/:$/, '')}`);
  try {
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (error) {
    throw new ConfigError(`${shown}: invalid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}

function parseJsonConfig(content: string, shown: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch (error) {
    throw new ConfigError(`${shown}: invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function toLayer(
  kind: LayerKind,
  path: string,
  config: unknown,
  env: Env,
  tokens: TokenVariables,
  show: (file: string) => string,
  warnings: string[],
  policy: ReadPolicy,
): Promise<ConfigLayer> {
  const shown = show(path);
  const raw = config === undefined || config === null ? {} : config;
  let data: unknown;
  try {
    data = interpolateData(raw, env, tokens, [], (key) => key.length === 1 && key[0] === 'profiles', policy);
  } catch (error) {
    if (error instanceof InterpolationError) throw new ConfigError(`${shown}: ${keyText(error.key)}: ${error.message}`);
    throw error;
  }
  const problems = checkConfig(data);
  if (problems.length > 0) {
    const at = async (key: string[]) => {
      const position = await keyPosition(path, path.endsWith('package.json') ? ['jobs', ...key] : key);
      return position ? `${shown}:${position.line}:${position.column}` : shown;
    };
    const lines = await Promise.all(problems.map(async (p) => `${p.located ? await at(p.key) : shown}: ${keyText(p.key)}: ${p.message}`));
    throw new ConfigError(lines[0]!, {
      details: [...lines.slice(1), `Fix ${shown}; 'jobs schema config' prints the config schema.`],
    });
  }
  const valid = data as PlainObject;
  const profiles = isPlainObject(valid.profiles) ? (valid.profiles as Record<string, PlainObject>) : {};
  if (Object.values(profiles).some((p) => typeof p.token === 'string' && !isSoleReference(p.token)) && (await readableByOthers(path))) {
    warnings.push(`${shown}: holds a token and is readable by others; chmod 600 it or use \${JOBS_TOKEN}`);
  }
  return { kind, path, data: valid, profiles };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Group or others may read the file (POSIX modes; Windows has none to check). */
export async function readableByOthers(path: string): Promise<boolean> {
  if (process.platform === 'win32') return false;
  try {
    return ((await stat(path)).mode & 0o044) !== 0;
  } catch {
    return false;
  }
}

/** A JS config cannot be edited by `jobs config set`; YAML and JSON files can. */
export function editableFormat(path: string): 'yaml' | 'json' | undefined {
  const base = path.split(/[\\/]/).pop() ?? '';
  if (base === 'package.json') return undefined;
  const ext = extname(base);
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml' || ext === '') return 'yaml';
  return undefined;
}

export interface LocatedFiles {
  /** --config / JOBS_CONFIG, when given: the only config file read. */
  explicit?: { path: string; source: SettingSource; exists: boolean };
  /** The nearest project config, if any. */
  project?: string;
  /** The user config, if any. */
  user?: string;
  userDir: string;
}

/**
 * Which files apply, without parsing them (so `jobs config path` and `jobs config set` work even when
 * a file is broken). Follows the same rules as the search: empty files and package.json without a
 * "jobs" key do not count.
 */
export async function locateConfigFiles(input: LoadInput): Promise<LocatedFiles> {
  const userDir = userConfigDir(input.env);
  const explicit = explicitConfig(input);
  if (explicit) {
    const path = resolvePath(input.cwd, explicit.value);
    return { explicit: { path, source: explicit.source, exists: await isFile(path) }, userDir };
  }
  const stopAt = resolvePath(homeDir(input.env));
  let project: string | undefined;
  for (let dir = resolvePath(input.cwd); ;) {
    project = await firstPlace(dir, PROJECT_PLACES);
    const parent = dirname(dir);
    if (project || dir === stopAt || parent === dir) break;
    dir = parent;
  }
  return { project, user: await firstPlace(userDir, USER_PLACES), userDir };
}

async function firstPlace(dir: string, places: readonly string[]): Promise<string | undefined> {
  for (const place of places) {
    const path = resolvePath(dir, place);
    let text: string;
    try {
      text = await readFileText(path, 'utf8');
    } catch {
      continue;
    }
    if (place === 'package.json') {
      try {
        const pkg = JSON.parse(text) as unknown;
        if (isPlainObject(pkg) && pkg.jobs !== undefined && pkg.jobs !== null) return path;
      } catch {
        // A broken package.json is not ours to report here; the search reports it when it reads it.
      }
      continue;
    }
    if (text.trim() !== '') return path;
  }
  return undefined;
}

/** Where a key is written in a YAML or JSON config file (1-based), for a message; undefined when the text cannot say. */
async function keyPosition(path: string, key: string[]): Promise<{ line: number; column: number } | undefined> {
  if (!['.json', '.yaml', '.yml', ''].includes(extname(path))) return undefined;
  try {
    const { LineCounter, parseDocument, isMap, isScalar } = await import('yaml');
    const lines = new LineCounter();
    const doc = parseDocument(await readFileText(path, 'utf8'), { lineCounter: lines });
    let node: unknown = doc.contents;
    let offset: number | undefined;
    for (const segment of key) {
      const pair = isMap(node) ? node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment) : undefined;
      if (!pair || !isScalar(pair.key)) return undefined;
      offset = pair.key.range?.[0];
      node = pair.value;
    }
    return offset === undefined ? undefined : { line: lines.linePos(offset).line, column: lines.linePos(offset).col };
  } catch {
    return undefined;
  }
}
