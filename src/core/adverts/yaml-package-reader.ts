/**
 * The `yaml` package's reading of advert text: one advert per YAML document, scalars typed by the
 * schema, and a lazy source map (positions are computed only for the paths an error names). Every
 * problem becomes a LoadProblem with a position, never an exception. It is the authority the fast
 * reader (fast-yaml.ts) must agree with; which of the two reads a text is decided in read-yaml.ts.
 */
import {
  isAlias,
  isCollection,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  YAMLParseError,
  type Alias,
  type Document,
  type Node,
  type ParsedNode,
} from 'yaml';
import type { AdvertSource, LoadProblem, PathSegment, Position, ReadOptions, ReadResult } from './types.js';
import { typedPlainScalar } from './scalars.js';
import { sanitize } from '../util/sanitize.js';
import { withNormalReference } from './reference.js';
import { findIndentationProblems, type IndentationProblem } from './indentation.js';
import { explainYamlError } from './yaml-errors.js';
import { aliasBombMessage, MAX_ALIASED_CHARACTERS } from '../util/yaml-aliases.js';

const MAX_DEPTH = 64;

/** Parser errors that an indentation mistake causes (and findIndentationProblems may explain). */
const INDENTATION_ERRORS = new Set(['BAD_INDENT', 'BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY', 'MISSING_CHAR', 'UNEXPECTED_TOKEN']);

class ExpansionLimit extends Error {
  /** Where the alias being expanded is written, when the limit was passed inside one. */
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(message);
  }
}

/** The bound every YAML input shares (util/yaml-aliases.ts), spent here as the document is converted. */
export { MAX_ALIASED_CHARACTERS };

/** What expanding a document may still cost; `alias` is the outermost alias being expanded. */
interface Budget {
  readonly limit: number;
  nodes: number;
  characters: number;
  alias?: Alias;
}

/** The largest mapping read again with the `yaml` package's check of unique keys (quadratic). */
const RECHECKED_MAPPING_SIZE = 2_000;

/** Every key written a second time in its mapping (scalar keys, as the package compares them), and the largest mapping's size. */
function repeatedKeys(docs: readonly Document.Parsed[]): { found: { doc: Document.Parsed; key: Node }[]; largest: number } {
  const found: { doc: Document.Parsed; key: Node }[] = [];
  let largest = 0;
  for (const doc of docs) {
    // A stack, not recursion: nesting is as deep as the text makes it.
    const stack: unknown[] = [doc.contents];
    while (stack.length > 0) {
      const node = stack.pop();
      if (isMap(node)) {
        largest = Math.max(largest, node.items.length);
        const seen = new Set<unknown>();
        for (const pair of node.items) {
          const key = pair.key;
          if (isScalar(key)) {
            if (seen.has(key.value)) found.push({ doc, key });
            else seen.add(key.value);
          } else stack.push(key);
          stack.push(pair.value);
        }
      } else if (isSeq(node)) {
        for (const item of node.items) stack.push(item);
      }
    }
  }
  return { found, largest };
}

