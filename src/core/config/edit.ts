/**
 * `jobs config set/unset`: edits one YAML or JSON config file in place. YAML edits go through the
 * yaml Document API so comments and layout survive; every write is atomic (temp file + rename) and
 * keeps the file's mode (a new user config gets 0600: it may end up holding secrets; a new project
 * config is a team's file, created 0666 less the umask, as an editor would).
 */
import { stat } from 'node:fs/promises';
import { basename, resolve as resolvePath } from 'node:path';
import { isCollection, parseDocument, type Document } from 'yaml';
import { aliasExcess, lineColumn } from '../util/yaml-aliases.js';
import { ConfigError, UsageError } from '../errors/failures.js';
import { isSoleReference } from './interpolate.js';
import { editableFormat, locateConfigFiles, type LoadInput } from './load.js';
import { defaultUserConfigFile, displayPath } from './paths.js';
import { defineKey, isPlainObject, ownValue, type PlainObject } from './plain.js';
import { checkConfig, keyText, schemaAt } from './schema.js';
import { readFile, whyUnreadable } from '../util/quick-fs.js';

type Env = Record<string, string | undefined>;

export interface EditTarget {
  path: string;
  format: 'yaml' | 'json';
  scope: 'user' | 'project' | 'explicit';
}

/**
 * The file to edit: the project config with --project (the nearest one, else `.jobsrc.yaml` in cwd),
 * the file named by --config / JOBS_CONFIG, else the user config (created as config.yaml).
 */
export async function editTarget(input: LoadInput & { project: boolean }): Promise<EditTarget> {
  const show = (file: string) => displayPath(file, input.cwd, input.env);
  const located = await locateConfigFiles(input);
  let path: string;
  let scope: EditTarget['scope'];
  if (input.project) {
    path = located.project ?? resolvePath(input.cwd, '.jobsrc.yaml');
    scope = 'project';
  } else if (located.explicit) {
    path = located.explicit.path;
    scope = 'explicit';
  } else {
    path = located.user ?? defaultUserConfigFile(input.env);
    scope = 'user';
  }
  const format = editableFormat(path);
  if (!format) {
    throw new UsageError(`${show(path)} is ${basename(path) === 'package.json' ? 'package.json' : 'JavaScript'}; jobs only edits YAML and JSON config files`, {
      details: ['Change the setting in that file by hand.'],
    });
  }
  return { path, format, scope };
}

/** `profiles.prod.base_url` -> ['profiles', 'prod', 'base_url']. */
export function parseKey(text: string): string[] {
  const path = text.split('.');
  if (text === '' || path.some((part) => part === '')) {
    throw new UsageError(`"${text}" is not a key; write dotted keys such as profiles.prod.base_url or concurrency`);
  }
  return path;
}

/** Checks a key exists in the config schema; unknown keys get a "did you mean". */
export function checkKey(path: string[]): void {
  const found = schemaAt(path);
  if (!found.ok) throw new UsageError(`${keyText(path.slice(0, found.depth + 1))}: ${found.hint}`);
}

/** The value a command-line string stands for at `path`, typed by the config schema. */
export function typedValue(path: string[], text: string): unknown {
  const found = schemaAt(path);
  if (!found.ok) throw new UsageError(`${keyText(path.slice(0, found.depth + 1))}: ${found.hint}`);
  const key = keyText(path);
  if (path.length === 3 && path[0] === 'profiles' && path[2] === 'token' && !isSoleReference(text)) {
    throw new UsageError(`refusing to write a token into a config file, where it is easily copied or committed`, {
      details: [
        `Store it with 'jobs${path[1] === 'default' ? '' : ` --profile ${path[1]}`} login' (kept in the OS keyring, or a file only you can read),`,
        `or reference an environment variable: jobs config set ${key} '\${${path[1]!.toUpperCase().replace(/-/g, '_')}_TOKEN}'`,
      ],
    });
  }
  const node = found.node;
  if (!node) return freeForm(text); // inside `defaults`: YAML scalars (numbers, true/false, lists)
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if (types.includes('object')) {
    const value = freeForm(text);
    if (!isPlainObject(value))
      throw new UsageError(`${key} is a group of settings; set one of its keys (${key}.<name>) or give a YAML mapping such as '{a: 1}'`);
    return value;
  }
  if (types.includes('integer') && /^-?\d+$/.test(text.trim())) return Number(text);
  if (types.includes('number') && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('string')) return text;
  const expected = types.map((t) => (t === 'integer' ? 'a whole number' : t === 'boolean' ? 'true or false' : `a ${t}`)).join(' or ');
  throw new UsageError(`${key}: expected ${expected}, got ${JSON.stringify(text)}`);
}

