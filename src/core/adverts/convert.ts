/**
 * `jobs convert`: a YAML advert's text into a Markdown advert's and back. The fields keep their YAML
 * as written where they can (comments, quoting, order); job_description moves between a field and
 * the body. Every conversion is read back with the tool's own readers before it is returned: a text
 * that would read as other fields than its source is never handed out (ConvertError instead).
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, parseAllDocuments, type Scalar } from 'yaml';
import { BODY_FIELD, bodyText, readMarkdownAdvert, splitMarkdown } from './markdown.js';
import { readAdvertYaml } from './read-yaml.js';
import type { LoadProblem, ReadResult } from './types.js';
import { readWithYamlPackage } from './yaml-package-reader.js';

export interface Converted {
  text: string;
  /** What the service receives differently afterwards (whitespace of the job description), if anything. */
  notes: string[];
}

/** Why a text was not converted: the source's own problems, or one message at line 1. */
export class ConvertError extends Error {
  constructor(
    message: string,
    readonly problems: LoadProblem[] = [],
  ) {
    super(message);
  }
}

/** The tool's own YAML reading, answering at once (the `yaml` package is loaded with this module). */
const readYamlAdverts = (file: string, text: string): ReadResult => readAdvertYaml(file, text, { yamlPackage: readWithYamlPackage });
const MODELINE = /^\s*yaml-language-server:/;

/** One Markdown advert of a YAML file: `name` tells it apart when the file held several ('' when one). */
export interface ConvertedPart extends Converted {
  name: string;
}

/**
 * A YAML file's adverts as Markdown adverts, one per YAML document; each document's fields stay as
 * written (comments before a document go with it). A file of several adverts gives parts named after
 * their references (their numbers where a reference is not a plain name).
 */
export function yamlToMarkdownParts(file: string, text: string): ConvertedPart[] {
  const read = readYamlAdverts(file, text);
  if (read.problems.length > 0) throw new ConvertError('the file does not read as adverts; fix it first', read.problems);
  const documents = documentTexts(text);
  if (read.adverts.length <= 1) return [{ name: '', ...yamlToMarkdown(file, file, documents?.length === 1 ? documents[0]! : text) }];
  if (documents?.length !== read.adverts.length) {
    throw new ConvertError(
      `the file holds ${read.adverts.length} adverts, and its documents cannot be told apart line by line (directives, ... or text after ---): split it into a file each first`,
    );
  }
  const names = new Set<string>();
  return documents.map((document, i) => {
    const value = read.adverts[i]!.value;
    const converted = yamlToMarkdown(file, file, document);
    const back = readMarkdownAdvert(file, converted.text, (f, t) => readYamlAdverts(f, t));
    if (!isDeepStrictEqual(back.adverts[0]?.value, { ...value, [BODY_FIELD]: bodyText(String(value[BODY_FIELD])) })) throw unsafe(file);
    const reference =
      typeof value.reference === 'string' && /^[\w.-]{1,80}$/.test(value.reference) && !/^\.+$/.test(value.reference) ? value.reference : String(i + 1);
    const name = names.has(reference) ? String(i + 1) : reference;
    names.add(name);
    return { name, ...converted };
  });
}

/**
 * The texts of a file's YAML documents, split at its `---` lines; comment-only stretches go with the
 * document after them (the last one: before). Undefined when documents are not plain to split.
 */
function documentTexts(text: string): string[] | undefined {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.some((line) => /^(%|\.\.\.(\s|$)|---[ \t]*\S)/.test(line))) return undefined;
  const segments: string[][] = [[]];
  for (const line of lines) {
    if (/^---[ \t]*$/.test(line)) segments.push([]);
    else segments[segments.length - 1]!.push(line);
  }
  const documents: string[][] = [];
  let pending: string[] = [];
  for (const segment of segments) {
    if (segment.every((line) => line.trim() === '' || line.trimStart().startsWith('#'))) pending = pending.concat(segment);
    else {
      documents.push(pending.concat(segment));
      pending = [];
    }
  }
  if (documents.length === 0) return undefined;
  documents[documents.length - 1] = documents[documents.length - 1]!.concat(pending);
  return documents.map((document) => `${document.join('\n').replace(/\n*$/, '')}\n`);
}

/** A YAML (or JSON) advert as a Markdown advert: every field but job_description in the front matter. */
export function yamlToMarkdown(file: string, target: string, text: string): Converted {
  const read = readYamlAdverts(file, text);
  if (read.problems.length > 0) throw new ConvertError('the file does not read as adverts; fix it first', read.problems);
  if (read.adverts.length !== 1)
    throw new ConvertError(`the file holds ${read.adverts.length} adverts and a Markdown advert is one: split them into a file each first`);
  const value = read.adverts[0]!.value;
  const description = value[BODY_FIELD];
  if (typeof description !== 'string' || description.trim() === '')
    throw new ConvertError(`the advert has no ${BODY_FIELD} text to become the Markdown body: write one first`);
  const body = bodyText(description);
  const expected = { ...value, [BODY_FIELD]: body };
  // The fields as written, cut out of the text; else as the yaml package writes them.
  for (const fields of [() => withoutField(text), () => rewritten(text)]) {
    const front = fields();
    if (front === undefined) continue;
    const markdown = `---\n${withoutModeline(front)}---\n\n${body}`;
    const back = readMarkdownAdvert(target, markdown, (f, t) => readYamlAdverts(f, t));
    if (back.problems.length === 0 && isDeepStrictEqual(back.adverts[0]?.value, expected))
      return { text: markdown, notes: body === description ? [] : [whitespaceNote(description)] };
  }
  throw unsafe(target);
}