/** Reads every document of `text` with the `yaml` package (see read-yaml.ts for when). */
export function readWithYamlPackage(file: string, text: string, options: ReadOptions): ReadResult {
  let lineCounter = new LineCounter();
  // resolveKnownTags: false, so !!timestamp, !!binary, !!set ... stay unresolved and are refused below.
  const parse = (uniqueKeys: boolean) =>
    parseAllDocuments(text, { schema: 'failsafe', resolveKnownTags: false, uniqueKeys, prettyErrors: true, lineCounter, strict: true });
  // The package's own check of unique keys compares each key with every earlier one (a mapping of
  // 300,000 keys took minutes): keys are checked here, in one pass, and only a text with a
  // repeated key is read again with the package's check, for its account of the mistake, when
  // its mappings are small enough for that to be quick.
  let docs = parse(false);
  const repeated = Array.isArray(docs) ? repeatedKeys(docs) : { found: [], largest: 0 };
  if (repeated.found.length > 0) {
    if (repeated.largest <= RECHECKED_MAPPING_SIZE) {
      lineCounter = new LineCounter();
      docs = parse(true);
    } else {
      for (const { doc, key } of repeated.found)
        doc.errors.push(new YAMLParseError(key.range ? [key.range[0], key.range[1]] : [0, 0], 'DUPLICATE_KEY', 'Map keys must be unique'));
    }
  }
  const position = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const adverts: AdvertSource[] = [];
  const problems: LoadProblem[] = [];
  let indentation: IndentationProblem[] | undefined;
  const list = Array.isArray(docs) ? docs : [];
  for (const [index, doc] of list.entries()) {
    if (doc.errors.length > 0) {
      // Indentation mistakes in plain words, at the line that is wrong, in place of the parser's account.
      let explained: IndentationProblem[] = [];
      if (doc.errors.some((e) => INDENTATION_ERRORS.has(e.code))) {
        indentation ??= findIndentationProblems(text, options.fieldTypes);
        const [from, to] = [position(doc.range[0]).line, position(doc.range[2]).line];
        explained = indentation.filter((p) => p.position.line >= from && p.position.line <= to);
      }
      for (const error of doc.errors) {
        if (explained.length > 0 && INDENTATION_ERRORS.has(error.code)) continue;
        problems.push({ file, position: position(error.pos[0]), ...explainYamlError(error, doc, position, text), code: yamlCode(error.code) });
      }
      for (const p of explained) problems.push({ file, position: p.position, message: p.message, code: 'yaml_indentation' });
      continue;
    }
    const tags = doc.warnings.filter((w) => w.code === 'TAG_RESOLVE_FAILED');
    if (tags.length > 0) {
      for (const w of tags) problems.push({ file, position: position(w.pos[0]), message: unsupportedTag(text.slice(w.pos[0], w.pos[1])), code: 'yaml_tag' });
      continue;
    }
    const root = doc.contents as ParsedNode | null;
    if (root === null || (isScalar(root) && root.type === 'PLAIN' && root.source === '')) continue;
    if (!isMap(root)) {
      const found = isSeq(root) ? 'a list' : isScalar(root) ? 'a single value' : 'something else';
      problems.push({
        file,
        position: position(root.range[0]),
        message: `document ${index + 1} is ${found}, not a mapping of advert fields (reference: ..., title: ...)`,
        code: 'not_a_mapping',
      });
      continue;
    }
    try {
      const limit = options.maxNodes ?? 100_000;
      const budget: Budget = { limit, nodes: limit, characters: MAX_ALIASED_CHARACTERS };
      const value = withNormalReference(toValue(root, doc, [], options.fieldTypes, budget, 0) as Record<string, unknown>);
      adverts.push({ file, index, value, locate: (path) => position(locateOffset(doc, root, path)) });
    } catch (error) {
      if (!(error instanceof ExpansionLimit)) throw error;
      problems.push({ file, position: position(error.offset ?? root.range[0]), message: error.message, code: 'too_complex' });
    }
  }
  if (adverts.length === 0 && problems.length === 0) {
    problems.push({ file, position: { line: 1, column: 1 }, message: 'the file holds no advert (it is empty or only comments)', code: 'empty' });
  }
  return { adverts, problems };
}

/**
 * Explicit tags other than those of the reader's schema (adverts: !!str, !!map, !!seq) are refused:
 * they make the same file read differently by reader and machine (!!timestamp by time zone).
 */
export function unsupportedTag(tag: string): string {
  const shown = sanitize(tag.split(/\s/)[0]!.slice(0, 40));
  return `the YAML tag ${shown} is not supported: values are read as the schema says (a date stays the text YYYY-MM-DD); remove the tag (!!str is accepted, to keep a value as text)`;
}

function yamlCode(code: string): string {
  return code === 'DUPLICATE_KEY' ? 'duplicate_key' : 'yaml_syntax';
}

