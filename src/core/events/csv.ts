/**
 * CSV events (RFC 4180): a header `application_id,kind,data` (data optional, columns in any order),
 * then a row per event. Quoted fields may hold commas, doubled quotes and line breaks; lines end
 * in CRLF or LF. A non-empty data cell is a JSON object.
 */
import type { Position } from '../adverts/types.js';
import { sanitize } from '../util/sanitize.js';
import { EXACT_HINT, firstInexactJsonNumber } from '../util/exact-numbers.js';
import { didYouMean } from '../util/did-you-mean.js';
import { fieldProblem, fileProblem } from './findings.js';
import type { Finding } from '../errors/findings.js';
import { ENTRY_FIELDS, type RawField, type ReadItem, type ReadResult } from './types.js';

export interface CsvField {
  value: string;
  /** Where the field starts (its opening quote, when quoted). */
  position: Position;
  quoted: boolean;
}

export interface CsvRecord {
  position: Position;
  fields: CsvField[];
}

export interface CsvError {
  position: Position;
  message: string;
}

/**
 * Splits CSV text into records; problems are reported and parsing goes on where it can. `firstLine`
 * is the number of the text's first line (a piece of a file); `nextLine` the number after its end.
 */
export function parseCsv(text: string, firstLine = 1): { records: CsvRecord[]; errors: CsvError[]; nextLine: number } {
  const records: CsvRecord[] = [];
  const errors: CsvError[] = [];
  let i = 0;
  let line = firstLine;
  let column = 1;
  let fields: CsvField[] = [];
  const at = (): Position => ({ line, column });
  const isBreak = (c: string | undefined) => c === '\n' || c === '\r';
  /** Consumes one line break (CRLF, LF or a lone CR) at i. */
  const consumeBreak = (): string => {
    const crlf = text[i] === '\r' && text[i + 1] === '\n';
    const brk = crlf ? '\r\n' : text[i]!;
    i += brk.length;
    line++;
    column = 1;
    return brk;
  };
  const endRecord = () => {
    const blankLine = fields.length === 1 && !fields[0]!.quoted && fields[0]!.value === '';
    if (!blankLine) records.push({ position: fields[0]!.position, fields });
    fields = [];
  };

  while (i < text.length || fields.length > 0) {
    const start = at();
    let value = '';
    let quoted = false;
    if (text[i] === '"') {
      quoted = true;
      i++;
      column++;
      let closed = false;
      while (i < text.length) {
        const c = text[i]!;
        if (c === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            column += 2;
            continue;
          }
          i++;
          column++;
          closed = true;
          break;
        }
        if (isBreak(c)) value += consumeBreak();
        else {
          value += c;
          i++;
          column++;
        }
      }
      if (!closed) {
        errors.push({ position: start, message: 'a quoted field is never closed: its opening quote has no matching closing quote' });
        fields.push({ value, position: start, quoted });
        endRecord();
        break;
      }
      if (i < text.length && text[i] !== ',' && !isBreak(text[i])) {
        errors.push({
          position: at(),
          message: 'text after a closing quote: a field that starts with a quote must end with one (write a quote inside it as "")',
        });
        while (i < text.length && text[i] !== ',' && !isBreak(text[i])) {
          i++;
          column++;
        }
      }
    } else {
      const from = i;
      while (i < text.length && text[i] !== ',' && !isBreak(text[i])) {
        if (text[i] === '"')
          errors.push({ position: at(), message: 'a quote inside an unquoted field: put the whole field in double quotes and write each quote in it as ""' });
        i++;
        column++;
      }
      value = text.slice(from, i);
    }
    fields.push({ value, position: start, quoted });
    if (text[i] === ',') {
      i++;
      column++;
      continue;
    }
    if (i < text.length) consumeBreak();
    endRecord();
  }
  return { records, errors, nextLine: line };
}

const FIELDS: readonly string[] = ENTRY_FIELDS;
const REQUIRED_COLUMNS = ['application_id', 'kind'];

export function readCsv(file: string, text: string): ReadResult {
  const result: ReadResult = { entries: [], problems: [] };
  const { records, errors } = parseCsv(text);
  for (const e of errors) result.problems.push(csvSyntax(file, e));
  const reader = new CsvReader(file);
  for (const record of records) {
    const item = reader.record(record);
    if (item.entry) result.entries.push(item.entry);
    for (const p of item.problems) result.problems.push(p);
  }
  return result;
}

export const csvSyntax = (file: string, e: CsvError) => fileProblem(file, e.position, 'csv_syntax', e.message);

/** Reads CSV records one at a time: the header first, then a row per event. */
export class CsvReader {
  private columns: string[] | undefined;
  private readonly known = new Map<string, number>();
  private usable = true;

  constructor(private readonly file: string) {}

  record(record: CsvRecord): ReadItem {
    if (this.columns === undefined) return this.header(record);
    // Without a required column every row would repeat the same complaint.
    if (!this.usable) return { problems: [] };
    return this.row(record, this.columns.length);
  }

  private header(header: CsvRecord): ReadItem {
    const { file, known } = this;
    const problems: Finding[] = [];
    const columns = (this.columns = header.fields.map((f) => f.value.trim()));
    for (const [index, name] of columns.entries()) {
      const cell = header.fields[index]!;
      if (!FIELDS.includes(name)) {
        const hint = didYouMean(name, FIELDS);
        const text = `is not a known column (the columns are ${FIELDS.join(', ')})${hint ? `; did you mean ${hint}?` : ''}`;
        problems.push(fieldProblem(file, cell.position, sanitize(name), hint ? `unknown_field:${hint}` : 'unknown_field', text));
      } else if (known.has(name)) {
        problems.push(fileProblem(file, cell.position, 'duplicate_column', `the header has the column ${name} more than once`));
      } else known.set(name, index);
    }
    const absent = REQUIRED_COLUMNS.filter((name) => !known.has(name));
    for (const name of absent) {
      problems.push(
        fieldProblem(
          file,
          header.position,
          name,
          'missing',
          `has no column in the header; the first line must name the columns, like application_id,kind,data`,
        ),
      );
    }
    this.usable = absent.length === 0;
    return { problems };
  }

  private row(row: CsvRecord, width: number): ReadItem {
    const { file } = this;
    const problems: Finding[] = [];
    if (row.fields.length !== width) {
      problems.push(
        fileProblem(
          file,
          row.position,
          'csv_fields',
          `the row has ${row.fields.length} ${row.fields.length === 1 ? 'field' : 'fields'} but the header has ${width} (a value holding a comma must be in double quotes)`,
        ),
      );
      return { problems };
    }
    const fields = new Map<string, RawField>();
    for (const [name, index] of this.known) {
      const cell = row.fields[index]!;
      if (name !== 'data') {
        fields.set(name, { value: cell.value, text: cell.value, position: cell.position });
        continue;
      }
      if (cell.value.trim() === '') continue; // no data for this event
      try {
        const value: unknown = JSON.parse(cell.value);
        const inexact = firstInexactJsonNumber(cell.value);
        if (inexact) problems.push(fieldProblem(file, cell.position, 'data', 'invalid', `${inexact.reason}; ${EXACT_HINT}`));
        else fields.set(name, { value, position: cell.position });
      } catch (error) {
        const reason = (error as Error).message.replace(/ in JSON at position \d+.*$/, '');
        problems.push(
          fieldProblem(file, cell.position, 'data', 'invalid', `is not valid JSON (${sanitize(reason)}); write an object like "{""reason"": ""filled""}"`),
        );
      }
    }
    return { entry: { position: row.position, fields }, problems };
  }
}