/** A Markdown advert as a YAML one: the front matter as written, then job_description as a literal block. */
export function markdownToYaml(file: string, target: string, text: string, modeline?: string): Converted {
  const parts = splitMarkdown(text);
  const read = readMarkdownAdvert(file, text, (f, t) => readYamlAdverts(f, t));
  if (read.problems.length > 0 || !('body' in parts)) throw new ConvertError('the file does not read as a Markdown advert; fix it first', read.problems);
  const value = read.adverts[0]!.value;
  const field = new Document({ [BODY_FIELD]: parts.body });
  (field.get(BODY_FIELD, true) as Scalar).type = 'BLOCK_LITERAL';
  const head =
    modeline !== undefined && !parts.frontMatter.split('\n').some((line) => line.startsWith('#') && MODELINE.test(line.slice(1)))
      ? `# yaml-language-server: $schema=${modeline}\n`
      : '';
  const candidates = [
    // The front matter as written (comments, order) with the field after it...
    () => `${head}${parts.frontMatter.trim() === '' ? '' : parts.frontMatter}${field.toString({ lineWidth: 0 })}`,
    // ...or, when that does not read back (a flow mapping, a document end), written by the yaml package.
    () => {
      const doc = parseAllDocuments(parts.frontMatter, { schema: 'failsafe', resolveKnownTags: false })[0] ?? new Document({});
      if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as never;
      doc.set(BODY_FIELD, field.get(BODY_FIELD, true));
      return head + doc.toString({ lineWidth: 0 });
    },
  ];
  for (const candidate of candidates) {
    const yaml = candidate();
    const back = readYamlAdverts(target, yaml);
    if (back.problems.length === 0 && back.adverts.length === 1 && isDeepStrictEqual(back.adverts[0]!.value, value)) return { text: yaml, notes: [] };
  }
  throw unsafe(target);
}

/** The editor's modeline names a schema for a YAML file (a comment in the leading ones): front matter has no use for it. */
/**
 * The YAML text without the job_description pair, cut out line by line where it is a top-level key
 * of a block mapping (the rest stays byte for byte); undefined otherwise (JSON, flow style, several
 * documents), where the yaml package writes the fields (see rewritten).
 */
function withoutField(text: string): string | undefined {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.some((line) => /^(---|\.\.\.)(\s|$)/.test(line) || /^%/.test(line))) return undefined;
  const start = lines.findIndex((line) => new RegExp(`^["']?${BODY_FIELD}["']?[ \t]*:`).test(line));
  if (start < 0 || lines.findIndex((line, i) => i > start && new RegExp(`^["']?${BODY_FIELD}["']?[ \t]*:`).test(line)) >= 0) return undefined;
  let end = start + 1;
  while (end < lines.length && (lines[end]!.trim() === '' || /^[ \t]/.test(lines[end]!))) end++;
  // Blank lines before the next key are left as they were.
  while (end - 1 > start && lines[end - 1]!.trim() === '') end--;
  const kept = [...lines.slice(0, start), ...lines.slice(end)].join('\n');
  return kept.endsWith('\n') || kept === '' ? kept : `${kept}\n`;
}

/** The fields without job_description, written by the yaml package (comments kept, layout its own). */
function rewritten(text: string): string {
  const doc = parseAllDocuments(text, { schema: 'failsafe', resolveKnownTags: false }).find((d) => isMap(d.contents)) as Document.Parsed | undefined;
  if (!doc) throw new ConvertError('the file holds no mapping of advert fields');
  doc.delete(BODY_FIELD);
  doc.directives.docStart = null;
  return doc.toString().replace(/^---\n/, '');
}

function withoutModeline(yaml: string): string {
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length && lines[i]!.startsWith('#'); i++) {
    if (MODELINE.test(lines[i]!.slice(1))) return [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n');
  }
  return yaml;
}

const unsafe = (target: string) => new ConvertError(`${target} would not read back as the same fields, so it was not written; please report this file`);

function whitespaceNote(before: string): string {
  const what: string[] = [];
  if (before.includes('\r')) what.push('its line breaks become \\n');
  if (/^[ \t]*\n/.test(before)) what.push('blank lines before it are dropped');
  if (!before.endsWith('\n')) what.push('it gains a final line break');
  else if (/\n[ \t]*\n$/.test(before)) what.push('blank lines after it are dropped');
  return `${BODY_FIELD} is sent as the Markdown body reads: ${what.join(', ') || 'its whitespace follows the body rule'} (docs/adverts.md)`;
}
