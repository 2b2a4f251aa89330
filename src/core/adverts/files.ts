/**
 * Finds advert files (files, folders searched recursively, `-` for stdin) and reads them as text,
 * refusing what is not a small UTF-8 text file with a clear LoadProblem.
 *
 * Symlinks are followed, to files and to folders. Each real folder and each real file is visited
 * once, so a link to a folder already walked (an ancestor: a loop; or a sibling) adds nothing and
 * cannot loop. What cannot be read (a dangling symlink, a folder without permission, a FIFO or
 * device named like an advert) is a problem with its path, never skipped in silence: a sync must
 * not take an advert it could not read for one that is gone.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, lstatSync, openSync, opendirSync, readSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join, relative, resolve, isAbsolute, sep } from 'node:path';
import { UsageError } from '../errors/failures.js';
import { keepHeapNearLive } from '../util/heap.js';
import { sanitize } from '../util/sanitize.js';
import { STDIN_NAME } from '../util/stdin-name.js';
import { notRegularKind, NotRegularFileError, whyUnreadable } from '../util/quick-fs.js';
import type { LoadProblem } from './types.js';

export const ADVERT_EXTENSIONS = ['.yaml', '.yml', '.json', '.md'];
/**
 * Larger files are refused. An advert is a few kilobytes, but a file may hold many documents
 * (`---`): a file over 1 MiB is read a group of documents at a time (see load.ts), so 64 MiB
 * (some 25,000 adverts) costs no more memory than a few small files.
 */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

export interface FoundFile {
  /** As shown to the user: relative to cwd when inside it. */
  readonly display: string;
  /** Absolute path; undefined for stdin. */
  readonly path?: string;
}

/** A folder as walked: its path and its name as shown, each with a trailing separator ('' shown for cwd). */
interface Folder {
  path: string;
  display: string;
}

/**
 * A file found by walking a folder: its name and a shared folder, the strings made when asked for.
 * A walk of a million files keeps a million names, not two million paths.
 */
class FileInFolder implements FoundFile {
  constructor(
    private readonly folder: Folder,
    private readonly name: string,
  ) {}
  get display(): string {
    return this.folder.display + this.name;
  }
  get path(): string {
    return this.folder.path + this.name;
  }
  toJSON(): { display: string; path: string } {
    return { display: this.display, path: this.path };
  }
}

export interface FoundFiles {
  files: FoundFile[];
  /** Files and folders in the walked folders that could not be read (their adverts are unknown). */
  problems: LoadProblem[];
}

/** Folders a walk never enters (besides every folder whose name starts with a dot: .git, .github, .jobs). */
const SKIPPED_DIRS = new Set(['node_modules', 'bower_components']);

/**
 * Files a folder walk passes over by name: the manifests, lock files and tool settings that sit in a
 * repository's root with an advert's extension, so `jobs validate .` there reads the adverts only.
 * A file named on the command line is always read.
 */
const NOT_ADVERTS = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'jsconfig.json',
  'composer.json',
  'bower.json',
  'lerna.json',
  'nx.json',
  'turbo.json',
  'deno.json',
  'renovate.json',
  'vercel.json',
  'app.json',
  'manifest.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'docker-compose.yml',
  'docker-compose.yaml',
  'compose.yml',
  'compose.yaml',
  'mkdocs.yml',
  'mkdocs.yaml',
  'action.yml',
  'action.yaml',
  'codecov.yml',
  'codecov.yaml',
  'netlify.yml',
  'serverless.yml',
  'serverless.yaml',
  'openapi.yaml',
  'openapi.yml',
  'openapi.json',
  'swagger.yaml',
  'swagger.json',
]);

/** tsconfig.json, tsconfig.build.json, ...: TypeScript's settings. */
const NOT_ADVERT_PATTERN = /^(tsconfig|jsconfig)(\..+)?\.json$/;

/**
 * A folder of adverts commonly holds a README.md (and a repository its other documents): a walk
 * passes over these names (README.de.md too). Any other .md in a walked folder is read as an advert,
 * and one without front matter is an error, not skipped: a sync must not take an advert whose
 * front matter was lost for one that is gone (docs/adverts.md).
 */
