/**
 * Plain words for indentation mistakes. The `yaml` package reports them in its own terms, often at
 * the line above the mistake ("Nested mappings are not allowed in compact mappings" at `country: FR`
 * when `city` below it is indented too far). This line-by-line reading of block mappings and
 * sequences finds the line that is indented wrong and says against which field, by how much, and
 * (with the schema's field names) where it probably belongs.
 *
 * It runs only when the parser has reported an error, and it is a heuristic: when it meets anything
 * it does not follow (tabs, multi-line quoted or flow values) it stops, and the parser's own messages
 * stand.
 */
import { sanitize } from '../util/sanitize.js';
import type { Position } from './types.js';

export interface IndentationProblem {
  position: Position;
  message: string;
}

interface Level {
  indent: number;
  kind: 'map' | 'seq';
  /** Schema path of a mapping (`location`), undefined inside sequences of mappings. */
  path: string[] | undefined;
  /** The key that opened it ('' for the document). */
  owner: string;
  /** Indentation of that key. */
  ownerIndent: number;
  /** First key or item written in it, to line others up with. */
  first?: string;
}

/** `key:` at the start of a line: a plain key (spaces allowed, `:` only before a non-space) or a quoted one. */
const KEY = /^((?:[^\s:#'"[\]{}&*!|>%@`,?-]|[-?:](?=\S))(?:[^:]|:(?=\S))*?|"[^"\\]*"|'[^']*')[ ]*:(?:[ ]+|$)/;
const spaces = (n: number) => `${n} space${n === 1 ? '' : 's'}`;

/** Problems in the lines of `text`, 1-based positions; [] when nothing is understood to be wrong. */
export function findIndentationProblems(text: string, knownPaths: Record<string, string>): IndentationProblem[] {
  const problems: IndentationProblem[] = [];
  const lines = text.split(/\r?\n/);
  let stack: Level[] = [];
  /** A `key:` with nothing after it: the next deeper line opens its block. */
  let opener: { key: string; indent: number; path: string[] | undefined } | undefined;
  /** A `key: value` written inline: deeper lines continue the value (or are a misplaced key). */
  let inline: { key: string; indent: number } | undefined;
  /** Inside a block scalar whose parent sits at this indentation. */
  let blockParent: number | undefined;

  const known = (path: string[] | undefined, name: string) => path !== undefined && Object.hasOwn(knownPaths, [...path, name].join('.'));
  const report = (line: number, indent: number, message: string) => problems.push({ position: { line: line + 1, column: indent + 1 }, message });

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const indent = raw.length - raw.trimStart().length;
    const content = raw.slice(indent);
    if (blockParent !== undefined) {
      if (content === '' || indent > blockParent) continue;
      blockParent = undefined;
    }
    if (content === '' || content.startsWith('#')) continue;
    // Tabs: the parser's "Tabs are not allowed as indentation" says it plainly.
    if (/^[ ]*\t/.test(raw)) return problems;
    if (/^(---|\.\.\.)(\s|$)/.test(raw)) {
      stack = [];
      opener = inline = undefined;
      continue;
    }
    const item = /^-(?:[ ]+|$)/.exec(content);
    const body = item ? content.slice(item[0].length) : content;
    const key = KEY.exec(body);
    const name = key ? key[1]!.replace(/^["']|["']$/g, '') : undefined;
    // A line that is neither a key nor an item, and continues no value: not this reading's to judge.
    if (!key && !item && !(inline && indent > inline.indent)) return problems;

    if (stack.length === 0) {
      stack.push({ indent, kind: item ? 'seq' : 'map', path: item ? undefined : [], owner: '', ownerIndent: -1 });
    } else if (opener && (indent > opener.indent || (item && indent === opener.indent))) {
      stack.push({ indent, kind: item ? 'seq' : 'map', path: opener.path, owner: opener.key, ownerIndent: opener.indent });
    } else if (inline && indent > inline.indent) {
      // Deeper than a `key: value` line: a continuation of that value, unless it reads as a key.
      if (!key || item) continue;
      const above = sanitize(inline.key);
      report(
        i,
        indent,
        `\`${sanitize(name!)}\` is indented more than \`${above}\` above it (${spaces(indent)}, not ${inline.indent}), so YAML reads it as part of the value of \`${above}\`; line it up with \`${above}\``,
      );
      continue;
    } else {
      // A key at a sequence's indentation ends it (`skills:` followed by `- a` at the same column).
      let top = stack[stack.length - 1]!;
      if (!item && top.kind === 'seq' && indent === top.indent && stack.length > 1) {
        stack.pop();
        top = stack[stack.length - 1]!;
      }
      let popped: Level | undefined;
      while (stack.length > 1 && stack[stack.length - 1]!.indent > indent) popped = stack.pop();
      top = stack[stack.length - 1]!;
      if (indent !== top.indent) {
        const what = item ? `the item \`- ${sanitize(body.slice(0, 30))}\`` : `\`${sanitize(name ?? body.slice(0, 30))}\``;
        if (popped && indent > top.indent) {
          const others = popped.kind === 'seq' ? `the other items of \`${sanitize(popped.owner)}\`` : `the other fields of \`${sanitize(popped.owner)}\``;
          const inner = `line it up with \`${sanitize(popped.first ?? '')}\` (${spaces(popped.indent)})`;
          const outer = `line it up with \`${sanitize(popped.owner)}\` (${spaces(popped.ownerIndent)})`;
          let fix = `${inner} if it belongs to \`${sanitize(popped.owner)}\`, or ${outer} if it does not`;
          // An item cannot sit in a mapping, and a field the schema places here belongs here.
          if ((item && top.kind === 'map') || (name && !item && known(popped.path, name))) fix = inner;
          else if (name && !item && known(top.path, name)) fix = `it is not a field of \`${sanitize(popped.owner)}\`: ${outer}`;
          report(i, indent, `${what} is indented less than ${others} (${spaces(indent)}, not ${popped.indent}); ${fix}`);
          // Read on as if it had been lined up with the block it most likely belongs to.
          if (item || !(name && !known(popped.path, name) && known(top.path, name))) stack.push(popped);
        } else {
          report(
            i,
            indent,
            `${what} is indented ${spaces(indent)}, but the fields around it are at ${top.indent}; line it up with \`${sanitize(top.first ?? '')}\``,
          );
        }
      }
    }
    opener = inline = undefined;
    const level = stack[stack.length - 1]!;
    level.first ??= item ? `- ${body.slice(0, 30)}` : (name ?? body.slice(0, 30));

    // What the line holds decides how the next lines are read.
    let keyIndent = indent;
    let rest = body;
    let path = level.path;
    if (item) {
      if (!key) {
        // An empty item (`-` with a block below it) or a value this reading cannot step over.
        if (rest === '' || rest.startsWith('#') || !scalarFits(rest)) return problems;
        if (/^[|>]/.test(rest)) blockParent = indent;
        else inline = { key: `- ${rest.slice(0, 30)}`, indent };
        continue;
      }
      // `- key: value`: a mapping inside the sequence, its keys lined up after the dash.
      keyIndent = indent + item[0].length;
      path = undefined;
      stack.push({ indent: keyIndent, kind: 'map', path, owner: `- ${name}`, ownerIndent: indent, first: name });
    }
    if (!key) return problems;
    rest = body.slice(key[0].length);
    if (rest === '' || rest.startsWith('#')) opener = { key: name!, indent: keyIndent, path: path ? [...path, name!] : undefined };
    else if (/^[|>]/.test(rest)) blockParent = keyIndent;
    else if (!scalarFits(rest)) return problems;
    else inline = { key: name!, indent: keyIndent };
  }
  return problems;
}

/** A value this reading can step over: one line, no open quote or bracket, no anchors or tags. */
function scalarFits(value: string): boolean {
  const v = value.trim();
  if (/^["']/.test(v)) {
    const q = v[0]!;
    return v.indexOf(q, 1) > 0;
  }
  if (/^[[{]/.test(v)) {
    let depth = 0;
    for (const c of v) {
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
    }
    return depth === 0;
  }
  return !/^[&*!%@`]/.test(v);
}