function freeForm(text: string): unknown {
  try {
    // A text the yaml package would warn about (`!foo x`) is kept as the text, not printed as a Node warning.
    const doc = parseDocument(text);
    if (doc.errors.length > 0 || doc.warnings.length > 0) return text;
    const value = doc.toJS() as unknown;
    return value === null || value === undefined ? text : value;
  } catch {
    return text;
  }
}

export interface EditResult {
  /** False for unset when the key was not in the file. */
  changed: boolean;
  /** Problems elsewhere in the file, which this edit did not cause and did not block. */
  otherProblems: string[];
}

export async function setKey(target: EditTarget, path: string[], value: unknown, cwd: string, env: Env): Promise<EditResult> {
  const file = await readForEdit(target, cwd, env);
  file.set(path);
  if (file.doc) file.doc.setIn(path, value);
  else setJson(file.data() as PlainObject, path, value, target, cwd, env);
  return finish(target, file, path, cwd, env);
}

export async function unsetKey(target: EditTarget, path: string[], cwd: string, env: Env): Promise<EditResult> {
  const file = await readForEdit(target, cwd, env);
  if (!file.exists || !file.has(path)) return { changed: false, otherProblems: [] };
  file.remove(path);
  return finish(target, file, path, cwd, env);
}

interface EditableFile {
  exists: boolean;
  mode: number | undefined;
  doc?: Document;
  data(): unknown;
  has(path: string[]): boolean;
  set(path: string[]): void;
  remove(path: string[]): void;
  text(): string;
}

async function readForEdit(target: EditTarget, cwd: string, env: Env): Promise<EditableFile> {
  const shown = displayPath(target.path, cwd, env);
  let text = '';
  let mode: number | undefined;
  let exists = false;
  try {
    // Regular files only: a FIFO or device would block the read or never end.
    text = await readFile(target.path, 'utf8');
    mode = (await stat(target.path)).mode & 0o777;
    exists = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfigError(`${shown}: cannot be read: ${whyUnreadable(error)}`);
  }
  if (target.format === 'yaml') {
    const doc = parseDocument(text, { uniqueKeys: true });
    // A warning (an unknown tag) too: the loader refuses the file for it, so an edit must not keep it.
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem) throw new ConfigError(`${shown}: invalid YAML: ${problem.message.split('\n')[0]!.replace(/:$/, '')}`);
    const excess = aliasExcess(doc);
    if (excess) throw new ConfigError(`${shown}:${lineColumn(text, excess.offset)}: invalid YAML: ${excess.message}`);
    if (doc.contents !== null && !isCollection(doc.contents)) throw new ConfigError(`${shown}: (top level): must be a mapping of keys to values`);
    return {
      exists,
      mode,
      doc,
      data: () => doc.toJS() ?? {},
      has: (path) => doc.hasIn(path),
      set: (path) => {
        // setIn fails on a scalar in the way; say which key instead of the library's words.
        for (let i = 1; i < path.length; i++) {
          const prefix = path.slice(0, i);
          if (doc.hasIn(prefix) && !isCollection(doc.getIn(prefix, true))) {
            throw new UsageError(`${shown}: ${keyText(prefix)} holds a value, not a group of keys; unset it first`);
          }
        }
      },
      remove: (path) => {
        doc.deleteIn(path);
        for (let i = path.length - 1; i > 0; i--) {
          const parent = doc.getIn(path.slice(0, i), true);
          if (isCollection(parent) && parent.items.length === 0) doc.deleteIn(path.slice(0, i));
          else break;
        }
      },
      text: () => String(doc),
    };
  }
  let data: unknown = {};
  if (text.trim() !== '') {
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`${shown}: invalid JSON: ${(error as Error).message}`);
    }
  }
  if (!isPlainObject(data)) throw new ConfigError(`${shown}: (top level): must be a mapping of keys to values`);
  const root = data;
  return {
    exists,
    mode,
    data: () => root,
    has: (path) => path.reduce<unknown>((node, key) => (isPlainObject(node) ? ownValue(node, key) : undefined), root) !== undefined,
    set: () => undefined,
    remove: (path) => removeJson(root, path),
    text: () => `${JSON.stringify(root, null, 2)}\n`,
  };
}