const NOT_ADVERT_MARKDOWN =
  /^(readme|changelog|contributing|license|licence|code_of_conduct|security|support|authors|notice|history|governance|maintainers|codeowners|pull_request_template|issue_template)(\..+)?\.md$/;

/** Whether a folder walk takes a file of this name: an advert's extension, not hidden, not a well-known non-advert. */
export function isAdvertFile(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    ADVERT_EXTENSIONS.some((ext) => lower.endsWith(ext)) &&
    !name.startsWith('.') &&
    !NOT_ADVERTS.has(lower) &&
    !(lower.endsWith('.json') && NOT_ADVERT_PATTERN.test(lower)) &&
    !(lower.endsWith('.md') && NOT_ADVERT_MARKDOWN.test(lower))
  );
}

/**
 * Expands the arguments into files, sorted within each folder. A path that does not exist or is
 * not a file, a folder or `-` is a usage error; what cannot be read inside a folder is a problem.
 * The paths in `exclude` (absolute, or real) are left out.
 */
export async function findAdvertFiles(args: readonly string[], cwd: string, exclude?: ReadonlySet<string>): Promise<FoundFiles> {
  const walk = new AdvertFileWalk(args, cwd, exclude);
  const files = [...walk];
  return { files, problems: walk.problems };
}

/**
 * The files findAdvertFiles lists, in the same order, found one at a time as they are asked for:
 * a run that checks each file as it comes holds the files in flight, not a million names. Usage
 * errors are thrown when the walk reaches their argument. Each iteration walks anew (so a file can
 * be found again by its number); the problems are those of the first.
 */
export class AdvertFileWalk implements Iterable<FoundFile> {
  /** Files and folders that could not be read, as the first walk has met them so far. */
  readonly problems: LoadProblem[] = [];
  private walks = 0;

  constructor(
    private readonly args: readonly string[],
    private readonly cwd: string,
    private readonly exclude?: ReadonlySet<string>,
  ) {}

  [Symbol.iterator](): Iterator<FoundFile> {
    return walkArguments(this.args, this.cwd, this.exclude, this.walks++ === 0 ? this.problems : []);
  }
}

function* walkArguments(args: readonly string[], cwd: string, exclude: ReadonlySet<string> | undefined, problems: LoadProblem[]): Generator<FoundFile> {
  const inside = cwd.endsWith(sep) ? cwd : cwd + sep;
  const shown = (abs: string) => {
    // Most paths are below cwd: cut the prefix rather than ask path.relative (a walk asks for every file).
    if (abs.startsWith(inside) && !abs.includes(`${sep}..${sep}`) && !abs.includes(`${sep}.${sep}`)) return abs.slice(inside.length);
    const rel = relative(cwd, abs);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
  };
  // A file reached twice (through a link, or named and in a folder) is read once, under the name
  // that comes first. Files a walk meets as themselves are not listed here, only looked up: what a
  // walk has passed is known from the folder (walked, or being walked and past that name).
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  const walking = new Map<string, string>();
  const passed = (real: string) => {
    const cut = real.lastIndexOf(sep);
    const dir = real.slice(0, Math.max(cut, 1));
    const name = real.slice(cut + 1);
    if (!seenDirs.has(dir) || !isAdvertFile(name)) return false;
    const at = walking.get(dir);
    return at === undefined || name < at;
  };
  const walker: Walker = {
    problem: (abs, message, code, real) => {
      if (exclude?.has(abs) || (real !== undefined && exclude?.has(real))) return;
      problems.push({ file: shown(abs), message, code });
    },
    add(abs, real) {
      if (seenFiles.has(real) || passed(real) || exclude?.has(abs) || exclude?.has(real)) return undefined;
      seenFiles.add(real);
      return { display: shown(abs), path: abs };
    },
    addInFolder(folder, name, real) {
      if (seenFiles.has(real) || exclude?.has(folder.path + name) || exclude?.has(real)) return undefined;
      return new FileInFolder(folder, name);
    },
    enter(real) {
      if (seenDirs.has(real)) return false;
      seenDirs.add(real);
      return true;
    },
    at: (realDir, name) => (name === undefined ? walking.delete(realDir) : walking.set(realDir, name)),
    shown,
  };
  for (const arg of args) {
    if (arg === '-') {
      yield { display: STDIN_NAME };
      continue;
    }
    const abs = resolve(cwd, arg);
    let info: Stats;
    try {
      info = statSync(abs);
    } catch (error) {
      throw new UsageError(`${sanitize(arg)}: ${argumentError(abs, error)}`);
    }
    if (info.isDirectory()) {
      const before = problems.length;
      let any = false;
      const real = realPath(abs);
      if (walker.enter(real)) {
        for (const file of walk(abs, real, walker)) {
          any = true;
          yield file;
        }
      }
      if (!any && problems.length === before) throw new UsageError(`${sanitize(arg)}: no advert files (${ADVERT_EXTENSIONS.join(', ')}) in this folder`);
    } else if (info.isFile()) {
      const file = walker.add(abs, realPath(abs));
      if (file) yield file;
    } else throw new UsageError(`${sanitize(arg)} is ${notRegularKind(info)}, not a file: give advert files, folders, or - for stdin`);
  }
}

