/**
 * A hand-written fast path for the simple YAML that advert files almost always are: block mappings
 * with plain keys, block sequences of scalars, one-line flow sequences of scalars and one-line
 * flow mappings (`pay: { min: 1, currency: EUR }`, nested too), plain / quoted / block scalars,
 * comments, `---` between documents. It gives exactly what the `yaml`-based reader gives
 * (same values, same positions), several times faster.
 *
 * It never has to be complete, only never wrong: on anything outside that subset, or anything that
 * might be an error, it returns undefined and the caller (read-yaml.ts) falls back to the `yaml` package, which
 * stays the authority (and writes the error messages). When in doubt, it bails out.
 */
import { typedPlainScalar } from './scalars.js';
import type { AdvertSource, PathSegment, Position, ReadOptions, ReadResult } from './types.js';
import { withNormalReference } from './reference.js';

/**
 * Characters the fast path leaves to the `yaml` package: tabs (indentation rules), control and
 * non-printable characters, Unicode line separators, a BOM, and a carriage return that does not
 * start a CRLF line end.
 */
const UNSUPPORTED_CHAR = /[\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
const LONE_CR = /\r(?!\n)/;
/** Two tests, not one alternation: a plain character class is scanned several times faster. */
const unsupportedText = (text: string) => UNSUPPORTED_CHAR.test(text) || (text.includes('\r') && LONE_CR.test(text));

/** Stay well inside the slow path's limits (100,000 nodes, 64 levels) so it reports them. */
const MAX_DEPTH = 60;
const DEFAULT_MAX_NODES = 100_000;
/** YAML caps implicit keys at 1024 characters; leave anything near that to the slow path. */
const MAX_KEY_LENGTH = 1000;

const SPACE = 0x20;
const HASH = 0x23;
const QUOTE_DOUBLE = 0x22;
const QUOTE_SINGLE = 0x27;
const DASH = 0x2d;
const COLON = 0x3a;
const BRACKET_OPEN = 0x5b;
const BRACKET_CLOSE = 0x5d;
const BRACE_OPEN = 0x7b;
const BRACE_CLOSE = 0x7d;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const PIPE = 0x7c;
const GREATER = 0x3e;
const PLUS = 0x2b;
const NEWLINE = 0x0a;

/** ASCII lookup tables (index = char code). */
const KEY_CHAR = asciiSet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-');
/** Characters that cannot start a plain scalar (YAML's c-indicator), `-` handled separately. */
const INDICATOR = asciiSet('-?:,[]{}#&*!|>\'"%@`');
/** What may follow a leading `-` for it to be plainly text (`-5`, `-.5`, `-abc`). */
const AFTER_DASH = asciiSet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.');
/** Characters that end or complicate a plain scalar inside `[...]`. */
const FLOW_STOP = asciiSet(',[]{}:#');

function asciiSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) set[chars.charCodeAt(i)] = 1;
  return set;
}

function inSet(set: Uint8Array, code: number): boolean {
  return code < 128 && set[code] === 1;
}

/** Thrown (never escapes) when the input leaves the subset; a plain object, so no stack is captured. */
const UNSUPPORTED = Object.freeze({ unsupported: true });

function bail(): never {
  throw UNSUPPORTED;
}

/** A key the schema knows, with its dotted path: made once, handed out instead of a slice of the text. */
interface KnownKey {
  key: string;
  path: string;
}
/** Parent path -> the keys the schema knows under it, by their length. */
type KeyTable = Map<string, KnownKey[][]>;
const keyTables = new WeakMap<Record<string, string>, KeyTable>();

/**
 * Known keys for a schema's field types. A key string the parser made itself is new to V8 (it is
 * hashed and looked up at every use); a known key is one string that the object property stores
 * and the type lookups recognise at once.
 */
