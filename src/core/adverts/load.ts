/**
 * Files -> adverts: finds the files, reads them (a few at a time), parses every YAML document with
 * positions, and flags the same reference used twice. Problems are collected, not thrown, so a run
 * reports every bad file at once.
 */
import { findAdvertFiles, readAdvertFile, readAdvertFileSync, type FileText, type FoundFile } from './files.js';
import type { AdvertSource, LoadProblem, Position, ReadResult } from './types.js';
import { readAdvertYaml } from './read-yaml.js';
import { isMarkdownName, readAdvertText } from './markdown.js';
import { CancelledError } from '../errors/failures.js';
import { plural } from '../util/plural.js';
import { nextTurn } from '../util/next-turn.js';

export interface LoadedAdverts {
  files: number;
  adverts: AdvertSource[];
  problems: LoadProblem[];
}

export interface LoadOptions {
  cwd: string;
  /** Opened only when a path is `-`. */
  stdin: () => AsyncIterable<Buffer | string>;
  /** Check that no two adverts share a reference (off for partial update files). */
  uniqueReferences?: boolean;
  /** Absolute paths a folder walk leaves out (a sync state kept in the folder). */
  exclude?: ReadonlySet<string>;
  /** Stops the reading (Ctrl-C): loadAdverts then throws a CancelledError. */
  signal?: AbortSignal;
}

const READ_AHEAD = 32;

export async function loadAdverts(paths: readonly string[], options: LoadOptions): Promise<LoadedAdverts> {
  const { files: found, problems: walkProblems } = await findAdvertFiles(paths, options.cwd, options.exclude);
  const perFile: { adverts: AdvertSource[]; problems: LoadProblem[] }[] = new Array(found.length);
  let next = 0;
  const signal = options.signal;
  // Files read from disk settle at once: every 256 files all the readers wait for a turn of the
  // event loop, where a Ctrl-C is heard (one waiting alone would not make the others stop).
  let turn: Promise<void> | undefined;
  let loaded = 0;
  const worker = async () => {
    for (;;) {
      if (turn) await turn;
      if (next >= found.length || signal?.aborted) return;
      const i = next++;
      perFile[i] = await loadFile(found[i]!, options.stdin);
      if (signal && ++loaded % 256 === 0) turn = nextTurn().then(() => void (turn = undefined));
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_AHEAD, found.length) }, worker));
  if (signal?.aborted) throw new CancelledError(`stopped after reading ${plural(perFile.filter(Boolean).length, 'file')}; the rest were not read`);
  const adverts = perFile.flatMap((r) => r.adverts);
  // Concatenated, not push(...spread): a spread passes every item as an argument, and a few
  // hundred thousand of them overflow the stack.
  let problems = walkProblems.concat(perFile.flatMap((r) => r.problems));
  if (options.uniqueReferences !== false) problems = problems.concat(duplicateReferences(adverts));
  return { files: found.length, adverts, problems };
}

/** Reads one file's adverts (or its problems). */
export async function loadFile(found: FoundFile, stdin: () => AsyncIterable<Buffer | string>): Promise<{ adverts: AdvertSource[]; problems: LoadProblem[] }> {
  const adverts: AdvertSource[] = [];
  const problems: LoadProblem[] = [];
  for await (const part of readFileInParts(found, stdin)) {
    for (const a of part.adverts) adverts.push(a);
    for (const p of part.problems) problems.push(p);
  }
  return { adverts, problems };
}

/**
 * Reads one file's adverts a group of documents at a time, so a large multi-document file is never
 * held parsed as a whole: each part can be used and dropped before the next is read. `read`: the
 * file's text when it has been read already (see readFileAtOnce).
 */
