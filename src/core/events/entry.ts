/**
 * The rules every entry must meet before anything is sent, reported in the service's identifiers:
 * application_id a non-blank string, kind one of the three, data an object when present, no other
 * fields.
 */
import { unusableIdentifier } from '../adverts/reference.js';
import type { Position } from '../adverts/types.js';
import type { Finding } from '../errors/findings.js';
import { sanitize } from '../util/sanitize.js';
import { didYouMean } from '../util/did-you-mean.js';
import { fieldProblem } from './findings.js';
import { ENTRY_FIELDS, EVENT_KINDS, type EventEntry, type RawEntry, type RawField } from './types.js';

export interface CheckResult {
  /** Valid entries, in file order; complete only when `findings` is empty. */
  entries: EventEntry[];
  findings: Finding[];
}

const FIELDS: readonly string[] = ENTRY_FIELDS;
const KINDS: readonly string[] = EVENT_KINDS;

export function checkEntries(file: string, raws: readonly RawEntry[]): CheckResult {
  const result: CheckResult = { entries: [], findings: [] };
  for (const raw of raws) {
    const checked = checkEntry(file, raw, result.entries.length);
    if (checked.entry) result.entries.push(checked.entry);
    for (const f of checked.findings) result.findings.push(f);
  }
  return result;
}

/** Checks one entry; `index` is its place among the file's valid entries. */
export function checkEntry(file: string, raw: RawEntry, index: number): { entry?: EventEntry; findings: Finding[] } {
  const problems: Finding[] = [];
  const problem = (field: RawField | undefined, path: string, message: string, text?: string): undefined => {
    problems.push(fieldProblem(file, field?.position ?? raw.position, path, message, text));
    return undefined;
  };

  for (const [name, field] of raw.fields) {
    if (FIELDS.includes(name)) continue;
    const hint = didYouMean(name, FIELDS);
    problem(
      field,
      sanitize(name),
      hint ? `unknown_field:${hint}` : 'unknown_field',
      `is not a known field (the fields are ${FIELDS.join(', ')})${hint ? `; did you mean ${hint}?` : ''}`,
    );
  }

  const idField = raw.fields.get('application_id');
  const id = applicationId(idField, (message, text) => problem(idField, 'application_id', message, text));
  const kindField = raw.fields.get('kind');
  const kind = eventKind(kindField, (message, text) => problem(kindField, 'kind', message, text));
  const dataField = raw.fields.get('data');
  const data = eventData(dataField, (message, text) => problem(dataField, 'data', message, text));

  if (problems.length > 0 || id === undefined || kind === undefined) return { findings: problems };
  const fieldPositions = new Map<string, Position>();
  for (const [name, field] of raw.fields) fieldPositions.set(name, field.position);
  return {
    entry: { index, file, position: raw.position, application_id: id, kind, ...(data === undefined ? {} : { data }), fieldPositions },
    findings: [],
  };
}

/** Records a problem with the field; returns undefined so a check can `return report(...)`. */
type Report = (message: string, text?: string) => undefined;

function applicationId(field: RawField | undefined, report: Report): string | undefined {
  if (field === undefined) return report('missing', 'is missing (required): the id from the job application callback');
  const { value } = field;
  if (value === null || (typeof value === 'string' && value.trim() === '')) return report('blank');
  let id: string;
  if (typeof value === 'string') id = value;
  else if (typeof value === 'number') {
    // A YAML or CSV id written as a number is an id, not a quantity: keep it as written.
    if (field.text !== undefined) id = field.text;
    else if (Number.isSafeInteger(value)) id = String(value);
    else return report('invalid', 'is a number that cannot be kept exactly; write the id as a string');
  } else return report('invalid', 'must be a string (the id from the job application callback)');
  // The URL parser would treat these as path navigation, not as an id.
  if (id === '.' || id === '..') return report('invalid', `"${id}" cannot be used in a URL`);
  const unusable = unusableIdentifier(id, 'application id');
  if (unusable !== undefined) return report('invalid', unusable);
  return id;
}

function eventKind(field: RawField | undefined, report: Report): string | undefined {
  if (field === undefined) return report('missing', `is missing (required): one of ${KINDS.join(', ')}`);
  const { value } = field;
  if (value === null || (typeof value === 'string' && value.trim() === '')) return report('blank', `must not be blank: one of ${KINDS.join(', ')}`);
  if (typeof value === 'string' && KINDS.includes(value)) return value;
  const written = typeof value === 'string' ? value : (field.text ?? '');
  const hint = written ? (didYouMean(written, KINDS) ?? didYouMean(`recruiter_${written}`, KINDS)) : undefined;
  return report('inclusion', `is not one of the permitted values (${KINDS.join(', ')})${hint ? `; did you mean ${hint}?` : ''}`);
}

function eventData(field: RawField | undefined, report: Report): Record<string, unknown> | undefined {
  if (field === undefined) return undefined;
  const { value } = field;
  if (value === null) return report('blank', 'is empty: give an object (key: value pairs) or leave data out');
  if (typeof value !== 'object' || Array.isArray(value)) {
    return report('invalid', `must be an object (key: value pairs), not ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}`);
  }
  if (!jsonSafe(value, 0)) return report('invalid', 'holds a value JSON cannot carry (an infinite or not-a-number value, or nesting deeper than 64 levels)');
  return value as Record<string, unknown>;
}

/** True when the value survives JSON as it is (YAML can write .inf and .nan; JSON would send null). */
function jsonSafe(value: unknown, depth: number): boolean {
  if (depth > 64) return false;
  if (typeof value === 'number') return Number.isFinite(value);
  if (value === null || typeof value !== 'object') return true;
  return Object.values(value).every((v) => jsonSafe(v, depth + 1));
}
