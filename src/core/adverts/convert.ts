/**
 * `jobs convert`: a YAML advert's text into a Markdown advert's and back. The fields keep their YAML
 * as written where they can (comments, quoting, order); job_description moves between a field and
 * the body. Every conversion is read back with the tool's own readers before it is returned: a text
 * that would read as other fields than its source is never handed out (ConvertError instead).
 */
import { isDeepStrictEqual } from 'node:util';
import { Document, isAlias, isMap, parseAllDocuments, visit, type Node, type Scalar } from 'yaml';
import { expansionOf } from './locations.js';
import { BODY_FIELD, bodyText, isMarkdownName, readMarkdownAdvert, splitMarkdown } from './markdown.js';
import { readAdvertYaml } from './read-yaml.js';
import type { AdvertSource, LoadProblem, ReadResult } from './types.js';
import { readWithYamlPackage } from './yaml-package-reader.js';

export interface Converted {
  text: string;
  /** What the service receives differently afterwards (whitespace of the job description), if anything. */
  notes: string[];
  /** The adverts the text reads as (one per place of a `locations:` list): what the file written must read as too. */
  adverts: Record<string, unknown>[];
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
 * A YAML file's adverts as Markdown adverts, one per YAML document (a document's `locations:` list
 * stays one Markdown advert); each document's fields stay as written (comments before a document go
 * with it). A file of several documents gives parts named after their references, or, when a
 * reference is not a plain name or two would give one name (ignoring case), every part by its number.
 */
export function yamlToMarkdownParts(file: string, text: string): ConvertedPart[] {
  const read = readYamlAdverts(file, text);
  if (read.problems.length > 0) throw new ConvertError('the file does not read as adverts; fix it first', read.problems);
  const groups = documentsOf(read.adverts);
  if (groups.length <= 1) return [{ name: '', ...yamlToMarkdown(file, file, text) }];
  const documents = documentTexts(text);
  if (documents?.length !== groups.length) {
    throw new ConvertError(
      `the file holds ${groups.length} YAML documents, and they cannot be told apart line by line (directives, ... or text after ---): split it into a file each first`,
    );
  }
  const parts = documents.map((document) => yamlToMarkdown(file, file, document));
  // Each part must read as its own document's adverts: the cut put every line where it belongs.
  parts.forEach((part, i) => {
    const own = groups[i]!.map((a) => ({ ...a.value, [BODY_FIELD]: bodyText(String(a.value[BODY_FIELD])) }));
    if (!isDeepStrictEqual(part.adverts, own)) throw unsafe(file);
  });
  const names = partNames(groups);
  return parts.map((part, i) => ({ name: names[i]!, ...part }));
}

/** A file's adverts by YAML document, in order (a document with a `locations:` list holds one per place). */
function documentsOf(adverts: readonly AdvertSource[]): AdvertSource[][] {
  const groups: AdvertSource[][] = [];
  for (const advert of adverts) {
    if (groups.length > 0 && groups[groups.length - 1]![0]!.index === advert.index) groups[groups.length - 1]!.push(advert);
    else groups.push([advert]);
  }
  return groups;
}

const PLAIN_NAME = /^[\w.-]{1,80}$/;

/**
 * The names of a file's parts: each document's reference (a group's, for a `locations:` list) where
 * every one is a plain name and no two are one name ignoring case (a case-insensitive disk would
 * make them one file); else every document's number (1, 2, ...), which cannot meet.
 */
