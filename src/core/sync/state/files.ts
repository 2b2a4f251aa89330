/**
 * The files a state brings with it: the state (default name), its log and its lock beside it, and
 * how they are read.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from '../../errors/failures.js';
import { reasonInWords } from '../../storage/errors.js';

/**
 * The state's name in the synced folder. No extension: users commit it, and a project's own
 * formatter (Prettier, Biome, an editor's format-on-save) would otherwise format it as JSON, so
 * `prettier --check .` failed on the tool's one-advert-a-line layout.
 */
export const DEFAULT_STATE_FILE = '.jobs-state';

/** The name the state had before: a folder that has it (and no `.jobs-state`) keeps it. */
export const EARLIER_STATE_FILE = '.jobs-state.json';

/**
 * The state of the folder `dir` (as the user gave it; relative to `cwd`) when none is named:
 * `<dir>/.jobs-state`, or `<dir>/.jobs-state.json` where only that one is there, and then a line
 * that says how to move it, and why.
 */
export function defaultStateOf(dir: string, cwd: string): { path: string; moveHint?: string } {
  const path = join(dir, DEFAULT_STATE_FILE);
  const earlier = join(dir, EARLIER_STATE_FILE);
  if (existsSync(resolve(cwd, path)) || !existsSync(resolve(cwd, earlier))) return { path };
  return {
    path: earlier,
    moveHint: `note: ${earlier} is the sync state's earlier name, which a project's formatter (prettier --check .) takes for JSON and fails on; after a run that finished, rename it: git mv ${earlier} ${path}`,
  };
}

/** What an error about a state or log that cannot be read tells the user to do. */
export const FIX = 'restore it from version control or move it away (a sync without state adopts existing adverts safely)';

export const logPathOf = (statePath: string) => `${statePath}.log`;

/**
 * The files a state brings with it (the state, its log, its lock), as the folder walk names them:
 * a state kept inside the synced folder is not read as an advert, whatever its name.
 */
export function stateFiles(path: string): Set<string> {
  const names = [path, logPathOf(path), `${path}.lock`];
  const files = new Set(names);
  try {
    const dir = realpathSync(dirname(path));
    for (const name of names) files.add(join(dir, basename(name)));
  } catch {
    // The state's folder does not exist yet: nothing in it can be walked.
  }
  // A state that is itself a link is met under its target's name too (a linked folder leads there).
  for (const name of names) {
    try {
      files.add(realpathSync(name));
    } catch {
      // Not there (yet): nothing to leave out.
    }
  }
  return files;
}

/** A file system call's reason in a word: `ENOSPC`, `EISDIR`, ... */
export function reasonOf(error: unknown): string {
  return reasonInWords(error);
}

/** The file's bytes, or undefined when there is none; anything but a regular file is refused (a FIFO or a device would hang the read). */
export function readIfExists(path: string, what: string): Buffer | undefined {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return undefined;
    if (!info.isFile())
      throw new ConfigError(`the ${what} ${path} is not a regular file; nothing was sent`, {
        details: ['move it away, or choose another place for the state with --state <file>'],
      });
    return readFileSync(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read the ${what} ${path} (${reasonOf(error)}); nothing was sent`);
  }
}
