/**
 * cosmiconfig's search and loading, as jobs uses them: its walk up the folders, its order of names
 * in each, its reading, its `package.json` property and its passing over of empty files, with the
 * loaders (and so the guards) given by load.ts.
 *
 * Built from cosmiconfig's Explorer class rather than its `cosmiconfig()` factory: the factory first
 * reads a "meta config" from the process's working folder (package.json's `cosmiconfig` key,
 * `.config/config.{json,yaml,js,...}`) with cosmiconfig's own loaders, so a checkout could run
 * JavaScript there or add places to search (cosmiconfig issues 296 and 339; cspell dropped the
 * package over it). The class is not in cosmiconfig's typed surface: the types below are what this
 * file uses of it, and test/e2e/config-trust.test.ts fails should a new version change it.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { CosmiconfigResult, Loader } from 'cosmiconfig';
import { notRegularKind } from '../util/quick-fs.js';

/**
 * What every loader hands cosmiconfig: the file's value in a box, so cosmiconfig cannot act on the
 * file's own keys (`$import` would read and merge any other file named in it; a config must not
 * reach files beyond itself). `null` instead passes the file over, as an empty one.
 */
export class Loaded {
  constructor(readonly value: unknown) {}
}

export type Loaders = Record<string, Loader>;

export interface Explorer {
  /** The first of the places holding a config, in `from` (then each folder up to `upTo`, when given). */
  search(from: string): Promise<CosmiconfigResult>;
  /** One file, by its loader. */
  load(path: string): Promise<CosmiconfigResult>;
}

interface Dir {
  path: string;
  isGlobalConfig: boolean;
}

interface ExplorerOptions {
  moduleName: string;
  searchPlaces: string[];
  ignoreEmptySearchPlaces: boolean;
  stopDir?: string;
  cache: boolean;
  transform: (result: CosmiconfigResult) => CosmiconfigResult;
  loaders: Loaders;
  metaConfigFilePath: null;
  mergeImportArrays: boolean;
  mergeSearchPlaces: boolean;
  searchStrategy: 'none' | 'global';
}

type ExplorerClass = new (options: ExplorerOptions) => Explorer & {
  getGlobalDirs(startDir: string): Iterable<Dir>;
  getSearchPlacesForDir(dir: Dir, globalPlaces: string[]): string[];
};

/**
 * An explorer of `places` read by `loaders`: searching `from` alone, or, with `upTo`, each folder
 * from `from` up to `upTo` (included) or the filesystem root.
 */
export async function explorer(places: readonly string[], loaders: Loaders, upTo?: string): Promise<Explorer> {
  const { Explorer: Base } = (await import('cosmiconfig/dist/Explorer.js')) as unknown as { Explorer: ExplorerClass };
  class Walk extends Base {
    /** cosmiconfig's global strategy ends in env-paths' folder; the user config is read on its own (paths.ts). */
    override *getGlobalDirs(startDir: string): Iterable<Dir> {
      for (const dir of super.getGlobalDirs(startDir)) if (!dir.isGlobalConfig) yield dir;
    }
    /**
     * The places that are regular files in the folder, in cosmiconfig's order: one listing of a
     * small folder rather than a failed open per name, one look per name in a large one (a listing
     * of /tmp with 14,000 entries took 15 ms of every start), and a FIFO planted as `.jobsrc.yaml`
     * is passed over (reading it would wait forever).
     */
    override getSearchPlacesForDir(dir: Dir, globalPlaces: string[]): string[] {
      const places = super.getSearchPlacesForDir(dir, globalPlaces);
      let names: Set<string> | undefined;
      try {
        if (statSync(dir.path).size <= LISTED_FOLDER_BYTES) names = new Set(readdirSync(dir.path));
      } catch {
        return [];
      }
      return places.filter((path) => (names === undefined || names.has(basename(path))) && isRegularFile(path));
    }
  }
  return new Walk({
    moduleName: 'jobs',
    searchPlaces: [...places],
    ignoreEmptySearchPlaces: true,
    ...(upTo === undefined ? { searchStrategy: 'none' } : { searchStrategy: 'global', stopDir: upTo }),
    cache: false,
    transform: (result) => result,
    loaders,
    metaConfigFilePath: null,
    mergeImportArrays: true,
    mergeSearchPlaces: false,
  });
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

/** The value a loader boxed, from cosmiconfig's result; undefined for no file or an empty one. */
export function loadedValue(result: CosmiconfigResult): unknown {
  return result?.config instanceof Loaded ? result.config.value : undefined;
}