function keyTableOf(types: Record<string, string>): KeyTable {
  let table = keyTables.get(types);
  if (table) return table;
  table = new Map();
  for (const path of Object.keys(types)) {
    const dot = path.lastIndexOf('.');
    const key = path.slice(dot + 1);
    if (!/^[A-Za-z0-9_-]+$/.test(key)) continue;
    const parent = dot < 0 ? '' : path.slice(0, dot);
    let byLength = table.get(parent);
    if (!byLength) table.set(parent, (byLength = []));
    (byLength[key.length] ??= []).push({ key, path });
  }
  keyTables.set(types, table);
  return table;
}

/** Where each value sits, for locate(): a scalar is its offset; collections keep their children. */
type SourceNode = number | MapSource | SeqSource;
interface MapSource {
  offset: number;
  keys: string[];
  children: SourceNode[];
}
interface SeqSource {
  offset: number;
  items: SourceNode[];
}

/**
 * Reads `text` like readWithYamlPackage does, or returns undefined when the text is not in the
 * simple subset (read-yaml.ts then uses the `yaml` package). Never returns problems: any doubt is a bail-out.
 */
export function readYamlFast(file: string, text: string, options: ReadOptions): ReadResult | undefined {
  if (unsupportedText(text)) return undefined;
  const parser = new Parser(text, options.fieldTypes, options.maxNodes ?? DEFAULT_MAX_NODES);
  try {
    return { adverts: parser.documents(file), problems: [] };
  } catch (error) {
    if (error === UNSUPPORTED) return undefined;
    throw error;
  }
}

class Parser {
  /** Offset where each line starts, and where its content ends (before `\n` or `\r\n`). */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly count: number;
  /** Next line to read. */
  private line = 0;
  /** Source node of the value parsed last. */
  private node: SourceNode = 0;
  /** Value nodes in the current document (the slow path's budget counts the same nodes). */
  private nodes = 0;
  /** After a quoted scalar: the offset just past its closing quote. */
  private after = 0;
  private readonly knownKeys: KeyTable;

  constructor(
    private readonly text: string,
    private readonly types: Record<string, string>,
    private readonly maxNodes: number,
  ) {
    this.knownKeys = keyTableOf(types);
    const length = text.length;
    let start = 0;
    while (start < length) {
      const newline = text.indexOf('\n', start);
      let end = newline === -1 ? length : newline;
      if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
      this.starts.push(start);
      this.ends.push(end);
      start = newline === -1 ? length : newline + 1;
    }
    this.count = this.starts.length;
  }

  documents(file: string): AdvertSource[] {
    const adverts: AdvertSource[] = [];
    let line = this.nextContent(0);
    if (line < this.count && this.isMarker(line)) line = this.nextContent(line + 1);
    for (let index = 0; ; index++) {
      // An empty document (or a file of comments) is the slow path's to report or skip.
      if (line === this.count || this.isMarker(line) || this.indent(line) !== 0) bail();
      this.line = line;
      this.nodes = 0;
      this.countNode(0);
      const value = this.mapping(0, '', 0);
      adverts.push(this.advert(file, index, value, this.node));
      line = this.nextContent(this.line);
      if (line === this.count) return adverts;
      // mapping(0) stops only at the end or at a `---` line.
      line = this.nextContent(line + 1);
    }
  }

  private advert(file: string, index: number, value: Record<string, unknown>, root: SourceNode): AdvertSource {
    const starts = this.starts;
    return { file, index, value: withNormalReference(value), locate: (path) => position(starts, locateOffset(root, path)) };
  }

