/**
 * Silencing a wording finding in the advert file itself (docs/wording.md): a comment naming the
 * rule on the finding's line or the line before, `# jobs-ignore wording/masculine-coded` in YAML,
 * `<!-- jobs-ignore wording/masculine-coded -->` in a Markdown body. A comment that silences nothing
 * is itself a warning (wording/unused-ignore), so they do not outlive the words they were for; one
 * that names no wording rule is an error at its place.
 */
import type { Finding } from '../errors/findings.js';
import type { AdvertSource, LoadProblem, PathSegment, Position } from '../adverts/types.js';
import { BODY_FIELD } from '../adverts/markdown.js';
import { didYouMean } from '../util/did-you-mean.js';
import { WORDING_RULE_IDS, WORDING_RULES } from './check.js';
import { scalarMap, type ScalarMap } from './scalar-map.js';

export interface IgnoreComment {
  line: number;
  column: number;
  rules: string[];
}

const COMMENT = /(?:^|[ \t])(#|<!--)[ \t]*jobs-ignore\b([^\n]*)/gm;

/**
 * Where a `# jobs-ignore` or `<!-- jobs-ignore -->` is text, not a comment: the source ranges
 * (offsets in the text) of the string values (a block scalar's lines, a quoted string), and for a
 * Markdown advert its body, where only an HTML comment outside code silences.
 */
export interface TextRanges {
  values: (readonly [number, number])[];
  body?: number;
}

/** The TextRanges of the adverts read from `text` (whose first line is `firstLine`); `markdown` for a .md file, whose job_description is its body. */
export function textRanges(text: string, firstLine: number, adverts: readonly Pick<AdvertSource, 'value' | 'locate'>[], markdown: boolean): TextRanges {
  const starts = lineStarts(text);
  const offsetOf = (at: Position) => {
    const line0 = at.line - firstLine;
    return line0 >= 0 && line0 < starts.length ? starts[line0]! + at.column - 1 : undefined;
  };
  const out: TextRanges = { values: [] };
  for (const advert of adverts) {
    const walk = (v: unknown, path: PathSegment[]): void => {
      if (typeof v === 'string') {
        const start = offsetOf(advert.locate(path));
        if (start === undefined) return;
        if (markdown && path.length === 1 && path[0] === BODY_FIELD) out.body = start;
        else {
          const end = scalarMap(text, start, v).end();
          if (end !== undefined) out.values.push([start, end] as const);
        }
      } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
      else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    };
    walk(advert.value, []);
  }
  return out;
}

/**
 * The jobs-ignore comments of a text whose first line is line `firstLine`: a YAML comment (`#`), or
 * in a Markdown body an HTML comment outside code; none inside a value (TextRanges), where it is
 * text that is sent.
 */
export function ignoreComments(text: string, firstLine = 1, ranges: TextRanges = { values: [] }): IgnoreComment[] {
  if (!text.includes('jobs-ignore')) return [];
  const out: IgnoreComment[] = [];
  const starts = lineStarts(text);
  const code = ranges.body === undefined ? undefined : codeLines(text, ranges.body);
  for (const m of text.matchAll(COMMENT)) {
    const at = m.index! + m[0].indexOf(m[1]!);
    if (ranges.values.some(([from, to]) => at >= from && at < to)) continue;
    const line = lineIndex(starts, at);
    const inBody = ranges.body !== undefined && at >= ranges.body;
    if (inBody ? m[1] !== '<!--' || code!.has(line) || inCodeSpan(text.slice(starts[line], at)) : m[1] !== '#') continue;
    const rules = m[2]!
      .replace(/-->.*$/, '')
      .split(/[\s,]+/)
      .filter(Boolean);
    out.push({ line: line + firstLine, column: at - starts[line]! + 1, rules });
  }
  return out;
}

/** The lines (0-based) of fenced code blocks in a Markdown body starting at offset `body`, fences included. */
function codeLines(text: string, body: number): Set<number> {
  const lines = new Set<number>();
  const starts = lineStarts(text);
  let fence: string | undefined;
  for (let i = lineIndex(starts, body); i < starts.length; i++) {
    const line = text.slice(starts[i], (starts[i + 1] ?? text.length + 1) - 1);
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && open) {
      fence = open;
      lines.add(i);
    } else if (fence !== undefined) {
      lines.add(i);
      if (open && open[0] === fence[0] && open.length >= fence.length && line.trim() === open) fence = undefined;
    }
  }
  return lines;
}

