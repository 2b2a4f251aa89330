/**
 * `.jobs/`, the tool's own folder in a project (the default report, the editors' resolved schema):
 * made when missing, refused when a link or anything but a folder stands in its place (a checkout
 * can plant `.jobs -> elsewhere`, and the tool writes its own files only where it put them), and
 * ignoring itself in git, as a cache folder does: nothing in it belongs in the repository.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { NotOwnFileError } from './errors.js';
import { kindOf, ensureFolder } from './open.js';
import { createFile } from './replace.js';

export const TOOL_FOLDER = '.jobs';

const GITIGNORE = '# written by jobs: nothing here belongs in the repository\n*\n';

/** Makes `dir` (a `.jobs` folder) ready for the tool's files; throws NotOwnFileError for a link or file there. */
export function prepareToolFolder(dir: string): void {
  const info = lstatSync(dir, { throwIfNoEntry: false });
  if (info && !info.isDirectory()) throw new NotOwnFileError(dir, kindOf(info) ?? 'a file');
  ensureFolder(dir);
  try {
    createFile(join(dir, '.gitignore'), GITIGNORE, { mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