  /** A block mapping whose keys sit at `indent`, starting at this.line. */
  private mapping(indent: number, schemaKey: string, depth: number): Record<string, unknown> {
    const text = this.text;
    const out: Record<string, unknown> = {};
    const keys: string[] = [];
    const children: SourceNode[] = [];
    const known = this.knownKeys.get(schemaKey);
    let offset = -1;
    for (;;) {
      const line = this.nextContent(this.line);
      if (line === this.count || this.isMarker(line)) break;
      const ind = this.indent(line);
      if (ind < indent) break;
      if (ind > indent) bail(); // a continuation line or bad indentation
      const end = this.ends[line]!;
      const keyStart = this.starts[line]! + ind;
      let p = keyStart;
      if (text.charCodeAt(p) === DASH) bail(); // `- item` where a key belongs, or a key like `-x`
      while (p < end && inSet(KEY_CHAR, text.charCodeAt(p))) p++;
      if (p === keyStart || p === end || text.charCodeAt(p) !== COLON || p - keyStart > MAX_KEY_LENGTH) bail();
      const entry = knownKeyAt(known, text, keyStart, p);
      const key = entry ? entry.key : text.slice(keyStart, p);
      if (Object.prototype.hasOwnProperty.call(out, key)) bail(); // duplicate key: an error to report
      if (offset < 0) offset = keyStart;
      p++;
      if (p < end && text.charCodeAt(p) !== SPACE) bail();
      while (p < end && text.charCodeAt(p) === SPACE) p++;
      this.line = line + 1;
      const childKey = entry ? entry.path : schemaKey === '' ? key : `${schemaKey}.${key}`;
      this.countNode(depth + 1);
      const value =
        p === end || text.charCodeAt(p) === HASH ? this.nested(indent, p, childKey, depth + 1) : this.inline(p, end, line, indent, childKey, depth + 1);
      // An own data property even for __proto__ (whose assignment would set the prototype), as the slow path makes it.
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      keys.push(key);
      children.push(this.node);
    }
    if (offset < 0) bail();
    this.node = { offset, keys, children };
    return out;
  }

  /** The value of `key:` with nothing after it: a nested block, or empty (null) at `emptyOffset`. */
  private nested(parentIndent: number, emptyOffset: number, schemaKey: string, depth: number): unknown {
    const line = this.nextContent(this.line);
    if (line < this.count && !this.isMarker(line)) {
      const ind = this.indent(line);
      const item = this.isSeqItem(line, ind);
      if (ind > parentIndent) return item ? this.sequence(ind, schemaKey, depth) : this.mapping(ind, schemaKey, depth);
      // `skills:\n- a`: a sequence may sit at its key's indentation.
      if (ind === parentIndent && item) return this.sequence(ind, schemaKey, depth);
    }
    this.node = emptyOffset;
    // An empty value is null whatever the schema says (so no type lookup, which `__proto__` would confuse).
    return typedPlainScalar('', undefined);
  }

  /** A block sequence of scalars whose `-` sit at `indent`. */
  private sequence(indent: number, schemaKey: string, depth: number): unknown[] {
    const text = this.text;
    const values: unknown[] = [];
    const items: SourceNode[] = [];
    const itemKey = `${schemaKey}[]`;
    let offset = -1;
    for (;;) {
      const line = this.nextContent(this.line);
      if (line === this.count || this.isMarker(line)) break;
      const ind = this.indent(line);
      if (ind < indent) break;
      if (ind > indent) bail();
      const end = this.ends[line]!;
      let p = this.starts[line]! + ind;
      if (text.charCodeAt(p) !== DASH) break; // a key of the parent mapping: it decides
      if (offset < 0) offset = p;
      p++;
      if (p === end || text.charCodeAt(p) !== SPACE) bail(); // empty or nested item, or `-x`
      while (p < end && text.charCodeAt(p) === SPACE) p++;
      if (p === end || text.charCodeAt(p) === HASH) bail();
      this.line = line + 1;
      this.countNode(depth + 1);
      values.push(this.inline(p, end, line, indent, itemKey, depth + 1));
      items.push(this.node);
    }
    if (offset < 0) bail();
    this.node = { offset, items };
    return values;
  }

