/** Loading adverts from a script: the CLI's loader with the options a script rarely needs defaulted. */
import { loadAdverts as loadFromPaths, type LoadedAdverts } from './load.js';

export interface LoadAdvertsOptions {
  /** Where relative paths start; default process.cwd(). */
  cwd?: string;
  /** What `-` reads; default process.stdin (opened only when a path is `-`). */
  stdin?: AsyncIterable<Buffer | string>;
  /** Report two adverts sharing a reference (default true; false for partial update files). */
  uniqueReferences?: boolean;
}

/**
 * Reads advert files, folders (recursively: .yaml, .yml, .json, .md; symlinks followed, each real folder
 * and file once) or `-` (stdin), with the position of every value. Problems (files or folders that
 * cannot be read, dangling symlinks, YAML errors, a reference used twice) are returned in `problems`,
 * not thrown, so every bad file is reported at once. A path that does not exist, or is a FIFO or a
 * device, is thrown as a UsageError without being opened.
 */
export function loadAdverts(paths: readonly string[], options: LoadAdvertsOptions = {}): Promise<LoadedAdverts> {
  return loadFromPaths(paths, {
    cwd: options.cwd ?? process.cwd(),
    stdin: () => options.stdin ?? process.stdin,
    uniqueReferences: options.uniqueReferences !== false,
  });
}
