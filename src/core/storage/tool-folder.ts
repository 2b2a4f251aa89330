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
import { lstatSync, readdirSync } from 'node:fs';
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

/** The name of the file that keeps a folder's files out of the project's formatter. */
export const FORMATTER_GUARD = '.prettierrc.yaml';

/**
 * An output folder shared with the user's files (exports, previews) leaves out only the kinds the
 * tool writes there; a user's other files in it are formatted with Prettier's defaults (the nearest
 * config wins, and Prettier merges none).
 */
const OUTPUT_GUARD =
  '# written by jobs: Prettier leaves the files jobs writes here as they are (it formats an empty range)\n' +
  'overrides:\n  - files: ["*.html", "*.jsonld", "*.xml", ".jobs-manifest.json"]\n    options:\n      rangeEnd: 0\n';

/** A Prettier config of the folder's own (or a package, whose package.json may hold one): it rules there. */
const PRETTIER_CONFIG = /^(\.prettierrc(\..+)?|prettier\.config\..+|package\.json)$/;

/**
 * Writes the output folder `dir`'s formatter guard when it is missing and the folder has no Prettier
 * config of its own; true when it wrote it (the caller lists it as the tool's). A user's edit stays.
 */
export function guardOutputFolder(dir: string): boolean {
  if (readdirSync(dir).some((name) => PRETTIER_CONFIG.test(name))) return false;
  try {
    createFile(join(dir, FORMATTER_GUARD), OUTPUT_GUARD, { mode: 0o644 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}
