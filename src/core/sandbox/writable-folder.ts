/**
 * The embedded sandbox keeps its adverts in a data file (and its journal and lock) in the user's
 * state folder. When that folder cannot be written (a read-only file system, a file where a folder
 * should be, no permission), every request would answer 500 and the client would retry for
 * seconds before giving up with a "service error". Checked once at start instead, without writing
 * anything: the nearest folder that exists on the way to the data file must be writable.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../errors/failures.js';
import { whyUnwritable } from '../storage/errors.js';

/** Throws a ConfigError (exit 2) naming the data file and the cause when its folder cannot be written. */
export function checkWritableDataFolder(
  dataFile: string,
  hint = 'Set XDG_STATE_HOME to a folder you can write (the data file is $XDG_STATE_HOME/jobs/sandbox.json), or make that folder writable.',
): void {
  try {
    // The data file itself, when it exists, is replaced (renamed over), never written in place.
    let dir = dirname(dataFile);
    for (;;) {
      let isDir: boolean;
      try {
        isDir = statSync(dir).isDirectory();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const parent = dirname(dir);
        if (code === 'ENOENT' && parent !== dir) {
          dir = parent;
          continue;
        }
        throw error;
      }
      if (!isDir) throw Object.assign(new Error(`${dir} is not a folder`), { code: 'ENOTDIR' });
      accessSync(dir, constants.W_OK | constants.X_OK);
      return;
    }
  } catch (error) {
    throw new ConfigError(`the sandbox cannot write its data file ${dataFile}: ${whyUnwritable(error)}`, { cause: error, details: [hint] });
  }
}
