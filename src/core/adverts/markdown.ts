/**
 * Markdown adverts (`.md`): YAML front matter between two `---` lines holds the fields, and the body
 * below is the `job_description`. This module only splits the text and maps positions; the front
 * matter is read by the same YAML reader as a `.yaml` advert (given by the caller), so the two kinds
 * of file check alike. No Markdown is parsed: the body is sent as written (docs/adverts.md).
 *
 * The body is read like a YAML literal block (`|`): line breaks become `\n`, blank lines before the
 * first line of text and after the last are dropped, and the text ends with one line break.
 */
import type { AdvertSource, LoadProblem, PathSegment, Position } from './types.js';

/** The field the body holds. */
export const BODY_FIELD = 'job_description';
export const MARKDOWN_EXTENSION = '.md';

/** Whether a file (by its name or path) is read as a Markdown advert. */
export function isMarkdownName(file: string): boolean {
  return file.toLowerCase().endsWith(MARKDOWN_EXTENSION);
}

export interface MarkdownParts {
  /** The YAML between the `---` lines (its first line is line 2 of the file). */
  frontMatter: string;
  /** Lines before the front matter's first line (the opening `---`): add to its line numbers. */
  frontMatterOffset: number;
  /** The closing `---` line (1-based). */
  closingLine: number;
  /** The job description as sent ('' when the body is blank). */
  body: string;
  /** The body's first line of text (1-based); the closing line + 1 when the body is blank. */
  bodyLine: number;
}

export interface MarkdownProblem {
  line: number;
  message: string;
  code: 'front_matter_missing' | 'front_matter_unclosed';
}

const FENCE = /^---[ \t]*$/;

/** Splits a Markdown advert's text into front matter and body, or says why it cannot. */
export function splitMarkdown(text: string): MarkdownParts | MarkdownProblem {
  // A byte order mark is no part of the text (files.ts drops it from a file; a string may still hold one).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (!FENCE.test(lines[0]!)) {
    const what = text.trim() === '' ? 'the file is empty' : 'line 1 is not ---';
    return {
      line: 1,
      code: 'front_matter_missing',
      message: `no front matter (${what}): a Markdown advert starts with a --- line, then its fields in YAML (reference: ..., title: ...), then a --- line; the job description follows. Add them, or see 'jobs init --markdown'`,
    };
  }
  const closing = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (closing < 0) {
    return {
      line: 1,
      code: 'front_matter_unclosed',
      message: 'the front matter opened here is never closed: add a --- line after its last field, before the job description',
    };
  }
  // Blank as in a YAML block: spaces and tabs only (a line of U+00A0 or U+3000 is text, kept as written).
  const blank = (line: string) => /^[ \t]*$/.test(line);
  let first = closing + 1;
  while (first < lines.length && blank(lines[first]!)) first++;
  let last = lines.length - 1;
  while (last >= first && blank(lines[last]!)) last--;
  const body = last >= first ? `${lines.slice(first, last + 1).join('\n')}\n` : '';
  return {
    frontMatter: lines.slice(1, closing).join('\n') + (closing > 1 ? '\n' : ''),
    frontMatterOffset: 1,
    closingLine: closing + 1,
    body,
    bodyLine: body === '' ? closing + 2 : first + 1,
  };
}

/** The text a body of `text` is sent as (what splitMarkdown makes of it): for `jobs convert`. */
export function bodyText(text: string): string {
  const parts = splitMarkdown(`---\n---\n${text}`);
  return 'body' in parts ? parts.body : '';
}

type Read = { adverts: AdvertSource[]; problems: LoadProblem[] };
/** Reads one YAML text (the front matter); undefined: this reader cannot (a faster one bailing out). */
export type YamlRead = (file: string, text: string) => Read | undefined;

/**
 * Reads a file's text into adverts: a Markdown advert when the file's name ends in `.md`, YAML
 * otherwise, with `read` (for the front matter). The answer is a promise when `read`'s is, undefined
 * only when `read`'s is.
 */
export function readAdvertText(file: string, text: string, read: (file: string, text: string) => Read): Read;
export function readAdvertText(file: string, text: string, read: YamlRead): Read | undefined;
export function readAdvertText(file: string, text: string, read: (file: string, text: string) => Read | Promise<Read>): Read | Promise<Read>;
export function readAdvertText(
  file: string,
  text: string,
  read: (file: string, text: string) => Read | Promise<Read> | undefined,
): Read | Promise<Read> | undefined {
  return isMarkdownName(file) ? readMarkdownAdvert(file, text, read) : read(file, text);
}

