/**
 * `.jobs/`, the tool's own folder in a project (the default report, the editors' resolved schema):
 * made when missing, refused when a link or anything but a folder stands in its place (a checkout
 * can plant `.jobs -> elsewhere`, and the tool writes its own files only where it put them), and
 * ignoring itself in git, as a cache folder does: nothing in it belongs in the repository. Nor may
 * it break the project's own checks: Prettier reads ignore files only where it runs (`.gitignore`,
 * `.prettierignore`), not in sub-folders, but takes its settings from the nearest config file, so
 * `.jobs/.prettierrc.yaml` tells it to format nothing here (`prettier --check .` passes). ESLint 9
 * reads no ignore file; it lints JavaScript and TypeScript, which the tool never writes here.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { NotOwnFileError } from './errors.js';
import { kindOf, ensureFolder } from './open.js';
import { createFile } from './replace.js';

export const TOOL_FOLDER = '.jobs';

const GITIGNORE = '# written by jobs: nothing here belongs in the repository\n*\n';
// An empty range to format: Prettier leaves every file as it is (it has no setting to ignore a folder).
const PRETTIERRC = '# written by jobs: Prettier leaves the files in this folder as they are (it formats an empty range)\nrangeEnd: 0\n';

/** The files that keep the folder out of the project's way, each written once (a user's edit stays). */
const OWN_FILES: Record<string, string> = { '.gitignore': GITIGNORE, '.prettierrc.yaml': PRETTIERRC };

/** Makes `dir` (a `.jobs` folder) ready for the tool's files; throws NotOwnFileError for a link or file there. */
export function prepareToolFolder(dir: string): void {
  const info = lstatSync(dir, { throwIfNoEntry: false });
  if (info && !info.isDirectory()) throw new NotOwnFileError(dir, kindOf(info) ?? 'a file');
  ensureFolder(dir);
  for (const [name, text] of Object.entries(OWN_FILES)) {
    try {
      createFile(join(dir, name), text, { mode: 0o644 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
