/**
 * The sync state in memory, apart from its file: per service, the records of what this tool
 * published, by reference. The file format (file-format.ts) and the log (log.ts) read into and
 * write out of this model; nothing here knows about bytes on disk.
 *
 * References and service URLs are chosen by users, so they are kept in Maps: as keys of a plain
 * object, `__proto__` would set the object's prototype instead of recording an advert.
 */
import { FIELD_HASH_LENGTH, HASH_LENGTH } from '../../bulk/hash.js';

export interface AdvertRecord {
  /** The file it came from, relative to the synced folder. */
  file: string;
  document: number;
  /** Hash of the payload last sent (or adopted). */
  hash: string;
  /** Hash of the file's text it was read from, with the settings (textHashOf): the same text is the same payload. */
  text_hash?: string;
  /** Short hash per top-level field, to name what changed. */
  readonly fields: Readonly<Record<string, string>>;
  published_at: string;
  /** The file's reference of an advert made from a `locations:` list: the adverts of one file's places share it. */
  group?: string;
}

/** One change to the records: what a run records, and what the log holds one line of. */
export type StateChange = { op: 'put'; service: string; reference: string; record: AdvertRecord } | { op: 'delete'; service: string; reference: string };

/** The places of the field hashes of one service's records: names are only ever added, at the end. */
export class FieldTable {
  readonly names: string[] = [];
  private readonly slots = new Map<string, number>();

  constructor(names: readonly string[] = []) {
    for (const name of names) this.slot(name);
  }

  /** `a1b2c3d4 - 0f0f0f0f`: a hash per name in the table's order, `-` for a field the advert lacks. */
  encode(fields: Readonly<Record<string, string>>): string {
    const slots: string[] = [];
    for (const name of Object.keys(fields)) {
      const hash = fields[name]!.slice(0, FIELD_HASH_LENGTH);
      // A hand-edited log could hold anything: what cannot be written in a slot compares as changed.
      slots[this.slot(name)] = /^[^\s-]\S*$/.test(hash) ? hash : '?';
    }
    return Array.from(slots, (s) => s ?? '-').join(' ');
  }

  decode(packed: string): Record<string, string> {
    const fields: Record<string, string> = Object.create(null);
    if (packed === '') return fields;
    const slots = packed.split(' ');
    for (let i = 0; i < slots.length; i++) if (slots[i] !== '-') fields[this.names[i]!] = slots[i]!;
    return fields;
  }

  /** Whether both tables hold the same names in the same places. */
  sameAs(other: FieldTable): boolean {
    return this.names.length === other.names.length && this.names.every((name, i) => other.names[i] === name);
  }

  private slot(name: string): number {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.names.push(name) - 1;
      this.slots.set(name, slot);
    }
    return slot;
  }
}

/** A record as kept in memory: its field hashes in one string, read back through the service's table when a plan asks. */
export class StoredRecord implements AdvertRecord {
  constructor(
    readonly file: string,
    readonly document: number,
    readonly hash: string,
    readonly published_at: string,
    readonly packed: string,
    private readonly table: FieldTable,
    readonly text_hash: string | undefined,
    readonly group?: string,
  ) {}

  get fields(): Record<string, string> {
    return this.table.decode(this.packed);
  }

  withTextHash(textHash: string): StoredRecord {
    return new StoredRecord(this.file, this.document, this.hash, this.published_at, this.packed, this.table, textHash, this.group);
  }

  toJSON(): AdvertRecord {
    return {
      file: this.file,
      document: this.document,
      hash: this.hash,
      ...textHashOf(this),
      fields: this.fields,
      published_at: this.published_at,
      ...groupOf(this),
    };
  }
}

/** The record's text hash as a JSON property, when it has one. */
export const textHashOf = (r: { text_hash?: string | undefined }): { text_hash?: string } => (r.text_hash === undefined ? {} : { text_hash: r.text_hash });
/** The record's group as a JSON property, when it has one (an advert for one of several places). */
export const groupOf = (r: { group?: string | undefined }): { group?: string } => (r.group === undefined ? {} : { group: r.group });

/** One service's records and the field table they are packed with. */
export class ServiceRecords {
  readonly table: FieldTable;
  readonly adverts = new Map<string, StoredRecord>();

  constructor(names?: readonly string[]) {
    this.table = new FieldTable(names);
  }

  put(reference: string, record: AdvertRecord): void {
    const textHash = record.text_hash === undefined ? undefined : record.text_hash.slice(0, HASH_LENGTH);
    this.adverts.set(
      reference,
      new StoredRecord(
        record.file,
        record.document,
        record.hash.slice(0, HASH_LENGTH),
        record.published_at,
        this.table.encode(record.fields),
        this.table,
        textHash,
        record.group,
      ),
    );
  }

  /** The records sorted by reference, as the file lists them. */
  sorted(): [string, StoredRecord][] {
    return [...this.adverts].sort(([a], [b]) => compare(a, b));
  }
}

/** Every service's records, keyed by canonical service key (see config/service-key.ts). */
export class StateRecords {
  readonly services = new Map<string, ServiceRecords>();

  /** The records of a service, made empty (with these field names) when it has none yet. */
  service(key: string, names?: readonly string[]): ServiceRecords {
    let service = this.services.get(key);
    if (!service) this.services.set(key, (service = new ServiceRecords(names)));
    return service;
  }

  apply(change: StateChange): void {
    const service = this.service(change.service);
    if (change.op === 'put') service.put(change.reference, change.record);
    else service.adverts.delete(change.reference);
  }

  /** The services sorted by key, as the file lists them. */
  sorted(): [string, ServiceRecords][] {
    return [...this.services].sort(([a], [b]) => compare(a, b));
  }
}

/** Code-unit order: the same on every machine, whatever its locale. */
export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
