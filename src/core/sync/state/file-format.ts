/**
 * The state file's format (JSON), read and written. The service key is the normalised base URL,
 * or `sandbox`. Per service, `fields` names the field hashes' places (new names are added at the
 * end, so a record's line only changes with the record); a record's `fields` holds one short hash
 * per name, `-` where the advert has no such field. One record per line, sorted by reference: a
 * change to one advert is one line in a diff. The last line sums the file up (see state-check.ts).
 *
 * Version 1 (an earlier release's: field hashes as an object, services keyed by the URL as spelt)
 * is read too; the file is written as version 2 the next time something is recorded.
 */
import { createHash, type Hash } from 'node:crypto';
import { ConfigError } from '../../errors/failures.js';
import { canonicalServiceKey } from '../../config/service-key.js';
import { writeAll } from '../../storage/replace.js';
import { AdvertSetHash, bytesHashAlgorithm, checkLine, STATE_VERSION } from '../state-check.js';
import { FIX } from './files.js';
import { FieldTable, StoredRecord, textHashOf, type AdvertRecord, type StateRecords } from './model.js';
import { describe, isObject, packedRecordProblem, quote, recordProblem } from './record-shape.js';

export { STATE_VERSION };
const KNOWN_VERSIONS = [1, 2];

export interface StateFile {
  version: number;
  /** service key (base URL, or `sandbox`) -> field names, reference -> record */
  services: Record<string, { fields: string[]; adverts: Record<string, StoredRecordJson> }>;
}

export interface StoredRecordJson {
  file: string;
  document: number;
  hash: string;
  text_hash?: string;
  fields: string;
  published_at: string;
}

export function recordJson(r: StoredRecord): StoredRecordJson {
  return { file: r.file, document: r.document, hash: r.hash, ...textHashOf(r), fields: r.packed, published_at: r.published_at };
}

/** The records as the file holds them; Object.fromEntries makes own properties, `__proto__` included. */
export function stateFileOf(records: StateRecords): StateFile {
  const services = [...records.services].map(([key, service]) => {
    const adverts = Object.fromEntries(service.sorted().map(([reference, r]) => [reference, recordJson(r)]));
    return [key, { fields: service.table.names, adverts }];
  });
  return { version: STATE_VERSION, services: Object.fromEntries(services) };
}

/** Reads a state file's bytes into `records`, checking its shape; keys that name one service are merged. */
export function readStateFile(path: string, bytes: Buffer, records: StateRecords): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new ConfigError(`${path}: the sync state is not valid JSON (${(error as Error).message}); ${FIX}`);
  }
  readParsed(path, parsed, records);
}