function argumentError(abs: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const link = code === 'ENOENT' ? danglingTarget(abs) : undefined;
  if (link !== undefined) return `a symlink to ${link}, which does not exist`;
  return code === 'ENOENT' ? 'no such file or folder' : `cannot read it: ${whyUnreadable(error)}`;
}

/** The target of a symlink that points nowhere; undefined when `abs` is no symlink. */
function danglingTarget(abs: string): string | undefined {
  try {
    return lstatSync(abs).isSymbolicLink() ? readlinkSync(abs) : undefined;
  } catch {
    return undefined;
  }
}

function realPath(abs: string): string {
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

interface Walker {
  /** `real` when known: a path left out (the sync state) is no problem either. */
  problem(abs: string, message: string, code: string, real?: string): void;
  /** The file to check, unless it is left out or already found. */
  add(abs: string, real: string): FoundFile | undefined;
  /** A file the walk meets as itself (no link), `real` its real path. */
  addInFolder(folder: Folder, name: string, real: string): FoundFile | undefined;
  /** The walk of `realDir` is at `name`; undefined: done. */
  at(realDir: string, name: string | undefined): void;
  shown(abs: string): string;
  /** False when the real folder was already walked. */
  enter(real: string): boolean;
}

type EntryInfo = Pick<Stats, 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>;

/** An entry's kind as one small number, and back: a folder's listing kept as names and bytes, not objects. */
const KIND_TESTS = ['isFile', 'isDirectory', 'isSymbolicLink', 'isFIFO', 'isSocket', 'isCharacterDevice', 'isBlockDevice'] as const;
const KINDS: EntryInfo[] = [...KIND_TESTS, 'other'].map(
  (kind) => Object.fromEntries(KIND_TESTS.map((test) => [test, () => test === kind])) as unknown as EntryInfo,
);
const kindOf = (entry: EntryInfo) => {
  const kind = KIND_TESTS.findIndex((test) => entry[test]());
  return kind < 0 ? KIND_TESTS.length : kind;
};

/** A folder's entries in name order, held compactly while the folder is walked. */
interface Listing {
  count: number;
  name(i: number): string;
  kind(i: number): number;
}

/**
 * Lists a folder, sorted by name. The names are kept joined in one string with their offsets, not
 * as a string each: a folder of a million adverts stays listed for the whole walk, and a million
 * small strings (with the array holding them) cost the heap some 50 MB where this costs about 24.
 */
/** Entries from which a folder counts as large for the heap (keepHeapNearLive). */
const LARGE_FOLDER = 10_000;

function listFolder(dir: string): Listing {
  const names: string[] = [];
  let kindList: Uint8Array = new Uint8Array(256);
  // Entries are read a few at a time (each becomes garbage at once), not all as objects together.
  const handle = opendirSync(dir, { bufferSize: 256 });
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (names.length === kindList.length) kindList = growBytes(kindList);
      // A file system that does not say (DT_UNKNOWN) is asked with lstat, as readdir does.
      const kind = kindOf(entry);
      kindList[names.length] = kind === KIND_TESTS.length ? kindOf(lstatSync(join(dir, entry.name))) : kind;
      names.push(entry.name);
      // A folder this large leaves the listing alive while a run gets under way (see heap.ts).
      if (names.length === LARGE_FOLDER) keepHeapNearLive();
    }
  } finally {
    handle.closeSync();
  }
  const count = names.length;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  const kinds = new Uint8Array(count);
  const starts = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) {
    kinds[i] = kindList[order[i]!]!;
    starts[i + 1] = starts[i]! + names[order[i]!]!.length;
  }
  // Into name order in place (no second array of a million), then one flat string: the names become garbage.
  permute(names, order);
  return joinedListing(names.join(''), starts, kinds);
}

