/**
 * Finding and reading config files: the nearest project config from cwd upwards (stopping at home or
 * the filesystem root), the user config in the XDG config dir, or one file named by --config /
 * JOBS_CONFIG instead of both. Each file is parsed, interpolated and validated on its own so an error
 * names the file it is in.
 *
 * explorer.ts searches and loads, in cosmiconfig's order, with the loaders below: YAML through the
 * `yaml` package (its errors keep their line and column), JSON, and JavaScript where it may run (by
 * cosmiconfig's own loader).
 *
 * A project config arrives with any checkout, a pull request's included, so what it can do is
 * limited: a JavaScript one found by the search is not run (see projectLoaders), and no config
 * may copy the token anywhere but a profile's `token` (see interpolate.ts).
 */
import { readFile as readFileText, stat } from '../util/quick-fs.js';
import { basename, extname, resolve as resolvePath } from 'node:path';
import { ConfigError } from '../errors/failures.js';
import { explorer, Loaded, loadedValue, type ConfigResult, type Explorer, type Loader, type Loaders } from './explorer.js';
import { allowedNames, InterpolationError, interpolateData, isSoleReference, tokenVariables, type ReadPolicy, type TokenVariables } from './interpolate.js';
import { displayPath, homeDir, userConfigDir } from './paths.js';
import { isPlainObject, type PlainObject } from './plain.js';
import { checkConfig, keyText } from './schema.js';
import type { SettingSource } from './types.js';

type Env = Record<string, string | undefined>;

/** Project config names, in the order they are tried in each directory (cosmiconfig's). */
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
    const config = loadedValue(await explore(explorer([], trustedLoaders(show)), (e) => e.load(path), show));
    files.push({ kind: 'explicit', path, config: config ?? {} });
  } else {
    // The nearest project config, from cwd up to home (or the root); a JavaScript one ends the search
    // unrun, so the file that applies is always the nearest one, never one further up in its place.
    const project = await explore(explorer(PROJECT_PLACES, projectLoaders(show), homeDir(env)), (e) => e.search(cwd), show);
    if (project && loadedValue(project) === NOT_RUN) warnings.push(notRunWarning(show(project.filepath)));
    else if (project) files.push({ kind: 'project', path: project.filepath, config: loadedValue(project) });
    // The user's own directory, like their shell's start-up files: JavaScript there is run.
    const user = await explore(explorer(USER_PLACES, trustedLoaders(show)), (e) => e.search(userDir), show);
    if (user) files.push({ kind: 'user', path: user.filepath, config: loadedValue(user) });
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

/** A JavaScript config found by the search, in place of its settings: it ends the search, unrun. */
const NOT_RUN = Symbol('not run');

/** Runs one search or load, its errors as ConfigErrors naming the file. */
async function explore(made: Explorer, step: (e: Explorer) => Promise<ConfigResult>, show: (file: string) => string): Promise<ConfigResult> {
  try {
    return await step(made);
  } catch (error) {
    throw asConfigError(error, show);
  }
}

/** The value as the search takes it: boxed (explorer.ts), `null` when the file holds nothing. */
function box(value: unknown): Loaded | null {
  return value === undefined || value === null ? null : new Loaded(value);
}

/** YAML and JSON; a package.json holds its config under `jobs`, and without that key is passed over. */
function dataLoaders(show: (file: string) => string): Loaders {
  // The yaml package (and the alias bound, which uses it) only once a YAML config is found: most
  // runs find none, and loading it costs every start some 1.5 ms.
  const yaml: Loader = async (file, content) => {
    const [{ parseDocument }, aliases] = await Promise.all([import('yaml'), import('../util/yaml-aliases.js')]);
    return box(parseYamlConfig(parseDocument, aliases, content, show(file)));
  };
  const json: Loader = (file, content) => {
    const data = parseJsonConfig(content, show(file));
    if (basename(file) !== 'package.json') return box(data);
    // `"jobs": null` is passed over, as by locateConfigFiles (and cosmiconfig): `jobs config path`
    // and the settings name the same file.
    return isPlainObject(data) && Object.prototype.hasOwnProperty.call(data, 'jobs') && data.jobs !== null ? { jobs: new Loaded(data.jobs) } : {};
  };
  return { '.yaml': yaml, '.yml': yaml, noExt: yaml, '.json': json };
}

/** For the search from the working directory: JavaScript is not run (any checkout could bring it). */
function projectLoaders(show: (file: string) => string): Loaders {
  const notRun: Loader = () => new Loaded(NOT_RUN);
  return { ...dataLoaders(show), '.js': notRun, '.cjs': notRun, '.mjs': notRun };
}

/** For the user's own config and a file named by --config / JOBS_CONFIG: JavaScript is run, by cosmiconfig. */
function trustedLoaders(show: (file: string) => string): Loaders {
  const run: Loader = async (file, content) => {
    // Not bundled (scripts/build.mjs): its import() of the file needs Node's own module loader.
    const { loadJs } = (await import('cosmiconfig/dist/loaders.js')) as unknown as { loadJs: Loader };
    return box(await loadJs(file, content));
  };
  return { ...dataLoaders(show), '.js': run, '.cjs': run, '.mjs': run };
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
function parseYamlConfig(
  parseDocument: typeof import('yaml').parseDocument,
  { aliasExcess, lineColumn }: typeof import('../util/yaml-aliases.js'),
  content: string,
  shown: string,
): unknown {
  const doc = parseDocument(content, { uniqueKeys: true, prettyErrors: true });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) throw new ConfigError(`${shown}: invalid YAML: ${problem.message.split('\n')[0]!.replace(/:$/, '')}`);
  const excess = aliasExcess(doc);
  if (excess) throw new ConfigError(`${shown}:${lineColumn(content, excess.offset)}: invalid YAML: ${excess.message}`);
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
  const project = await explore(explorer(PROJECT_PLACES, locatingLoaders(), homeDir(input.env)), (e) => e.search(input.cwd), String);
  const user = await explore(explorer(USER_PLACES, locatingLoaders(), undefined), (e) => e.search(userDir), String);
  return { project: project?.filepath, user: user?.filepath, userDir };
}

/**
 * Loaders that only say a file counts, without reading it as a config: a non-empty file does; a
 * package.json does with a `jobs` value (a broken one is not ours to report here: the search does).
 */
function locatingLoaders(): Loaders {
  const counts: Loader = (file, content) => {
    if (basename(file) !== 'package.json') return new Loaded(true);
    try {
      const pkg = JSON.parse(content) as unknown;
      return isPlainObject(pkg) && pkg.jobs !== undefined && pkg.jobs !== null ? { jobs: new Loaded(true) } : {};
    } catch {
      return {};
    }
  };
  return Object.fromEntries(['.yaml', '.yml', 'noExt', '.json', '.js', '.cjs', '.mjs'].map((ext) => [ext, counts]));
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
