/**
 * A folder the tool fills with files for the user (a careers site, JSON-LD, previews), which it
 * must share with the user's own files: a manifest (`.jobs-manifest.json`) lists what the tool
 * wrote there, and only those files are ever replaced or removed. A file of the same name that the
 * tool did not write is left alone (the run stops before writing anything, unless `force`); a link,
 * FIFO or folder in the place of a file, or a link in the place of the folder, is refused, never
 * followed. Each file is written by the one atomic replace. Nor may the files break the project's
 * own `prettier --check .`: the folder gets the tool folder's formatter guard (tool-folder.ts),
 * listed in the manifest when the tool wrote it, and never removed as stale.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotOwnFileError } from './errors.js';
import { ensureFolder, kindOf } from './open.js';
import { removeOwnFile, replaceFile } from './replace.js';
import { withLock } from './lock.js';
import { FORMATTER_GUARD, guardOutputFolder } from './tool-folder.js';

export const MANIFEST = '.jobs-manifest.json';

/**
 * The names the tool writes and so may remove again: one plain file in the folder, no path, and
 * only the kinds it writes (pages, JSON-LD, the sitemap): a manifest edited by hand (or by a pull
 * request) cannot make it remove a user's README or config.
 */
const OWN_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}\.(html|jsonld|xml)$/;

export interface OutputFolderWrite {
  /** Name -> content, each a plain file name (OWN_NAME). */
  files: ReadonlyMap<string, string>;
  /** Remove the files an earlier run wrote that this one does not (a closed advert's page). */
  removeStale: boolean;
  /**
   * With removeStale: the extensions (`.jsonld`) of the files this kind of run writes, and so the
   * only ones it removes; two kinds of export sharing a folder (a site and its JSON-LD) then never
   * remove each other's files. Default: every kind the tool writes.
   */
  staleExtensions?: readonly string[];
  /** Overwrite files of these names that the tool did not write. */
  force?: boolean;
}

export interface OutputFolderResult {
  written: string[];
  removed: string[];
}

/** A name the tool wrote that is in its way: it was not written by the tool (or is not a plain file). */
export class NotOwnOutputError extends Error {
  constructor(
    readonly folder: string,
    readonly names: readonly string[],
    readonly kind: 'user file' | 'not a file',
  ) {
    super(`${folder}: ${names.join(', ')}`);
  }
}

export function isOwnName(name: string): boolean {
  return OWN_NAME.test(name) && name !== MANIFEST && !name.endsWith('.tmp');
}

/** The names an earlier run recorded (a damaged or hostile manifest names nothing it may not). */
function readManifest(dir: string): Set<string> {
  const path = join(dir, MANIFEST);
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info) return new Set();
  if (!info.isFile()) throw new NotOwnFileError(path, kindOf(info) ?? 'not a file');
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { files?: unknown };
    return new Set(Array.isArray(data.files) ? data.files.filter((n): n is string => typeof n === 'string' && (isOwnName(n) || n === FORMATTER_GUARD)) : []);
  } catch {
    return new Set();
  }
}

/** Writes the files, under the folder's lock (two exports into one folder at once take turns). */
export async function writeOutputFolder(dir: string, write: OutputFolderWrite): Promise<OutputFolderResult> {
  const info = lstatSync(dir, { throwIfNoEntry: false });
  if (info && !info.isDirectory()) throw new NotOwnFileError(dir, kindOf(info) ?? 'a file');
  for (const name of write.files.keys()) if (!isOwnName(name)) throw new Error(`not a file name the tool writes: ${JSON.stringify(name)}`);
  ensureFolder(dir);
  return withLock(join(dir, MANIFEST), () => writeLocked(dir, write), { what: `the folder ${dir}` });
}

function writeLocked(dir: string, write: OutputFolderWrite): OutputFolderResult {
  const before = readManifest(dir);
  // Everything in the way is found before anything is written.
  const users: string[] = [];
  const odd: string[] = [];
  for (const name of write.files.keys()) {
    const there = lstatSync(join(dir, name), { throwIfNoEntry: false });
    if (!there) continue;
    if (!there.isFile()) odd.push(`${name} (${kindOf(there) ?? 'not a file'})`);
    else if (!before.has(name) && !write.force) users.push(name);
  }
  if (odd.length > 0) throw new NotOwnOutputError(dir, odd, 'not a file');
  if (users.length > 0) throw new NotOwnOutputError(dir, users, 'user file');
  // The manifest first: a run stopped part way (a full disk, a kill) still knows every file it may
  // have written, so the next run replaces them rather than taking them for the user's.
  const manifest = (files: Iterable<string>) =>
    replaceFile(join(dir, MANIFEST), `${JSON.stringify({ version: 1, written_by: 'jobs', files: [...new Set(files)].sort() }, null, 1)}\n`, {
      durable: false,
      mode: 0o644,
    });
  manifest([...before, ...write.files.keys()]);
  const written: string[] = [];
  for (const [name, content] of write.files) {
    replaceFile(join(dir, name), content, { durable: false, mode: 0o644 });
    written.push(name);
  }
  // The formatter's guard (tool-folder.ts): listed only when the tool wrote it, and never a stale file.
  const guard = guardOutputFolder(dir) ? [FORMATTER_GUARD] : [];
  if (guard.length > 0) manifest([...before, ...write.files.keys(), ...guard]);
  const stale = (name: string) =>
    write.removeStale && name !== FORMATTER_GUARD && !write.files.has(name) && (write.staleExtensions ?? ['']).some((extension) => name.endsWith(extension));
  const removed: string[] = [];
  if (write.removeStale) {
    for (const name of [...before].sort()) {
      if (!stale(name)) continue;
      const there = lstatSync(join(dir, name), { throwIfNoEntry: false });
      // A link in its place is removed as a link (never followed); a folder there is not the tool's.
      if (there && !there.isDirectory()) removeOwnFile(join(dir, name));
      if (there && !there.isDirectory()) removed.push(name);
    }
    manifest([...before].filter((name) => !stale(name)).concat([...write.files.keys(), ...guard]));
  }
  return { written, removed };
}