function partNames(groups: readonly AdvertSource[][]): string[] {
  const references = groups.map((group) => {
    const first = group[0]!;
    const reference = expansionOf(first) ? expansionOf(first)!.group : first.value.reference;
    return typeof reference === 'string' && PLAIN_NAME.test(reference) && !/^\.+$/.test(reference) ? reference : undefined;
  });
  const folded = references.map((r) => r?.toLowerCase());
  const plain = references.every((r) => r !== undefined) && new Set(folded).size === folded.length;
  return plain ? (references as string[]) : groups.map((_, i) => String(i + 1));
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

/**
 * A YAML (or JSON) advert as a Markdown advert: every field but job_description in the front matter
 * (a `locations:` list too: it is a field like the others, and its places share the body).
 */
export function yamlToMarkdown(file: string, target: string, text: string): Converted {
  const read = readYamlAdverts(file, text);
  if (read.problems.length > 0) throw new ConvertError('the file does not read as adverts; fix it first', read.problems);
  const documents = documentsOf(read.adverts).length;
  if (documents !== 1) throw new ConvertError(`the file holds ${documents} adverts and a Markdown advert is one: split them into a file each first`);
  const description = read.adverts[0]!.value[BODY_FIELD];
  if (typeof description !== 'string' || description.trim() === '')
    throw new ConvertError(`the advert has no ${BODY_FIELD} text to become the Markdown body: write one first`);
  const body = bodyText(description);
  const expected = read.adverts.map((a) => ({ ...a.value, [BODY_FIELD]: body }));
  // The fields as written, cut out of the text; else as the yaml package writes them (aliases kept,
  // then resolved: an alias of job_description's anchor has nothing to refer to once it is gone).
  for (const fields of [() => withoutField(text), () => rewritten(text, false), () => rewritten(text, true)]) {
    const front = fields();
    if (front === undefined) continue;
    const markdown = `---\n${withoutModeline(front)}---\n\n${body}`;
    if (readsAs(target, markdown, expected, true))
      return { text: markdown, notes: body === description ? [] : [whitespaceNote(description)], adverts: expected };
  }
  throw unsafe(target);
}

/**
 * Whether `text`, read as the file `target` is (Markdown or YAML by its name), gives exactly these
 * adverts: how every conversion is checked, in memory and once more from the disk.
 */
export function readsAs(target: string, text: string, expected: readonly Record<string, unknown>[], markdown = isMarkdownName(target)): boolean {
  const back = markdown ? readMarkdownAdvert(target, text, readYamlAdverts) : readYamlAdverts(target, text);
  return (
    back.problems.length === 0 && back.adverts.length === expected.length && back.adverts.every((advert, i) => isDeepStrictEqual(advert.value, expected[i]))
  );
}

/** A Markdown advert as a YAML one: the front matter as written, then job_description as a literal block. */
export function markdownToYaml(file: string, target: string, text: string, modeline?: string): Converted {
  const parts = splitMarkdown(text);
  const read = readMarkdownAdvert(file, text, (f, t) => readYamlAdverts(f, t));
  if (read.problems.length > 0 || !('body' in parts)) throw new ConvertError('the file does not read as a Markdown advert; fix it first', read.problems);
  const expected = read.adverts.map((a) => a.value);
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
    const yaml = attempt(candidate);
    if (yaml !== undefined && readsAs(target, yaml, expected, false)) return { text: yaml, notes: [], adverts: expected };
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

/**
 * The fields without job_description, written by the yaml package (comments kept, layout its own);
 * with `resolveAliases`, every alias written out as a copy of what it names. Undefined when the
 * package cannot write it (an alias of the anchor just deleted).
 */
function rewritten(text: string, resolveAliases: boolean): string | undefined {
  const doc = parseAllDocuments(text, { schema: 'failsafe', resolveKnownTags: false }).find((d) => isMap(d.contents)) as Document.Parsed | undefined;
  if (!doc) throw new ConvertError('the file holds no mapping of advert fields');
  if (resolveAliases) {
    visit(doc, {
      Alias(_, alias) {
        const target = alias.resolve(doc);
        if (!target) return undefined;
        // A copy without anchors, so no name is defined twice (an alias inside it is visited next).
        const copy = target.clone() as Node;
        visit(copy, { Node: (_key, node) => void (isAlias(node) || (node.anchor = undefined)) });
        if (!isAlias(copy)) copy.anchor = undefined;
        return copy;
      },
    });
  }
  doc.delete(BODY_FIELD);
  doc.directives.docStart = null;
  return attempt(() => doc.toString().replace(/^---\n/, ''));
}

/** A candidate text, or undefined when the yaml package cannot write it (it throws: an unresolved alias). */
function attempt(write: () => string): string | undefined {
  try {
    return write();
  } catch (error) {
    if (error instanceof ConvertError) throw error;
    return undefined;
  }
}

function withoutModeline(yaml: string): string {
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length && lines[i]!.startsWith('#'); i++) {
    if (MODELINE.test(lines[i]!.slice(1))) return [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n');
  }
  return yaml;
}

const unsafe = (target: string) =>
  new ConvertError(`${target} would not read back as the same adverts, so it was not written; please report this file (it is left as it was)`);

function whitespaceNote(before: string): string {
  const what: string[] = [];
  if (before.includes('\r')) what.push('its line breaks become \\n');
  if (/^[ \t]*\n/.test(before)) what.push('blank lines before it are dropped');
  if (!before.endsWith('\n')) what.push('it gains a final line break');
  else if (/\n[ \t]*\n$/.test(before)) what.push('blank lines after it are dropped');
  return `${BODY_FIELD} is sent as the Markdown body reads: ${what.join(', ') || 'its whitespace follows the body rule'} (docs/adverts.md)`;
}