/** Whether the end of a line's text is inside a code span (an odd number of backticks before it). */
const inCodeSpan = (before: string) => (before.match(/`/g)?.length ?? 0) % 2 === 1;

/** A comment's names that are no wording rule: each a problem at the comment, with the nearest rule id. */
export function unknownIgnores(file: string, comments: IgnoreComment[]): LoadProblem[] {
  const problems: LoadProblem[] = [];
  for (const c of comments) {
    if (c.rules.length === 0)
      problems.push({
        file,
        position: c,
        code: 'unknown_ignore',
        message: 'jobs-ignore names no rule: write the rule id it silences (jobs-ignore wording/masculine-coded)',
      });
    for (const rule of c.rules) {
      if ((WORDING_RULE_IDS as string[]).includes(rule)) continue;
      const near = didYouMean(rule, WORDING_RULE_IDS);
      problems.push({
        file,
        position: c,
        code: 'unknown_ignore',
        message: `jobs-ignore ${rule}: no wording rule has this id${near ? `; did you mean ${near}?` : ''} ('jobs rules' lists them; docs/wording.md)`,
      });
    }
  }
  return problems;
}

/**
 * Removes the wording findings a comment silences (same rule, on the comment's line or the next),
 * and returns a wording/unused-ignore warning for each rule a comment names that silenced nothing.
 */
export function applyIgnores(file: string, comments: IgnoreComment[], warnings: Finding[]): { kept: Finding[]; unused: Finding[] } {
  const used = new Set<string>();
  const kept = warnings.filter((f) => {
    if (!f.rule.startsWith('wording/') || f.line === undefined || f.file !== file) return true;
    const by = comments.find((c) => (c.line === f.line || c.line === f.line! - 1) && c.rules.includes(f.rule));
    if (by) used.add(`${by.line}:${by.column}:${f.rule}`);
    return !by;
  });
  const unused: Finding[] = [];
  for (const c of comments)
    for (const rule of c.rules) {
      if (!(WORDING_RULE_IDS as string[]).includes(rule) || used.has(`${c.line}:${c.column}:${rule}`)) continue;
      unused.push({
        kind: 'field',
        file,
        line: c.line,
        column: c.column,
        path: '',
        message: 'wording/unused-ignore',
        text: `jobs-ignore ${rule} silences nothing: no ${rule} finding on this line or the next; remove the comment`,
        rule: 'wording/unused-ignore',
        severity: 'warning',
      });
    }
  return { kept, unused };
}

/** The summary of a wording rule, for rules listings. */
export function wordingSummary(rule: string): string | undefined {
  return (WORDING_RULES as Record<string, { summary: string }>)[rule]?.summary;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineIndex(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * locateIn for an advert read from `text` (whose first line is `firstLine`): the character at
 * `offset` of the string at `path`, found by walking the value beside its source (scalar-map.ts).
 * Where the walk cannot follow it (a value the text does not hold as written: a default from the
 * config), where the value starts.
 */
export function wordLocator(
  text: string,
  firstLine: number,
  value: Record<string, unknown>,
  locate: (path: readonly PathSegment[]) => Position,
): (path: readonly PathSegment[], offset: number) => Position {
  let starts: number[] | undefined;
  const maps = new Map<string, ScalarMap | null>();
  return (path, offset) => {
    const at = locate(path);
    const key = path.join('\0');
    let map = maps.get(key);
    if (map === undefined) {
      let v: unknown = value;
      for (const k of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[String(k)] : undefined;
      starts ??= lineStarts(text);
      const line0 = at.line - firstLine;
      map = typeof v === 'string' && line0 >= 0 && line0 < starts.length ? scalarMap(text, starts[line0]! + at.column - 1, v) : null;
      maps.set(key, map);
    }
    const i = map?.at(offset);
    if (i === undefined) return at;
    const line = lineIndex(starts!, i);
    return { line: line + firstLine, column: i - starts![line]! + 1 };
  };
}
