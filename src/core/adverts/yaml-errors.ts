/**
 * The `yaml` package's syntax errors in a recruiter's words. Its messages carry their own location
 * and a caret drawing ("Map keys must be unique at line 9, column 1:\n\n  email: ...\n^"); a finding
 * has its own file:line:column, so the sentence is kept apart from the drawing, whose lines stay
 * lines. The mistakes people make most (a key written twice, a tab for indentation) are said
 * plainly, with what to do.
 */
import { isMap, isScalar, isSeq, type Document, type Node, type YAMLError } from 'yaml';
import type { Position } from './types.js';
import { sanitize } from '../util/sanitize.js';

export interface ExplainedYamlError {
  message: string;
  /** The source lines around the mistake and the caret under it, as the parser drew them. */
  context?: string[];
}

/** " at line 9, column 1:" and what follows it in a pretty error message. */
const PRETTY_TAIL = / at line \d+, column \d+:?\n/;

export function explainYamlError(error: YAMLError, doc: Document, position: (offset: number) => Position, text?: string): ExplainedYamlError {
  const cut = PRETTY_TAIL.exec(error.message);
  const head = cut ? error.message.slice(0, cut.index) : error.message.split('\n')[0]!;
  const context = cut ? contextLines(error.message.slice(cut.index + cut[0].length)) : undefined;
  const withContext = (message: string): ExplainedYamlError => (context && context.length > 0 ? { message, context } : { message });
  const at = position(error.pos[0]);
  switch (error.code) {
    case 'DUPLICATE_KEY': {
      const first = firstOccurrence(doc.contents as Node | null, error.pos[0], []);
      if (first)
        return withContext(
          `${sanitize(first.path)}: duplicate key; first at line ${position(first.offset).line} (a field is written once: keep one of the two)`,
        );
      return withContext('duplicate key: a field is written once in a mapping; keep one of the two');
    }
    case 'TAB_AS_INDENT':
      return withContext(`line ${at.line} is indented with a tab; use spaces (YAML does not allow tabs for indentation)`);
    case 'BLOCK_AS_IMPLICIT_KEY': {
      const quoted = text === undefined ? undefined : quoteValueOf(text, error.pos[0]);
      return withContext(quoted ?? `${head}; a value with ": " in it must be quoted (key: "text: more text")`);
    }
    default:
      return withContext(head);
  }
}

/**
 * `company_description: We build robots: flexible hours`: YAML reads a second `: ` in a plain value
 * as a mapping inside it, and the parser says "Nested mappings are not allowed in compact mappings".
 * The fix is to quote the value; it is shown written out, from the line at `offset`.
 */
function quoteValueOf(text: string, offset: number): string | undefined {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const line = text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
  const kv = /^\s*(?:-\s+)?([^\s:#"'][^:#]*?):\s+(.*?)\s*$/.exec(line);
  if (!kv || !kv[2]!.includes(': ')) return undefined;
  const key = kv[1]!;
  // A comment after the value stays a comment.
  const value = kv[2]!.replace(/\s+#.*$/, '');
  // Double quotes unless the value has some; then single ones, a ' written twice.
  const written = value.includes('"') ? `'${value.replace(/'/g, "''")}'` : `"${value.replace(/\\/g, '\\\\')}"`;
  return `${sanitize(key)}: the value has ": " in it, which YAML reads as another key; quote the value: ${sanitize(key)}: ${sanitize(written)}`;
}

/** The drawing's lines: blank lines around it dropped, a tab shown as → so the caret still lines up. */
function contextLines(drawing: string): string[] {
  const lines = drawing.split('\n').map((l) => sanitize(l.replace(/\t/g, '→')));
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  return lines;
}

/** The earlier key of the mapping whose repeated key starts at `offset`, with its dotted path. */
function firstOccurrence(node: Node | null, offset: number, path: string[]): { path: string; offset: number } | undefined {
  if (isMap(node)) {
    const seen = new Map<string, number>();
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      if (isScalar(key) && key.range) {
        const name = String(key.value);
        const earlier = seen.get(name);
        if (key.range[0] === offset && earlier !== undefined) return { path: [...path, name].join('.'), offset: earlier };
        if (earlier === undefined) seen.set(name, key.range[0]);
      }
      const inner = firstOccurrence(pair.value as Node | null, offset, isScalar(key) ? [...path, String(key.value)] : path);
      if (inner) return inner;
    }
  } else if (isSeq(node)) {
    for (const [i, item] of node.items.entries()) {
      const inner = firstOccurrence(item as Node | null, offset, path.length > 0 ? [...path.slice(0, -1), `${path[path.length - 1]}[${i}]`] : [`[${i}]`]);
      if (inner) return inner;
    }
  }
  return undefined;
}