  /** A value written on the line after `key: ` or `- `, starting at `p`. */
  private inline(p: number, end: number, line: number, parentIndent: number, schemaKey: string, depth: number): unknown {
    const text = this.text;
    const first = text.charCodeAt(p);
    if (first === QUOTE_DOUBLE || first === QUOTE_SINGLE) {
      const value = first === QUOTE_DOUBLE ? this.doubleQuoted(p, end) : this.singleQuoted(p, end);
      this.expectLineEnd(this.after, end);
      this.node = p;
      return value;
    }
    if (first === BRACKET_OPEN || first === BRACE_OPEN) {
      const value = first === BRACKET_OPEN ? this.flowSequence(p, end, schemaKey, depth) : this.flowMapping(p, end, schemaKey, depth);
      this.expectLineEnd(this.after, end);
      return value;
    }
    if (first === PIPE || first === GREATER) return this.blockScalar(p, end, line, parentIndent);
    this.plainStart(p, end);
    let stop = end;
    for (let q = p; q < end; q++) {
      const c = text.charCodeAt(q);
      if (c === COLON) {
        // `a: b: c` (a nested mapping, an error here) or `b:` at the line end.
        if (q + 1 === end || text.charCodeAt(q + 1) === SPACE) bail();
      } else if (c === HASH && text.charCodeAt(q - 1) === SPACE) {
        stop = q;
        break;
      }
    }
    while (text.charCodeAt(stop - 1) === SPACE) stop--;
    this.node = p;
    return typedPlainScalar(text.slice(p, stop), this.fieldType(schemaKey));
  }

  /** A plain scalar may not start with an indicator; `-` only when text follows (`-5`). */
  private plainStart(p: number, end: number): void {
    const first = this.text.charCodeAt(p);
    if (!inSet(INDICATOR, first)) return;
    if (first === DASH && p + 1 < end && inSet(AFTER_DASH, this.text.charCodeAt(p + 1))) return;
    bail();
  }

  /** `[a, "b c", 'd']` on one line: scalars only. Sets this.after past the `]`. */
  private flowSequence(open: number, end: number, schemaKey: string, depth: number): unknown[] {
    const text = this.text;
    const itemKey = `${schemaKey}[]`;
    const values: unknown[] = [];
    const items: SourceNode[] = [];
    let p = this.skipSpaces(open + 1, end);
    if (p < end && text.charCodeAt(p) === BRACKET_CLOSE) {
      p++;
    } else {
      for (;;) {
        if (p >= end) bail();
        this.countNode(depth + 1);
        const c = text.charCodeAt(p);
        if (c === QUOTE_DOUBLE || c === QUOTE_SINGLE) {
          values.push(c === QUOTE_DOUBLE ? this.doubleQuoted(p, end) : this.singleQuoted(p, end));
          items.push(p);
          p = this.after;
        } else {
          this.plainStart(p, end);
          let q = p;
          while (q < end && !inSet(FLOW_STOP, text.charCodeAt(q))) q++;
          if (q === end || (text.charCodeAt(q) !== COMMA && text.charCodeAt(q) !== BRACKET_CLOSE)) bail();
          let stop = q;
          while (text.charCodeAt(stop - 1) === SPACE) stop--;
          values.push(typedPlainScalar(text.slice(p, stop), this.fieldType(itemKey)));
          items.push(p);
          p = q;
        }
        p = this.skipSpaces(p, end);
        const separator = p < end ? text.charCodeAt(p) : -1;
        if (separator === BRACKET_CLOSE) {
          p++;
          break;
        }
        if (separator !== COMMA) bail();
        p = this.skipSpaces(p + 1, end);
        if (p < end && text.charCodeAt(p) === BRACKET_CLOSE) bail(); // trailing comma: leave it to yaml
      }
    }
    this.after = p;
    this.node = { offset: open, items };
    return values;
  }