/** Schema key for a path: `location.country`, `skills[]`. */
function schemaKey(path: readonly PathSegment[]): string {
  let key = '';
  for (const seg of path) key = typeof seg === 'number' ? `${key}[]` : key ? `${key}.${seg}` : seg;
  return key;
}

function toValue(node: Node | null, doc: Document, path: PathSegment[], types: Record<string, string>, budget: Budget, depth: number): unknown {
  if (--budget.nodes < 0) {
    const alias = budget.alias;
    throw new ExpansionLimit(
      alias
        ? `the alias *${sanitize(alias.source)} expands the document to too many values (over ${budget.limit}: an alias bomb?); write the value out instead`
        : `the document holds too many values (over ${budget.limit}): an advert is far smaller; check that this is an advert file`,
      alias?.range?.[0],
    );
  }
  if (depth > MAX_DEPTH) throw new ExpansionLimit(`the document nests deeper than ${MAX_DEPTH} levels`, budget.alias?.range?.[0]);
  if (node === null) return null;
  if (isAlias(node)) {
    const target = node.resolve(doc);
    if (!target) throw new ExpansionLimit(`the alias *${node.source} refers to no anchor`, node.range?.[0]);
    if (budget.alias) return toValue(target as Node, doc, path, types, budget, depth + 1);
    budget.alias = node;
    try {
      return toValue(target as Node, doc, path, types, budget, depth + 1);
    } finally {
      budget.alias = undefined;
    }
  }
  if (isScalar(node)) spend(budget, node);
  if (isScalar(node)) {
    const text = String(node.value);
    // Quoted, block and explicitly tagged (!!str, !) scalars are text as written.
    if (node.type !== 'PLAIN' || node.tag !== undefined) return text;
    const key = schemaKey(path);
    // Own properties only: a key like `constructor` must not find Object.prototype's.
    return typedPlainScalar(text, Object.hasOwn(types, key) ? types[key] : undefined);
  }
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const key = keyNode === null ? '' : isScalar(keyNode) ? String(spend(budget, keyNode).value) : keyText(toValue(keyNode, doc, [], {}, budget, depth + 1));
      // Own data property even for keys like __proto__.
      Object.defineProperty(out, key, {
        value: toValue(pair.value as Node | null, doc, [...path, key], types, budget, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  if (isSeq(node)) {
    return node.items.map((item, i) => toValue(item as Node | null, doc, [...path, i], types, budget, depth + 1));
  }
  return null;
}

/** A complex key (`? [a, b]`, `? {k: v}`) as messages name it: its value as JSON, not `[object Object]`. */
const keyText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** Text repeated by an alias costs what it would cost written out, in the request and in memory. */
function spend<T extends Node>(budget: Budget, scalar: T & { value: unknown }): T & { value: unknown } {
  const alias = budget.alias;
  if (alias && (budget.characters -= String(scalar.value).length) < 0) {
    throw new ExpansionLimit(aliasBombMessage(alias.source), alias.range?.[0]);
  }
  return scalar;
}

/** Offset of the node at `path`, or of its nearest present ancestor. */
function locateOffset(doc: Document, root: ParsedNode, path: readonly PathSegment[]): number {
  let node: Node = root;
  for (const seg of path) {
    let current: Node = node;
    for (let hops = 0; isAlias(current) && hops < MAX_DEPTH; hops++) current = (current.resolve(doc) as Node | undefined) ?? current;
    let next: Node | null | undefined;
    if (isMap(current)) {
      const pair = current.items.find(
        (p) => (isScalar(p.key) ? String(p.key.value) : isCollection(p.key) ? keyText(p.key.toJSON()) : undefined) === String(seg),
      );
      next = pair ? ((pair.value as Node | null) ?? (pair.key as Node)) : undefined;
    } else if (isSeq(current) && /^\d+$/.test(String(seg))) {
      next = current.items[Number(seg)] as Node | undefined;
    }
    if (!next) break;
    node = next;
  }
  return node.range?.[0] ?? root.range[0];
}