export async function* readFileInParts(found: FoundFile, stdin: () => AsyncIterable<Buffer | string>, read?: FileText): AsyncGenerator<ReadResult> {
  read ??= await readAdvertFile(found, stdin);
  if ('problem' in read) {
    yield { adverts: [], problems: [read.problem] };
    return;
  }
  const text = read.text;
  // A Markdown advert is one advert: read whole.
  const parts = isMarkdownName(found.display) ? undefined : documentGroups(text);
  if (parts === undefined) {
    yield { ...(await readAdvertText(found.display, text, (file, yaml) => readAdvertYaml(file, yaml))), text, firstLine: 1 };
    return;
  }
  let index = 0;
  let line = 0;
  let any = false;
  for (const part of parts) {
    // A part is a megabyte of YAML: let the event loop turn between two (a Ctrl-C is heard there).
    if (index > 0) await nextTurn();
    const partText = text.slice(part.start, part.end);
    const result = await readAdvertYaml(found.display, partText);
    const { lines, documents } = part;
    const at = (p: Position): Position => ({ line: p.line + line, column: p.column });
    const shift = index;
    any ||= result.adverts.length > 0;
    yield {
      adverts: result.adverts.map((a) => ({ ...a, index: a.index + shift, locate: (path) => at(a.locate(path)) })),
      // "No advert in the file" is said once, for the whole file, below.
      problems: result.problems.filter((p) => p.code !== 'empty').map((p) => (p.position ? { ...p, position: at(p.position) } : p)),
      text: partText,
      firstLine: line + 1,
    };
    any ||= result.problems.some((p) => p.code !== 'empty');
    index += documents;
    line += lines;
  }
  if (!any)
    yield {
      adverts: [],
      problems: [{ file: found.display, position: { line: 1, column: 1 }, message: 'the file holds no advert (it is empty or only comments)', code: 'empty' }],
    };
}

/**
 * The common case without a promise on the way (a run of many files pays for each one): a small
 * file (not stdin) the fast reader takes, or one that cannot be read. Otherwise the text read, to
 * hand to readFileInParts.
 */
export function readFileAtOnce(
  display: string,
  path: string,
  digestBytes?: (bytes: Uint8Array) => string,
): { result: ReadResult | Promise<ReadResult>; digest?: string; text?: string } | { read: FileText } {
  const read = readAdvertFileSync(display, path, digestBytes);
  if ('problem' in read) return { result: { adverts: [], problems: [read.problem] } };
  if (read.text.length > PART_CHARS) return { read };
  // A Markdown advert's front matter goes to the same YAML entry point (markdown.ts).
  return {
    result: readAdvertText(display, read.text, (file, text) => readAdvertYaml(file, text)),
    text: read.text,
    ...(read.digest === undefined ? {} : { digest: read.digest }),
  };
}

/** A file over this size is read in groups of documents of about this size. */
export const PART_CHARS = 1024 * 1024;

interface DocumentGroup {
  start: number;
  end: number;
  /** Lines and YAML documents the group holds, to number those of the next group. */
  lines: number;
  documents: number;
}

/**
 * Splits a large text into groups of whole documents at `---` lines (a document start at column 0
 * cannot be inside a document before it). Undefined for a text small enough to read at once, or
 * one with directives (`%`) or document ends (`...`), whose documents depend on the lines before.
 */
function documentGroups(text: string): DocumentGroup[] | undefined {
  if (text.length <= PART_CHARS || /^(?:%|\.\.\.(?:[ \t\r]|$))/m.test(text)) return undefined;
  const groups: DocumentGroup[] = [];
  let start = 0;
  let lines = 0;
  let markers = 0;
  // Before the first `---`: a document when anything but comments and blank lines is there.
  let content = false;
  let offset = 0;
  while (offset < text.length) {
    const newline = text.indexOf('\n', offset);
    const end = newline === -1 ? text.length : newline + 1;
    if (text.startsWith('---', offset) && (end - offset === 3 || ' \t\r\n'.includes(text[offset + 3]!))) {
      if (offset - start >= PART_CHARS) {
        groups.push({ start, end: offset, lines, documents: markers + (groups.length === 0 && content ? 1 : 0) });
        start = offset;
        lines = 0;
        markers = 0;
      }
      markers++;
    } else if (markers === 0 && groups.length === 0 && !content) {
      const trimmed = text.slice(offset, end).trim();
      content = trimmed !== '' && !trimmed.startsWith('#');
    }
    lines++;
    offset = end;
  }
  groups.push({ start, end: text.length, lines, documents: 0 });
  return groups.length > 1 ? groups : undefined;
}

function duplicateReferences(adverts: readonly AdvertSource[]): LoadProblem[] {
  const first = new Map<string, { file: string; position: Position }>();
  const problems: LoadProblem[] = [];
  for (const advert of adverts) {
    const reference = advert.value.reference;
    if (typeof reference !== 'string' || reference.trim() === '') continue;
    const position = advert.locate(['reference']);
    const earlier = first.get(reference);
    if (earlier) {
      problems.push({
        file: advert.file,
        position,
        message: `reference ${JSON.stringify(reference)} is already used by ${earlier.file}:${earlier.position.line}:${earlier.position.column}; each advert needs its own`,
        code: 'duplicate_reference',
      });
    } else first.set(reference, { file: advert.file, position });
  }
  return problems;
}