  /**
   * `{ min: 1, currency: "EUR", from: [US, CA], pay: { ... } }` on one line: plain keys followed by
   * `: `, values that are scalars, one-line flow sequences or flow mappings. Sets this.after past the `}`.
   */
  private flowMapping(open: number, end: number, schemaKey: string, depth: number): Record<string, unknown> {
    const text = this.text;
    const out: Record<string, unknown> = {};
    const keys: string[] = [];
    const children: SourceNode[] = [];
    const known = this.knownKeys.get(schemaKey);
    let p = this.skipSpaces(open + 1, end);
    if (p < end && text.charCodeAt(p) === BRACE_CLOSE) p++;
    else {
      for (;;) {
        const keyStart = p;
        if (p >= end || text.charCodeAt(p) === DASH) bail();
        while (p < end && inSet(KEY_CHAR, text.charCodeAt(p))) p++;
        // `key: ` only: `a:b` is one plain scalar in a flow, `a :` or `"a":` are left to yaml.
        if (p === keyStart || p + 1 >= end || text.charCodeAt(p) !== COLON || text.charCodeAt(p + 1) !== SPACE || p - keyStart > MAX_KEY_LENGTH) bail();
        const entry = knownKeyAt(known, text, keyStart, p);
        const key = entry ? entry.key : text.slice(keyStart, p);
        if (Object.prototype.hasOwnProperty.call(out, key)) bail(); // duplicate key: an error to report
        p = this.skipSpaces(p + 1, end);
        const childKey = entry ? entry.path : schemaKey === '' ? key : `${schemaKey}.${key}`;
        this.countNode(depth + 1);
        const c = p < end ? text.charCodeAt(p) : -1;
        let value: unknown;
        if (c === QUOTE_DOUBLE || c === QUOTE_SINGLE) {
          value = c === QUOTE_DOUBLE ? this.doubleQuoted(p, end) : this.singleQuoted(p, end);
          this.node = p;
          p = this.after;
        } else if (c === BRACE_OPEN || c === BRACKET_OPEN) {
          value = c === BRACE_OPEN ? this.flowMapping(p, end, childKey, depth + 1) : this.flowSequence(p, end, childKey, depth + 1);
          p = this.after;
        } else {
          // An empty value (`a: ,`) is left to yaml, as is anything a plain scalar in a flow cannot hold.
          if (p >= end || c === COMMA || c === BRACE_CLOSE) bail();
          this.plainStart(p, end);
          let q = p;
          while (q < end && !inSet(FLOW_STOP, text.charCodeAt(q))) q++;
          if (q === end || (text.charCodeAt(q) !== COMMA && text.charCodeAt(q) !== BRACE_CLOSE)) bail();
          let stop = q;
          while (text.charCodeAt(stop - 1) === SPACE) stop--;
          value = typedPlainScalar(text.slice(p, stop), this.fieldType(childKey));
          this.node = p;
          p = q;
        }
        // An own data property even for __proto__, as in mapping().
        if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
        keys.push(key);
        children.push(this.node);
        p = this.skipSpaces(p, end);
        const separator = p < end ? text.charCodeAt(p) : -1;
        if (separator === BRACE_CLOSE) {
          p++;
          break;
        }
        if (separator !== COMMA) bail();
        p = this.skipSpaces(p + 1, end);
        if (p < end && text.charCodeAt(p) === BRACE_CLOSE) bail(); // trailing comma: leave it to yaml
      }
    }
    this.after = p;
    this.node = { offset: open, keys, children };
    return out;
  }

  /** A one-line double-quoted scalar at `open`; sets this.after past the closing quote. */
  private doubleQuoted(open: number, end: number): string {
    const text = this.text;
    let out = '';
    let chunk = open + 1;
    let q = chunk;
    for (;;) {
      if (q >= end) bail(); // unterminated on this line (a multi-line scalar or an error)
      const c = text.charCodeAt(q);
      if (c === QUOTE_DOUBLE) {
        this.after = q + 1;
        return out + text.slice(chunk, q);
      }
      if (c !== BACKSLASH) {
        q++;
        continue;
      }
      out += text.slice(chunk, q);
      const escape = q + 1 < end ? text.charCodeAt(q + 1) : -1;
      q += 2;
      switch (escape) {
        case QUOTE_DOUBLE:
          out += '"';
          break;
        case BACKSLASH:
          out += '\\';
          break;
        case 0x2f:
          out += '/';
          break;
        case 0x6e:
          out += '\n';
          break;
        case 0x74:
          out += '\t';
          break;
        case 0x72:
          out += '\r';
          break;
        case 0x30:
          out += '\0';
          break;
        case 0x75: {
          const code = q + 4 <= end ? hex4(text, q) : -1;
          if (code < 0 || (code >= 0xd800 && code <= 0xdfff)) bail();
          out += String.fromCharCode(code);
          q += 4;
          break;
        }
        default:
          bail();
      }
      chunk = q;
    }
  }

