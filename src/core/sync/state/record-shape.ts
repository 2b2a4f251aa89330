/**
 * The shape checks of what is read from the state's file and its log: each names the field that is
 * wrong and what was expected, for the error that points at it.
 */
import { sanitize } from '../../util/sanitize.js';

export type Problem = { field?: string; what: string };

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export const quote = (text: string) => JSON.stringify(sanitize(text));

/** A record as a version 1 file and the log hold it: its field hashes in an object. */
export function recordProblem(record: unknown): Problem | undefined {
  const common = commonProblem(record, ['file', 'hash', 'published_at']);
  if (common || !isObject(record)) return common;
  if (!isObject(record.fields)) return { field: 'fields', what: `expected an object of field hashes, not ${describe(record.fields)}` };
  for (const [name, hash] of Object.entries(record.fields)) {
    if (typeof hash !== 'string') return { field: `fields[${quote(name)}]`, what: `expected a string, not ${describe(hash)}` };
  }
  return undefined;
}

/** A version 2 record: its field hashes are one string with at most a hash per name of its service. */
export function packedRecordProblem(record: unknown, names: number): Problem | undefined {
  const common = commonProblem(record, ['file', 'hash', 'fields', 'published_at']);
  if (common || !isObject(record)) return common;
  const fields = record.fields as string;
  if (fields !== '' && !(slotsIn(fields) <= names)) {
    return { field: 'fields', what: `expected at most ${names} field hashes (the service's "fields") separated by single spaces, - for none` };
  }
  return undefined;
}

/**
 * The slots of a non-empty field string, NaN unless they are separated by single spaces and hold
 * no other white space (a loop: a regular expression took a fifth of the state's loading time).
 */
function slotsIn(fields: string): number {
  let slots = 1;
  let previous = 32;
  for (let i = 0; i < fields.length; i++) {
    const c = fields.charCodeAt(i);
    if (c === 32) {
      if (previous === 32) return NaN;
      slots++;
    } else if ((c >= 9 && c <= 13) || (c >= 0xa0 && /\s/.test(fields[i]!))) return NaN;
    previous = c;
  }
  return previous === 32 ? NaN : slots;
}

/** What both versions' records hold alike: these fields strings, the document's index, the optional text hash and group. */
function commonProblem(record: unknown, strings: readonly string[]): Problem | undefined {
  if (!isObject(record)) return { what: `expected a record {"file", "document", "hash", "fields", "published_at"}, not ${describe(record)}` };
  for (const field of strings) {
    if (typeof record[field] !== 'string') return { field, what: `expected a string, not ${describe(record[field])}` };
  }
  if (!Number.isInteger(record.document) || (record.document as number) < 0)
    return { field: 'document', what: `expected a whole number, not ${describe(record.document)}` };
  if (record.text_hash !== undefined && typeof record.text_hash !== 'string')
    return { field: 'text_hash', what: `expected a string, not ${describe(record.text_hash)}` };
  if (record.group !== undefined && typeof record.group !== 'string') return { field: 'group', what: `expected a string, not ${describe(record.group)}` };
  return undefined;
}