function setJson(root: PlainObject, path: string[], value: unknown, target: EditTarget, cwd: string, env: Env): void {
  let node = root;
  for (const [i, key] of path.slice(0, -1).entries()) {
    const next = ownValue(node, key);
    if (next === undefined) {
      const created: PlainObject = {};
      defineKey(node, key, created);
      node = created;
    } else if (isPlainObject(next)) node = next;
    else throw new UsageError(`${displayPath(target.path, cwd, env)}: ${keyText(path.slice(0, i + 1))} holds a value, not a group of keys; unset it first`);
  }
  defineKey(node, path[path.length - 1]!, value);
}

function removeJson(root: PlainObject, path: string[]): void {
  const parents: PlainObject[] = [root];
  for (const key of path.slice(0, -1)) parents.push(ownValue(parents[parents.length - 1]!, key) as PlainObject);
  delete parents[parents.length - 1]![path[path.length - 1]!];
  // Drop groups the removal left empty, so `unset profiles.ci.base_url` leaves no `ci: {}` behind.
  for (let i = parents.length - 1; i > 0; i--) {
    if (Object.keys(parents[i]!).length > 0) break;
    delete parents[i - 1]![path[i - 1]!];
  }
}

async function finish(target: EditTarget, file: EditableFile, path: string[], cwd: string, env: Env): Promise<EditResult> {
  const shown = displayPath(target.path, cwd, env);
  const data = file.data();
  const problems = checkConfig(data).filter((p) => !holdsReference(data, p.key));
  // Problems at the edited key, above it or below it block the edit; others were there before.
  const mine = problems.filter((p) => p.key.every((k, i) => i >= path.length || path[i] === k));
  if (mine.length > 0) {
    throw new UsageError(`${keyText(mine[0]!.key)}: ${mine[0]!.message}`, {
      details: [...mine.slice(1).map((p) => `${keyText(p.key)}: ${p.message}`), `${shown} was not changed.`],
    });
  }
  // An existing file keeps exactly its mode; a new one gets 0600 (user) or 0666 less the umask (project: a team's file).
  const mode = file.mode ?? (target.scope === 'project' ? 'shared' : 0o600);
  await writeAtomically(target.path, file.text(), mode, target.scope === 'user', shown);
  return { changed: true, otherProblems: problems.map((p) => `${shown}: ${keyText(p.key)}: ${p.message}`) };
}

/** `${VAR}` strings are checked after interpolation, when the config is read; not here. */
function holdsReference(data: unknown, key: string[]): boolean {
  let node: unknown = data;
  for (const k of key) node = isPlainObject(node) ? ownValue(node, k) : undefined;
  return typeof node === 'string' && node.includes('${');
}

async function writeAtomically(path: string, text: string, mode: number | 'shared', privateDir: boolean, shown: string): Promise<void> {
  const { replaceFile } = await import('../storage/replace.js');
  const { cannotWrite } = await import('../storage/errors.js');
  try {
    // Durable: a config is typed by hand, not rebuilt. The file keeps exactly the mode it had.
    replaceFile(path, text, { durable: true, mode, folderMode: privateDir ? 0o700 : 0o777 });
  } catch (error) {
    throw cannotWrite(shown, path, error, { details: [`${shown} was not changed.`] });
  }
}