  /** A one-line single-quoted scalar at `open` (`''` is a quote); sets this.after. */
  private singleQuoted(open: number, end: number): string {
    const text = this.text;
    let out = '';
    let chunk = open + 1;
    for (;;) {
      const close = text.indexOf("'", chunk);
      if (close === -1 || close >= end) bail();
      if (close + 1 < end && text.charCodeAt(close + 1) === QUOTE_SINGLE) {
        out += text.slice(chunk, close + 1);
        chunk = close + 2;
        continue;
      }
      this.after = close + 1;
      return out + text.slice(chunk, close);
    }
  }

  /**
   * `|` / `>` with optional `-` / `+` chomping (no indentation indicator), content lines more indented
   * than the parent mapping. Folding and chomping as YAML 1.2 says, more-indented lines (bullet lists
   * in a folded description) included; the unusual corners (whitespace-only lines deeper than the
   * content, no content, no final line break) are left to the slow path.
   */
  private blockScalar(header: number, end: number, line: number, parentIndent: number): string {
    const text = this.text;
    const literal = text.charCodeAt(header) === PIPE;
    let q = header + 1;
    const chomp = text.charCodeAt(q);
    const keep = chomp === PLUS;
    const strip = chomp === DASH;
    if (keep || strip) q++;
    this.expectLineEnd(q, end);

    let contentIndent = -1;
    let leadingSpaces = 0;
    for (let i = line + 1; i < this.count; i++) {
      const start = this.starts[i]!;
      const spaces = this.skipSpaces(start, this.ends[i]!) - start;
      if (start + spaces === this.ends[i]) {
        leadingSpaces = Math.max(leadingSpaces, spaces);
        continue;
      }
      contentIndent = spaces;
      break;
    }
    if (contentIndent <= parentIndent || leadingSpaces > contentIndent) bail();

    let body = '';
    let seenContent = false;
    let emptyLines = 0;
    // Folded: a line break between two lines at the content indentation becomes a space (or goes,
    // when empty lines follow it); one next to a more-indented line (a bullet list) is kept.
    let previousSpaced = false;
    let i = line + 1;
    for (; i < this.count; i++) {
      const start = this.starts[i]!;
      const lineEnd = this.ends[i]!;
      const spaces = this.skipSpaces(start, lineEnd) - start;
      if (start + spaces === lineEnd) {
        if (spaces > contentIndent) bail(); // whitespace that is content: an unusual corner
        emptyLines++;
        continue;
      }
      if (spaces < contentIndent) break;
      const spaced = spaces > contentIndent;
      const content = text.slice(start + contentIndent, lineEnd);
      if (!seenContent) body = '\n'.repeat(emptyLines) + content;
      else if (literal || spaced || previousSpaced) body += '\n'.repeat(emptyLines + 1) + content;
      else body += emptyLines === 0 ? ` ${content}` : '\n'.repeat(emptyLines) + content;
      previousSpaced = spaced;
      seenContent = true;
      emptyLines = 0;
    }
    // yaml adds a line break the file does not have; leave that corner to it.
    if (i === this.count && text.charCodeAt(text.length - 1) !== NEWLINE) bail();
    this.line = i;
    this.node = header;
    if (strip) return body;
    return keep ? `${body}\n${'\n'.repeat(emptyLines)}` : `${body}\n`;
  }