/** One advert from a Markdown text, every position in the `.md` file's lines. */
export function readMarkdownAdvert(file: string, text: string, read: (file: string, text: string) => Read): Read;
export function readMarkdownAdvert(file: string, text: string, read: YamlRead): Read | undefined;
export function readMarkdownAdvert(file: string, text: string, read: (file: string, text: string) => Read | Promise<Read>): Read | Promise<Read>;
export function readMarkdownAdvert(
  file: string,
  text: string,
  read: (file: string, text: string) => Read | Promise<Read> | undefined,
): Read | Promise<Read> | undefined;
export function readMarkdownAdvert(
  file: string,
  text: string,
  read: (file: string, text: string) => Read | Promise<Read> | undefined,
): Read | Promise<Read> | undefined {
  const parts = splitMarkdown(text);
  if (!('body' in parts)) return { adverts: [], problems: [{ file, position: { line: parts.line, column: 1 }, message: parts.message, code: parts.code }] };
  const result = read(file, parts.frontMatter);
  if (result === undefined) return undefined;
  return result instanceof Promise ? result.then((r) => withBody(file, parts, r)) : withBody(file, parts, result);
}

/** The advert of the front matter as read, with the body as job_description, positions in the .md file. */
function withBody(file: string, parts: MarkdownParts, result: Read): Read {
  const shift = (p: Position): Position => ({ line: p.line + parts.frontMatterOffset, column: p.column });
  const problems: LoadProblem[] = result.problems.filter((p) => p.code !== 'empty').map((p) => (p.position ? { ...p, position: shift(p.position) } : p));
  if (problems.length > 0) return { adverts: [], problems };
  const opening: Position = { line: 1, column: 1 };
  const bodyAt: Position = { line: parts.bodyLine, column: 1 };
  // The front matter is exactly one YAML document. Several adverts are one advert's places (a
  // `locations:` list, see locations.ts) only when they come from that one document: a second
  // document (after `...`) would otherwise be read as more places, its job_description replaced.
  const second = result.adverts.find((a) => a.index !== result.adverts[0]!.index);
  if (second !== undefined) {
    return {
      adverts: [],
      problems: [
        {
          file,
          position: { line: documentStart(parts.frontMatter, second.locate([]).line) + parts.frontMatterOffset, column: 1 },
          message:
            'a second YAML document starts here, in the front matter: a Markdown advert is one advert, its front matter one document (for several places, list them under `locations:`; otherwise split it into several .md files)',
          code: 'front_matter_documents',
        },
      ],
    };
  }
  const front = result.adverts[0];
  const locateFront = (path: readonly PathSegment[]): Position => (front ? shift(front.locate(path)) : opening);
  if (front && Object.hasOwn(front.value, BODY_FIELD)) {
    const at = locateFront([BODY_FIELD]);
    const message =
      parts.body === ''
        ? `${BODY_FIELD} is in the front matter: in a Markdown advert the body is the job description; move its text below the closing --- (line ${parts.closingLine})`
        : `${BODY_FIELD} is given twice: in the front matter (line ${at.line}) and by the body (line ${parts.bodyLine}); remove it from the front matter: the body is the job description`;
    return { adverts: [], problems: [{ file, position: { line: at.line, column: 1 }, message, code: 'job_description_twice' }] };
  }
  if (parts.body === '') {
    return {
      adverts: [],
      problems: [
        {
          file,
          position: { line: parts.closingLine, column: 1 },
          message: `the body is empty: write the job description below the front matter's closing --- (line ${parts.closingLine})`,
          code: 'empty_body',
        },
      ],
    };
  }
  const withText = (advert: AdvertSource | undefined): AdvertSource => {
    const locate = (path: readonly PathSegment[]): Position => (advert ? shift(advert.locate(path)) : opening);
    return {
      ...advert,
      file,
      index: advert?.index ?? 0,
      value: { ...advert?.value, [BODY_FIELD]: parts.body },
      locate: (path) => (path[0] === BODY_FIELD ? bodyAt : locate(path)),
    };
  };
  return { adverts: result.adverts.length > 0 ? result.adverts.map(withText) : [withText(undefined)], problems: [] };
}

/**
 * The line (in the front matter) where the YAML document holding `line` starts: the last `---` or
 * `...` marker before it (markers stand at column 0, so none is inside a value); `line` when none is.
 */
function documentStart(frontMatter: string, line: number): number {
  const lines = frontMatter.split('\n');
  for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) if (/^(---|\.\.\.)([ \t]|$)/.test(lines[i]!)) return i + 1;
  return line;
}
