/**
 * Finds advert files (files, folders searched recursively, `-` for stdin) and reads them as text,
 * refusing what is not a small UTF-8 text file with a clear LoadProblem.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, stat } from '../util/quick-fs.js';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { UsageError } from '../errors/failures.js';
import type { LoadProblem } from './types.js';

export const ADVERT_EXTENSIONS = ['.yaml', '.yml', '.json'];
export const STDIN_NAME = '<stdin>';
/** Larger files are refused: an advert is a few kilobytes. */
export const MAX_FILE_BYTES = 1024 * 1024;

export interface FoundFile {
  /** As shown to the user: relative to cwd when inside it. */
  display: string;
  /** Absolute path; undefined for stdin. */
  path?: string;
}

const SKIPPED_DIRS = new Set(['node_modules', '.git']);

function isAdvertFile(name: string): boolean {
  const lower = name.toLowerCase();
  return ADVERT_EXTENSIONS.some((ext) => lower.endsWith(ext)) && !name.startsWith('.');
}

/**
 * Expands the arguments into files, sorted within each folder; a path that does not exist is a
 * usage error. The paths in `exclude` are left out.
 */
export async function findAdvertFiles(args: readonly string[], cwd: string, exclude?: ReadonlySet<string>): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  const seen = new Set<string>();
  const add = (abs: string) => {
    if (seen.has(abs) || exclude?.has(abs)) return;
    seen.add(abs);
    const rel = relative(cwd, abs);
    out.push({ display: rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs, path: abs });
  };
  for (const arg of args) {
    if (arg === '-') {
      out.push({ display: STDIN_NAME });
      continue;
    }
    const abs = resolve(cwd, arg);
    const info = await stat(abs).catch(() => undefined);
    if (!info) throw new UsageError(`${arg}: no such file or folder`);
    if (info.isDirectory()) {
      const before = out.length;
      await walk(abs, add);
      if (out.length === before) throw new UsageError(`${arg}: no advert files (${ADVERT_EXTENSIONS.join(', ')}) in this folder`);
    } else add(abs);
  }
  return out;
}

async function walk(dir: string, add: (abs: string) => void): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) await walk(abs, add);
    } else if (entry.isFile() && isAdvertFile(entry.name)) add(abs);
  }
}

function tooLarge(file: string, size: number): { problem: LoadProblem } {
  return { problem: { file, message: `the file is ${size} bytes; the limit is ${MAX_FILE_BYTES} (1 MiB) per file`, code: 'too_large' } };
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Checks and decodes a file's bytes; returns the text or the problem. */
export function decodeAdvertBytes(file: string, bytes: Uint8Array): { text: string } | { problem: LoadProblem } {
  if (bytes.length > MAX_FILE_BYTES) return tooLarge(file, bytes.length);
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { problem: { file, message: 'this looks like a binary file (it holds a NUL byte), not YAML or JSON text', code: 'binary' } };
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { problem: { file, message: 'the file is not valid UTF-8 text; save it as UTF-8', code: 'encoding' } };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text };
}

export async function readAdvertFile(found: FoundFile, stdin: () => AsyncIterable<Buffer | string>): Promise<{ text: string } | { problem: LoadProblem }> {
  if (!found.path) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin()) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      chunks.push(buf);
      if (size > MAX_FILE_BYTES) return tooLarge(found.display, size);
    }
    return decodeAdvertBytes(found.display, Buffer.concat(chunks));
  }
  try {
    return readSmallFile(found.display, found.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : code === 'ENOENT' ? 'it no longer exists' : (error as Error).message;
    return { problem: { file: found.display, message: `cannot read the file: ${why}`, code: 'unreadable' } };
  }
}

/**
 * Reads a file synchronously with the size checked on the open descriptor: for thousands of small
 * files this is several times faster than promise-based reads, and a huge file is never read.
 */
function readSmallFile(display: string, path: string): { text: string } | { problem: LoadProblem } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_FILE_BYTES) return tooLarge(display, size);
    const buffer = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, null);
      if (n === 0) break;
      read += n;
    }
    return decodeAdvertBytes(display, buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
}