  /** Only spaces, then the line end or a `# comment`, may follow a value. */
  private expectLineEnd(p: number, end: number): void {
    if (p === end) return;
    if (this.text.charCodeAt(p) !== SPACE) bail();
    p = this.skipSpaces(p, end);
    if (p < end && this.text.charCodeAt(p) !== HASH) bail();
  }

  private skipSpaces(p: number, end: number): number {
    while (p < end && this.text.charCodeAt(p) === SPACE) p++;
    return p;
  }

  private indent(line: number): number {
    const start = this.starts[line]!;
    return this.skipSpaces(start, this.ends[line]!) - start;
  }

  /** First line at or after `line` that is neither blank nor a comment (this.count at the end). */
  private nextContent(line: number): number {
    const text = this.text;
    for (; line < this.count; line++) {
      const end = this.ends[line]!;
      const p = this.skipSpaces(this.starts[line]!, end);
      if (p < end && text.charCodeAt(p) !== HASH) return line;
    }
    return line;
  }

  /** A `---` line; `--- value` on one line is left to the slow path. */
  private isMarker(line: number): boolean {
    const text = this.text;
    const start = this.starts[line]!;
    const end = this.ends[line]!;
    if (end - start < 3 || text.charCodeAt(start) !== DASH || text.charCodeAt(start + 1) !== DASH || text.charCodeAt(start + 2) !== DASH) return false;
    if (start + 3 < end && text.charCodeAt(start + 3) !== SPACE) return false; // `---x`: the key check bails
    this.expectLineEnd(start + 3, end);
    return true;
  }

  private isSeqItem(line: number, ind: number): boolean {
    const p = this.starts[line]! + ind;
    return this.text.charCodeAt(p) === DASH && (p + 1 === this.ends[line] || this.text.charCodeAt(p + 1) === SPACE);
  }

  /**
   * The schema's type(s) for a path. A key like `constructor` or `__proto__` finds an inherited
   * property instead of a type string; that is the slow path's business.
   */
  private fieldType(schemaKey: string): string | undefined {
    const types = this.types[schemaKey];
    if (types !== undefined && typeof types !== 'string') bail();
    return types;
  }

  private countNode(depth: number): void {
    if (++this.nodes >= this.maxNodes || depth > MAX_DEPTH) bail();
  }
}

/** The schema's key written at text[start, end), when it is one (see keyTableOf). */
function knownKeyAt(known: KnownKey[][] | undefined, text: string, start: number, end: number): KnownKey | undefined {
  const candidates = known?.[end - start];
  if (candidates) for (let i = 0; i < candidates.length; i++) if (text.startsWith(candidates[i]!.key, start)) return candidates[i];
  return undefined;
}

function hex4(text: string, p: number): number {
  let code = 0;
  for (let i = p; i < p + 4; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit < 0) return -1;
    code = code * 16 + digit;
  }
  return code;
}

/** Same walk as the slow path: the node at `path`, or its nearest present ancestor. */
function locateOffset(root: SourceNode, path: readonly PathSegment[]): number {
  let node = root;
  for (const seg of path) {
    if (typeof node === 'number') break;
    let next: SourceNode | undefined;
    if ('keys' in node) {
      const i = node.keys.indexOf(String(seg));
      next = i < 0 ? undefined : node.children[i];
    } else if (/^\d+$/.test(String(seg))) {
      next = node.items[Number(seg)];
    }
    if (next === undefined) break;
    node = next;
  }
  return typeof node === 'number' ? node : node.offset;
}

/** 1-based line and column of an offset, as the yaml package's LineCounter computes them. */
function position(starts: readonly number[], offset: number): Position {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (starts[mid]! <= offset) low = mid + 1;
    else high = mid;
  }
  const line = Math.max(low, 1);
  return { line, column: offset - (starts[line - 1] ?? 0) + 1 };
}
