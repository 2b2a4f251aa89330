/**
 * The `$schema=` a new file points at, so YAML-language-server editors (VS Code's YAML extension,
 * Neovim's yamlls, ...) complete and check it. Always the schema shipped in the package, never a
 * URL: it matches the installed version, and works offline.
 *
 * 1. A project that installs jobs (`npm install -D jobs-cli`): the relative path to
 *    `node_modules/jobs-cli/schemas/...`, found from the file's folder upwards. It is the same on
 *    every clone after `npm install`, so the file can be committed as it is.
 * 2. A file inside the jobs package itself (a clone of this repository): the relative path to its
 *    `schemas/` folder, as in `examples/`.
 * 3. Otherwise (a global install): the absolute path of the package's `schemas/` folder. It works on
 *    this machine only; `jobs init` says so, and a project install turns it into case 1.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { PACKAGE_NAME, SCHEMA_FILES, packageRoot, type SchemaName } from './package-files.js';

/** `resolved`: the project's own schema, written by init from its config (see resolved-schema.ts). */
export type SchemaRefKind = 'project' | 'package' | 'absolute' | 'resolved';

export interface SchemaRef {
  /** What goes after `$schema=`. */
  reference: string;
  kind: SchemaRefKind;
}

export function schemaReference(targetDir: string, name: SchemaName, root: string = packageRoot()): SchemaRef {
  const file = SCHEMA_FILES[name];
  for (let dir = targetDir; ; dir = dirname(dir)) {
    const installed = join(dir, 'node_modules', PACKAGE_NAME, 'schemas', file);
    if (existsSync(installed)) return { reference: relativeRef(targetDir, installed), kind: 'project' };
    if (dirname(dir) === dir) break;
  }
  const shipped = join(root, 'schemas', file);
  const fromRoot = relative(root, targetDir);
  const insidePackage = fromRoot === '' || (!fromRoot.startsWith('..') && !isAbsolute(fromRoot));
  if (insidePackage) return { reference: relativeRef(targetDir, shipped), kind: 'package' };
  return { reference: shipped.split(sep).join('/'), kind: 'absolute' };
}

/** Forward slashes on every platform: the modeline is a path the editor resolves from the file. */
export function relativeRef(fromDir: string, to: string): string {
  return relative(fromDir, to).split(sep).join('/');
}
