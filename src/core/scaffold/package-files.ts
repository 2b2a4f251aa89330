/**
 * Where the running `jobs` package lives on disk, and the JSON Schemas it ships. Found by walking up
 * from this module to the package.json named `jobs-cli`, so it works the same from the TypeScript
 * sources (tests), the bundle in dist/ (any chunk depth) and a global or project install.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors/failures.js';

export const PACKAGE_NAME = 'jobs-cli';

/** The schemas `jobs schema` prints, by the name users type. */
export const SCHEMA_FILES = {
  create: 'advert.schema.json',
  update: 'advert-update.schema.json',
  event: 'event.schema.json',
  config: 'config.schema.json',
} as const;

export type SchemaName = keyof typeof SCHEMA_FILES;

let cachedRoot: string | undefined;

/** The folder holding the package.json of `jobs-cli` that this code was loaded from. */
export function packageRoot(): string {
  return (cachedRoot ??= findPackageRoot(fileURLToPath(import.meta.url)));
}

/** Walks up from `from` to the nearest folder whose package.json is named `jobs-cli`. */
export function findPackageRoot(from: string): string {
  let dir = dirname(from);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && readName(manifest) === PACKAGE_NAME) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new UsageError(`cannot find the ${PACKAGE_NAME} package folder above ${from}; reinstall jobs`);
    dir = parent;
  }
}

function readName(manifest: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}

/** Absolute path of a shipped schema file. */
export function schemaPath(name: SchemaName): string {
  return join(packageRoot(), 'schemas', SCHEMA_FILES[name]);
}

/** The schema's text as shipped (byte for byte: editors and other tools may cache it by content). */
export function readSchemaText(name: SchemaName): string {
  const path = schemaPath(name);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the ${name} schema at ${path}: ${(error as Error).message}; reinstall jobs`);
  }
}