function readParsed(path: string, value: unknown, records: StateRecords): void {
  const wrong = (where: string, what: string) => new ConfigError(`${path}: not a valid sync state: ${where}: ${what}; ${FIX}`);
  if (!isObject(value)) throw wrong('the file', `expected an object {"version": ${STATE_VERSION}, "services": {...}}, not ${describe(value)}`);
  if (!('version' in value)) throw wrong('version', 'missing');
  if (typeof value.version !== 'number') throw wrong('version', `expected a number, not ${describe(value.version)}`);
  if (value.version > STATE_VERSION && Number.isInteger(value.version)) {
    throw new ConfigError(`${path}: written by a newer jobs (state version ${value.version}); upgrade jobs`);
  }
  if (!KNOWN_VERSIONS.includes(value.version)) throw wrong('version', `${value.version} is not a sync state version jobs knows (${KNOWN_VERSIONS.join(', ')})`);
  const version = value.version;
  if (!isObject(value.services)) throw wrong('services', `expected an object keyed by service URL, not ${describe(value.services)}`);
  for (const [key, entry] of Object.entries(value.services)) {
    const where = `services[${quote(key)}]`;
    if (!isObject(entry)) throw wrong(where, `expected {${version === 1 ? '' : '"fields": [...], '}"adverts": {...}}, not ${describe(entry)}`);
    let table: FieldTable | undefined;
    if (version > 1) {
      const names = entry.fields;
      if (!Array.isArray(names) || names.some((n) => typeof n !== 'string') || new Set(names).size !== names.length) {
        throw wrong(`${where}.fields`, `expected a list of field names, each once, not ${describe(names)}`);
      }
      table = new FieldTable(names as string[]);
    }
    if (!isObject(entry.adverts)) throw wrong(`${where}.adverts`, `expected an object keyed by reference, not ${describe(entry.adverts)}`);
    const canonical = canonicalServiceKey(key);
    // Earlier versions keyed services by the URL as it was spelt; two spellings of one service
    // hold parts of its records. The latest record of a reference wins; the file is rewritten with
    // the merged keys the next time something is recorded.
    const merging = records.services.has(canonical);
    const service = records.service(canonical, table?.names);
    // Taken as written when the file's names are the service's (one spelling of it: the common case).
    const direct = table !== undefined && table.sameAs(service.table);
    const adverts = entry.adverts;
    for (const reference in adverts) {
      const record = adverts[reference];
      const problem = table ? packedRecordProblem(record, table.names.length) : recordProblem(record);
      if (problem) throw wrong(`${where}.adverts[${quote(reference)}]${problem.field ? `.${problem.field}` : ''}`, problem.what);
      const other = merging ? service.adverts.get(reference) : undefined;
      if (other && other.published_at >= (record as AdvertRecord).published_at) continue;
      if (table) {
        const r = record as unknown as StoredRecordJson;
        if (direct) service.adverts.set(reference, new StoredRecord(r.file, r.document, r.hash, r.published_at, r.fields, service.table, r.text_hash));
        else service.put(reference, { ...r, fields: table.decode(r.fields) });
      } else service.put(reference, record as AdvertRecord);
    }
  }
}

/**
 * Writes the file's text to `fd`: stateFileOf() laid out with one record per line, sorted by
 * reference, so that the state diffs well in version control and stays small (and is still one JSON
 * document). It is written a few thousand lines at a time: the text of 100,000 records is never
 * held whole. Returns the bytes written.
 */
export function writeStateFile(fd: number, records: StateRecords): number {
  let total = 0;
  let lines: string[] = [];
  // Every byte before the check line is hashed into it (see state-check.ts).
  let written: Hash | undefined = createHash(bytesHashAlgorithm);
  const flush = () => {
    const bytes = Buffer.from(lines.join(''));
    written?.update(bytes);
    total += writeAll(fd, bytes);
    lines = [];
  };
  const line = (text: string) => {
    if (lines.push(`${text}\n`) >= 4096) flush();
  };
  line('{');
  line(`  "version": ${STATE_VERSION},`);
  line('  "services": {');
  const services = records.sorted();
  const sums: Record<string, string> = {};
  services.forEach(([key, service], s) => {
    line(`    ${JSON.stringify(key)}: {`);
    line(`      "fields": ${JSON.stringify(service.table.names)},`);
    line('      "adverts": {');
    const sorted = service.sorted();
    // A service whose every record has a text hash is summed up in the check line.
    const sum = sorted.every(([, r]) => r.text_hash) ? new AdvertSetHash() : undefined;
    sorted.forEach(([reference, r], i) => {
      sum?.add(reference, r.file, r.document, r.text_hash!);
      line(`        ${JSON.stringify(reference)}: ${JSON.stringify(recordJson(r))}${i < sorted.length - 1 ? ',' : ''}`);
    });
    if (sum) Object.defineProperty(sums, key, { value: sum.toString(), enumerable: true });
    line('      }');
    line(`    }${s < services.length - 1 ? ',' : ''}`);
  });
  line('  },');
  flush();
  line(checkLine(written.digest('hex'), sums));
  written = undefined;
  line('}');
  flush();
  return total;
}