function growBytes(bytes: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(bytes.length * 2);
  bigger.set(bytes);
  return bigger;
}

/** Puts list[order[i]] at i for every i, following cycles; `order` is used up. */
function permute(list: string[], order: Uint32Array): void {
  for (let start = 0; start < order.length; start++) {
    if (order[start] === start) continue;
    const first = list[start]!;
    let at = start;
    for (let from = order[at]!; from !== start; from = order[at]!) {
      list[at] = list[from]!;
      order[at] = at;
      at = from;
    }
    list[at] = first;
    order[at] = at;
  }
}

/** Apart from listFolder: closures made there would keep its every variable (the names) alive. */
function joinedListing(joined: string, starts: Uint32Array, kinds: Uint8Array): Listing {
  return { count: kinds.length, name: (i) => joined.slice(starts[i]!, starts[i + 1]!), kind: (i) => kinds[i]! };
}

/** Walks `dir`, whose real path is `realDir`: an entry that is no symlink is at realDir/name, no syscall needed. */
function* walk(dir: string, realDir: string, walker: Walker): Generator<FoundFile> {
  let listing;
  try {
    listing = listFolder(dir);
  } catch (error) {
    walker.problem(dir, `cannot read the folder: ${whyUnreadable(error)}; its adverts are unknown`, 'unreadable_folder');
    return;
  }
  const path = dir.endsWith(sep) ? dir : dir + sep;
  // How any file in this folder is shown, minus its name (a name cannot hold a NUL).
  const folder: Folder = { path, display: walker.shown(`${path}\0`).slice(0, -1) };
  for (let i = 0; i < listing.count; i++) {
    const name = listing.name(i);
    const entry = KINDS[listing.kind(i)]!;
    if (name.startsWith('.') || SKIPPED_DIRS.has(name)) continue;
    walker.at(realDir, name);
    // dir is absolute and normalised, and a name holds no separator: no need for path.join's normalising.
    const abs = path + name;
    let info: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'> = entry;
    // The same string as abs when no link led here (a million files keep one copy of each path).
    let real = realDir === dir ? abs : realDir.endsWith(sep) ? realDir + name : realDir + sep + name;
    if (entry.isSymbolicLink()) {
      try {
        info = statSync(abs);
        real = realpathSync(abs);
      } catch (error) {
        // A link of any name may have led to a folder of adverts.
        const target = danglingTarget(abs);
        const why =
          (error as NodeJS.ErrnoException).code === 'ENOENT' && target !== undefined ? `a symlink to ${target}, which does not exist` : whyUnreadable(error);
        walker.problem(abs, `cannot read it: ${why}`, 'unreadable');
        continue;
      }
    }
    if (info.isDirectory()) {
      if (walker.enter(real)) yield* walk(abs, real, walker);
    } else if (isAdvertFile(name)) {
      const kind = notRegularKind(info);
      if (kind) walker.problem(abs, `skipped: it is ${kind}, not a regular file`, 'not_a_file', real);
      else {
        const file = entry.isSymbolicLink() ? walker.add(abs, real) : walker.addInFolder(folder, name, real);
        if (file) yield file;
      }
    }
  }
  walker.at(realDir, undefined);
}

