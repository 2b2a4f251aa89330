/**
 * Silencing a wording finding in the advert file itself (docs/wording.md): a comment naming the
 * rule on the finding's line or the line before, `# jobs-ignore wording/masculine-coded` in YAML,
 * `<!-- jobs-ignore wording/masculine-coded -->` in a Markdown body. A comment that silences nothing
 * is itself a warning (wording/unused-ignore), so they do not outlive the words they were for; one
 * that names no wording rule is an error at its place.
 */
import type { Finding } from '../errors/findings.js';
import type { LoadProblem, PathSegment, Position } from '../adverts/types.js';
import { didYouMean } from '../util/did-you-mean.js';
import { WORDING_RULE_IDS, WORDING_RULES } from './check.js';
import { scalarMap, type ScalarMap } from './scalar-map.js';

export interface IgnoreComment {
  line: number;
  column: number;
  rules: string[];
}

const COMMENT = /(?:^|[ \t])(?:#|<!--)[ \t]*jobs-ignore\b([^\n]*)/gm;

/** The jobs-ignore comments of a text whose first line is line `firstLine`. */
export function ignoreComments(text: string, firstLine = 1): IgnoreComment[] {
  if (!text.includes('jobs-ignore')) return [];
  const out: IgnoreComment[] = [];
  const starts = lineStarts(text);
  for (const m of text.matchAll(COMMENT)) {
    const at = m.index! + m[0].indexOf(m[0].trimStart()[0]!);
    const line = lineIndex(starts, at);
    const rules = m[1]!
      .replace(/-->.*$/, '')
      .split(/[\s,]+/)
      .filter(Boolean);
    out.push({ line: line + firstLine, column: at - starts[line]! + 1, rules });
  }
  return out;
}

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
