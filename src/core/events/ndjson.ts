/**
 * NDJSON events: one JSON object per line, blank lines skipped. Each top-level key's value is
 * located by a small scan of the line, so an error points at `line:column` of the value.
 */
import { sanitize } from '../util/sanitize.js';
import { EXACT_HINT, firstInexactJsonNumber } from '../util/exact-numbers.js';
import { fileProblem } from './findings.js';
import type { Finding } from '../errors/findings.js';
import type { RawField, ReadItem, ReadResult } from './types.js';

interface KeySpan {
  name: string;
  keyColumn: number;
  valueColumn: number;
}

export function readNdjson(file: string, text: string): ReadResult {
  const result: ReadResult = { entries: [], problems: [] };
  for (const [i, raw] of text.split('\n').entries()) {
    const read = readNdjsonLine(file, raw, i + 1);
    if (read?.entry) result.entries.push(read.entry);
    for (const p of read?.problems ?? []) result.problems.push(p);
  }
  return result;
}

/** Reads one line (`line` its number); undefined for a blank line. */
export function readNdjsonLine(file: string, raw: string, line: number): ReadItem | undefined {
  const lineText = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  // A line that opens with its brace (as written by every tool) needs no trimmed copy.
  if (lineText.charCodeAt(0) !== OPEN_BRACE && lineText.trim() === '') return undefined;
  const start = { line, column: lineText.charCodeAt(0) === OPEN_BRACE ? 1 : lineText.length - lineText.trimStart().length + 1 };
  let value: unknown;
  try {
    value = JSON.parse(lineText);
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    const column = at ? Number(at[1]) + 1 : start.column;
    return {
      problems: [
        fileProblem(file, { line, column }, 'json_syntax', `line ${line} is not valid JSON: ${sanitize(message.replace(/ in JSON at position \d+.*$/, ''))}`),
      ],
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const found = Array.isArray(value) ? 'a list' : 'a single value';
    return { problems: [fileProblem(file, start, 'not_an_object', `line ${line} is ${found}, not an object like {"application_id": "...", "kind": "..."}`)] };
  }
  const inexact = firstInexactJsonNumber(lineText);
  if (inexact) return { problems: [fileProblem(file, { line, column: inexact.offset + 1 }, 'inexact_number', `${inexact.reason}; ${EXACT_HINT}`)] };
  const problems: Finding[] = [];
  const spans = topLevelKeys(lineText);
  const fields = new Map<string, RawField>();
  // A few keys (an event has at most three) are compared pairwise rather than through a Set per line.
  const seen = spans.length > 8 ? new Set<string>() : undefined;
  for (let k = 0; k < spans.length; k++) {
    const span = spans[k]!;
    if (seen ? seen.has(span.name) : keyBefore(spans, k))
      problems.push(fileProblem(file, { line, column: span.keyColumn }, 'duplicate_key', `line ${line} has the key "${sanitize(span.name)}" more than once`));
    seen?.add(span.name);
  }
  for (const [name, fieldValue] of Object.entries(value as Record<string, unknown>)) {
    const span = spans.findLast((s) => s.name === name);
    fields.set(name, { value: fieldValue, position: { line, column: span?.valueColumn ?? start.column } });
  }
  return { entry: { position: start, fields }, problems };
}

/** True when the key of `spans[k]` is also the key of a span before it. */
function keyBefore(spans: readonly KeySpan[], k: number): boolean {
  for (let j = 0; j < k; j++) if (spans[j]!.name === spans[k]!.name) return true;
  return false;
}

/**
 * The top-level keys of a line that holds one valid JSON object, with 1-based columns of each key
 * and of its value. Strings are skipped with their escapes, so braces inside them do not count.
 */
export function topLevelKeys(line: string): KeySpan[] {
  const spans: KeySpan[] = [];
  let depth = 0;
  let expectKey = false;
  // Char codes, not one-character strings and a regex per character: every line is scanned twice a run.
  for (let i = 0; i < line.length; i++) {
    const ch = line.charCodeAt(i);
    if (ch === QUOTE) {
      const end = stringEnd(line, i);
      if (depth === 1 && expectKey) {
        let j = skipSpace(line, end + 1);
        j = skipSpace(line, j + 1); // past the colon
        const quoted = line.slice(i, end + 1);
        // Only a name with an escape needs JSON.parse to read it.
        const name = quoted.includes('\\') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1);
        spans.push({ name, keyColumn: i + 1, valueColumn: j + 1 });
        expectKey = false;
      }
      i = end;
    } else if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      depth++;
      expectKey = depth === 1 && ch === OPEN_BRACE;
    } else if (ch === CLOSE_BRACE || ch === CLOSE_BRACKET) depth--;
    else if (ch === COMMA && depth === 1) expectKey = true;
  }
  return spans;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** The index of the first character at or after `from` that is not JSON whitespace. */
function skipSpace(text: string, from: number): number {
  let j = from;
  for (let c = text.charCodeAt(j); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++j));
  return j;
}

/** Index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === BACKSLASH) i++;
    else if (ch === QUOTE) return i;
  }
  return text.length - 1;
}
