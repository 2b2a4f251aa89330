/**
 * YAML events: one document holding a list of mappings. Positions come from the nodes' ranges
 * through a LineCounter; an application id written as a plain number keeps its text (`007`).
 */
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node, type ParsedNode } from 'yaml';
import type { Position } from '../adverts/types.js';
import { sanitize } from '../util/sanitize.js';
import { aliasExcess } from '../util/yaml-aliases.js';
import { EXACT_HINT, firstInexactYamlNumber } from '../util/exact-numbers.js';
import { fileProblem } from './findings.js';
import { unsupportedTag } from '../adverts/yaml-package-reader.js';
import type { RawField, ReadResult } from './types.js';

/** Bound on alias expansion inside data (defends against alias bombs). */
const MAX_ALIAS_COUNT = 100;

export function readYaml(file: string, text: string): ReadResult {
  const result: ReadResult = { entries: [], problems: [] };
  const lineCounter = new LineCounter();
  const position = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  // resolveKnownTags: false leaves !!timestamp, !!binary, ... unresolved: refused below, as in adverts.
  const docs = parseAllDocuments(text, { resolveKnownTags: false, uniqueKeys: true, prettyErrors: true, lineCounter, strict: true });
  const list = (Array.isArray(docs) ? docs : []).filter((d) => !isEmptyDocument(d));
  for (const doc of list) {
    for (const error of doc.errors) {
      const code = error.code === 'DUPLICATE_KEY' ? 'duplicate_key' : 'yaml_syntax';
      result.problems.push(fileProblem(file, position(error.pos[0]), code, error.message.split('\n')[0]!));
    }
    for (const warning of doc.warnings) {
      if (warning.code === 'TAG_RESOLVE_FAILED')
        result.problems.push(fileProblem(file, position(warning.pos[0]), 'yaml_tag', unsupportedTag(text.slice(warning.pos[0], warning.pos[1]))));
    }
  }
  if (result.problems.length > 0) return result;
  if (list.length > 1) {
    result.problems.push(
      fileProblem(file, position(list[1]!.range[0]), 'several_documents', `the file holds ${list.length} YAML documents; put every event in one list`),
    );
    return result;
  }
  const doc = list[0];
  if (!doc) return result;
  // Before any value is converted: aliases may not repeat more text than the shared bound.
  const excess = aliasExcess(doc);
  if (excess) {
    result.problems.push(fileProblem(file, position(excess.offset), 'too_complex', excess.message));
    return result;
  }
  const root = doc.contents as ParsedNode;
  if (!isSeq(root)) {
    const found = isMap(root) ? 'a mapping' : 'a single value';
    result.problems.push(fileProblem(file, position(root.range[0]), 'not_a_list', `the file holds ${found}, not a list of events (- application_id: ...)`));
    return result;
  }
  for (const [index, item] of root.items.entries()) {
    const node = item as ParsedNode | null;
    if (!isMap(node)) {
      const where = node ? position(node.range[0]) : position(root.range[0]);
      result.problems.push(fileProblem(file, where, 'not_a_mapping', `entry ${index + 1} of the list is not a mapping (application_id: ..., kind: ...)`));
      continue;
    }
    const fields = new Map<string, RawField>();
    for (const pair of node.items) {
      const key = pair.key as ParsedNode | null;
      const value = pair.value as ParsedNode | null;
      const name = key !== null && isScalar(key) ? String(key.value) : sanitize(String(key));
      const at = position((value ?? key)?.range[0] ?? node.range[0]);
      const inexact = value === null || isScalar(value) ? undefined : firstInexactYamlNumber(value, doc);
      if (inexact) {
        result.problems.push(fileProblem(file, position(inexact.offset), 'inexact_number', `${sanitize(name)}: ${inexact.reason}; ${EXACT_HINT}`));
        continue;
      }
      try {
        fields.set(name, fieldOf(value, doc, at));
      } catch (error) {
        // toJS refuses an alias expansion beyond the bound.
        result.problems.push(fileProblem(file, at, 'too_complex', `${sanitize(name)}: ${(error as Error).message.split('\n')[0]}`));
      }
    }
    result.entries.push({ position: position(node.range[0]), fields });
  }
  return result;
}

function fieldOf(node: ParsedNode | null, doc: Document, position: Position): RawField {
  if (node === null) return { value: null, position };
  if (isScalar(node)) {
    const text = node.type === 'PLAIN' && typeof node.source === 'string' ? node.source : undefined;
    return { value: node.value, ...(text === undefined ? {} : { text }), position };
  }
  return { value: (node as Node).toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT }), position };
}

function isEmptyDocument(doc: Document.Parsed): boolean {
  const root = doc.contents as ParsedNode | null;
  return doc.errors.length === 0 && (root === null || (isScalar(root) && root.type === 'PLAIN' && root.source === ''));
}
