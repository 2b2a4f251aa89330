/**
 * The search for config files and their loading, as cosmiconfig's explorer did it for jobs (and
 * still does for its users elsewhere): the walk up the folders, the order of names in each, the
 * passing over of empty files and of a package.json without a `jobs` key, and the loaders (so the
 * guards) given by load.ts.
 *
 * Written here rather than taken from cosmiconfig: its package, its async walk and env-paths were
 * loaded at every start of every command (about 0.8 ms of `jobs validate`'s start-up, which issue 31
 * bounds), and what jobs used of it is this file. What it does not do, on purpose: no "meta config"
 * (cosmiconfig() reads package.json's `cosmiconfig` key and `.config/config.*` in the working folder
 * with its own loaders, so a checkout could run JavaScript there or add places to search:
 * cosmiconfig issues 296 and 339), no `$import` (a config must not reach files beyond itself), and no
 * global folder of env-paths' (the user config is read on its own: paths.ts). A JavaScript config
 * the user trusts is still run by cosmiconfig's own loader (load.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { notRegularKind, readFile } from '../util/quick-fs.js';

/**
 * What every loader hands the search: the file's value in a box, so nothing can act on the file's
 * own keys. `null` instead passes the file over, as an empty one; for package.json, an object whose
 * `jobs` key holds the box.
 */
export class Loaded {
  constructor(readonly value: unknown) {}
}

/** A file found (or loaded): its path and what its loader gave; `isEmpty` for a file of whitespace. */
export type ConfigResult = { filepath: string; config: unknown; isEmpty?: boolean } | null;

export type Loader = (filepath: string, content: string) => unknown;
export type Loaders = Record<string, Loader>;

export interface Explorer {
  /** The first of the places holding a config, in `from` (then each folder up to `upTo`, when given). */
  search(from: string): Promise<ConfigResult>;
  /** One file, by its loader. */
  load(path: string): Promise<ConfigResult>;
}

/**
 * An explorer of `places` read by `loaders`: searching `from` alone, or, with `upTo`, each folder
 * from `from` up to `upTo` (included) or the filesystem root.
 */
export function explorer(places: readonly string[], loaders: Loaders, upTo?: string): Explorer {
  return {
    async search(from) {
      for (const dir of folders(resolve(from), upTo === undefined ? undefined : resolve(upTo))) {
        for (const path of placesIn(dir, places)) {
          let result: ConfigResult;
          try {
            result = await read(path, loaders);
          } catch (error) {
            // Gone or unreadable between the look and the read: as cosmiconfig, the next name. Not so
            // an error of the loader (it carries `filepath`): a user's config.cjs that fails to read a
            // file of its own is an error to report, not a config to pass over unsaid (cosmiconfig did).
            const code = (error as NodeJS.ErrnoException).code ?? '';
            if (!hasFilepath(error) && ['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES'].includes(code)) continue;
            throw error;
          }
          if (result !== null && !result.isEmpty) return result;
        }
      }
      return null;
    },
    load: (path) => read(resolve(path), loaders),
  };
}

/** `from`, then with `upTo` each folder above it until `upTo` or the root. */
function* folders(from: string, upTo: string | undefined): Iterable<string> {
  yield from;
  if (upTo === undefined) return;
  for (let dir = from; dir !== upTo;) {
    const parent = dirname(dir);
    if (parent === dir) return;
    yield parent;
    dir = parent;
  }
}

/**
 * The places that are regular files in the folder, in their order: one listing of a small folder
 * rather than a failed open per name, one look per name in a large one (a listing of /tmp with
 * 14,000 entries took 15 ms of every start), and a FIFO planted as `.jobsrc.yaml` is passed over
 * (reading it would wait forever). None in what is not a folder.
 */
function placesIn(dir: string, places: readonly string[]): string[] {
  let names: Set<string> | undefined;
  try {
    // A missing folder (most users have no ~/.config/jobs) is no exception: making one costs a stack trace.
    const info = statSync(dir, { throwIfNoEntry: false });
    if (!info?.isDirectory()) return [];
    if (info.size <= LISTED_FOLDER_BYTES) names = new Set(readdirSync(dir));
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const place of places) {
    const path = join(dir, place);
    if ((names === undefined || names.has(basename(path))) && isRegularFile(path)) found.push(path);
  }
  return found;
}

/**
 * A folder's size, as stat gives it, up to which it is listed rather than looked up name by name:
 * four blocks on ext4 (some hundred entries), as many entries on tmpfs.
 */
const LISTED_FOLDER_BYTES = 16_384;

function isRegularFile(path: string): boolean {
  try {
    // No exception made for a name that is not there: most names of a large folder's look-ups.
    const info = statSync(path, { throwIfNoEntry: false });
    return info !== undefined && notRegularKind(info) === undefined;
  } catch {
    return false;
  }
}

/**
 * A file by the loader of its extension: whitespace alone is empty; a package.json gives what its
 * loader put under `jobs`, or is passed over (null). A loader's error names the file (`filepath`).
 */
async function read(filepath: string, loaders: Loaders): Promise<ConfigResult> {
  const content = await readFile(filepath, 'utf8');
  if (content.trim() === '') return { filepath, config: undefined, isEmpty: true };
  const extension = extname(filepath);
  const loader = loaders[extension || 'noExt'];
  if (!loader) {
    const names = Object.keys(loaders).map((ext) => (ext === 'noExt' ? 'no extension' : ext));
    throw withFilepath(
      new Error(`no loader for ${extension ? `extension "${extension}"` : 'files without extensions'}: name it with ${names.join(', ')}`),
      filepath,
    );
  }
  let loaded: unknown;
  try {
    loaded = await loader(filepath, content);
  } catch (error) {
    // A JavaScript config may throw anything (a string): it still names its file.
    throw withFilepath(error !== null && typeof error === 'object' ? error : new Error(String(error)), filepath);
  }
  if (basename(filepath, extension) === 'package') loaded = (loaded as Record<string, unknown> | null | undefined)?.jobs ?? null;
  if (loaded === null) return null;
  return loaded === undefined ? { filepath, config: undefined, isEmpty: true } : { filepath, config: loaded };
}

function withFilepath(error: object, filepath: string): object {
  (error as { filepath?: string }).filepath = filepath;
  return error;
}

function hasFilepath(error: unknown): boolean {
  return error !== null && typeof error === 'object' && typeof (error as { filepath?: unknown }).filepath === 'string';
}

/** The value a loader boxed; undefined for no file or an empty one. */
export function loadedValue(result: ConfigResult): unknown {
  return result?.config instanceof Loaded ? result.config.value : undefined;
}
