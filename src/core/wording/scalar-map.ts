/**
 * Where a character of a string value is written in the file's text: the value is walked beside
 * its source (from where locate() puts the value), character by character, decoding what YAML
 * decodes (the escapes of a double-quoted scalar, '' in a single-quoted one) and skipping what it
 * drops (quotes, a block scalar's header and indentation, folded line breaks). Anything else that
 * differs ends the walk: the caller then answers with where the value starts, never with another
 * word's place. One walk per value, with checkpoints, so the findings of a long text cost one pass
 * (not one pass each).
 */

/** A checkpoint every this many characters of the value: a query walks at most this far. */
const STEP = 64;

export interface ScalarMap {
  /** The source offset of the value's character at `offset`; undefined when the walk could not follow the value that far. */
  at(offset: number): number | undefined;
  /** The source offset just after the value's last character (its source's end, closing quote excluded); undefined when the walk failed. */
  end(): number | undefined;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The escape at `p` (a backslash) of a double-quoted scalar: what it decodes to and its length in the source. */
function escapeAt(text: string, p: number): { value: string; length: number } | undefined {
  const c = text[p + 1];
  if (c === undefined) return undefined;
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) return { value: simple, length: 2 };
  const n = HEX_LENGTH[c];
  if (n === undefined) return undefined;
  const hex = text.slice(p + 2, p + 2 + n);
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) return undefined;
  const code = parseInt(hex, 16);
  return code > 0x10ffff ? undefined : { value: String.fromCodePoint(code), length: 2 + n };
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The map of `value`, written in `text` from offset `start` (a quote, a block scalar's header, or the first character). */
export function scalarMap(text: string, start: number, value: string): ScalarMap {
  const style = text[start] === '"' ? 'double' : text[start] === "'" ? 'single' : text[start] === '|' || text[start] === '>' ? 'block' : 'plain';
  let p = style === 'double' || style === 'single' ? start + 1 : start;
  if (style === 'block') {
    // The header (indicators, a comment) ends its line; the text starts on the next.
    const nl = text.indexOf('\n', p);
    p = nl === -1 ? text.length : nl + 1;
  }
  let j = 0;
  let failed = false;
  const checkpoints: [number, number][] = [[0, p]];

  /** Walks on until the value's offset `target` is reached (or the walk fails). */
  const walk = (target: number): void => {
    while (!failed && j < target) {
      const s = text[p];
      const c = value[j]!;
      if (s === undefined) {
        failed = true;
        break;
      }
      if (style === 'double' && s === '\\') {
        const next = text[p + 1];
        if (next === '\n' || (next === '\r' && text[p + 2] === '\n')) {
          // An escaped line break: the break and the next line's indentation are dropped.
          p += next === '\n' ? 2 : 3;
          while (text[p] === ' ' || text[p] === '\t') p++;
          continue;
        }
        const e = escapeAt(text, p);
        if (e && value.startsWith(e.value, j)) {
          j += e.value.length;
          p += e.length;
        } else failed = true;
      } else if (s === c) {
        j++;
        p++;
      } else if (c === ' ' && (s === '\n' || s === '\r')) {
        // A folded line break: the break and the next line's indentation are the value's one space.
        while (isSpace(text[p])) p++;
        j++;
      } else if (isSpace(s) || (style === 'single' && s === "'")) p++;
      else failed = true;
      if (j >= checkpoints[checkpoints.length - 1]![0] + STEP) checkpoints.push([j, p]);
    }
  };

  /** Past what YAML drops before the value's character `j` (indentation, a folded break, a doubled quote), to where that character is written. */
  const settle = (): void => {
    const c = value[j];
    for (;;) {
      const s = text[p];
      if (s === undefined || s === c) return;
      if (style === 'double' && s === '\\' && (text[p + 1] === '\n' || text[p + 1] === '\r')) p += 2;
      else if (isSpace(s) || (style === 'single' && s === "'")) p++;
      else return;
    }
  };

  return {
    at(offset) {
      if (offset < 0 || offset > value.length) return undefined;
      if (offset > j) walk(offset);
      if (failed && offset > j) return undefined;
      if (offset === j) {
        settle();
        return p;
      }
      // Behind the walk: from the last checkpoint at or before it (one short walk, state kept aside).
      let low = 0;
      let high = checkpoints.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (checkpoints[mid]![0] <= offset) low = mid;
        else high = mid - 1;
      }
      const [savedJ, savedP, savedFailed] = [j, p, failed];
      [j, p] = checkpoints[low]!;
      failed = false;
      walk(offset);
      if (!failed) settle();
      const found = failed ? undefined : p;
      [j, p, failed] = [savedJ, savedP, savedFailed];
      return found;
    },
    end() {
      walk(value.length);
      return failed ? undefined : p;
    },
  };
}