function tooLarge(file: string, size: number): { problem: LoadProblem } {
  return {
    problem: {
      file,
      message: `the file is ${size} bytes; the limit is ${MAX_FILE_BYTES} (64 MiB) per file: split its documents over several files`,
      code: 'too_large',
    },
  };
}

/** Checks and decodes a file's bytes; returns the text or the problem. */
export function decodeAdvertBytes(file: string, content: Uint8Array): { text: string } | { problem: LoadProblem } {
  if (content.length > MAX_FILE_BYTES) return tooLarge(file, content.length);
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content.buffer, content.byteOffset, content.length);
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { problem: { file, message: 'this looks like a binary file (it holds a NUL byte), not YAML, JSON or Markdown text', code: 'binary' } };
  // Checked, then decoded: several times quicker than a fatal TextDecoder, and plain ASCII (most adverts) quicker still.
  // Bytes that are not UTF-8 decode to U+FFFD, so the full check is needed only when one shows up.
  let text: string;
  if (isAscii(bytes)) text = bytes.toString('latin1');
  else if (!(text = bytes.toString('utf8')).includes('\ufffd') || isUtf8(bytes)) {
    // valid UTF-8 (a U+FFFD written in the file is text like any other)
  } else return { problem: { file, message: 'the file is not valid UTF-8 text; save it as UTF-8', code: 'encoding' } };
  // A byte order mark is no part of the text (a decoder drops one; a second one too, as before).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(text.charCodeAt(1) === 0xfeff ? 2 : 1);
  return { text };
}

export type FileText = { text: string; digest?: string } | { problem: LoadProblem };

export async function readAdvertFile(found: FoundFile, stdin: () => AsyncIterable<Buffer | string>): Promise<FileText> {
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
  return readAdvertFileSync(found.display, found.path);
}

/**
 * Reads a found file (not stdin): its text, or why it cannot be read. With `digestBytes`, the text
 * comes with that function's digest of the file's bytes (hashing them is quicker than the text).
 */
export function readAdvertFileSync(display: string, path: string, digestBytes?: (bytes: Uint8Array) => string): FileText {
  try {
    const read = readFoundFile(path);
    if ('tooLarge' in read) return tooLarge(display, read.tooLarge);
    const text = decodeAdvertBytes(display, read.bytes);
    return digestBytes && 'text' in text ? { text: text.text, digest: digestBytes(read.bytes) } : text;
  } catch (error) {
    return { problem: { file: display, message: `cannot read the file: ${whyUnreadable(error)}`, code: 'unreadable' } };
  }
}

// Opened non-blocking: should the file have been swapped for a FIFO since the walk, the open still returns.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
/** One buffer for every read of a file up to its size: the bytes are decoded (copied) before the next read. */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

/**
 * Reads a file the walk has seen to be a regular file (findAdvertFiles stats every path it returns),
 * so it is opened without a second stat; fstat on the open file still refuses anything else. The
 * bytes returned are valid until the next call.
 */
function readFoundFile(path: string): { bytes: Buffer } | { tooLarge: number } {
  const fd = openSync(path, READ_FLAGS);
  try {
    const info = fstatSync(fd);
    const kind = notRegularKind(info);
    if (kind) throw new NotRegularFileError(path, kind);
    if (info.size > MAX_FILE_BYTES) return { tooLarge: info.size };
    // A larger file gets a buffer of its own, dropped with it.
    const buffer = info.size <= readBuffer.length ? readBuffer : Buffer.allocUnsafe(info.size);
    let read = 0;
    for (let n = -1; n !== 0 && read < info.size; read += n) n = readSync(fd, buffer, read, info.size - read, null);
    return { bytes: buffer.subarray(0, read) };
  } finally {
    closeSync(fd);
  }
}
