/**
 * The plan of a sync, like `terraform plan`: what to create (not in state), update (content
 * changed), leave alone (unchanged: no request), and delete (in state, gone from the folder; only
 * with --prune, otherwise listed as orphans).
 *
 * A plan of a big folder stays small: each change keeps its reference, file, place and hash; the
 * advert itself only when asked (`keepAdverts`), otherwise the executor reads it again when it is
 * sent (see bulk/reread.ts), so a first sync of 100,000 adverts does not hold 100,000 payloads.
 */
import type { CheckedAdvert } from '../validation/check.js';
import { expansionOf } from '../adverts/locations.js';
import { contentHashes, hashOf } from '../bulk/hash.js';
import type { AdvertRecord } from './state.js';
import type { AdvertDates } from '../adverts/dates.js';

/** `waiting` and `closed`: in the folder, outside its `jobs:` dates and not on the service (see dates-plan.ts). */
export type Action = 'create' | 'update' | 'unchanged' | 'delete' | 'orphan' | 'waiting' | 'closed';

export interface PlannedChange {
  action: Action;
  reference: string;
  /** The file relative to the synced folder (from state for delete and orphan). */
  file: string;
  /** The advert's file as the user named it, to read it again when it is sent (create and update). */
  source?: string;
  /** The document's index in its file (create, update, and unchanged when moved). */
  document?: number;
  /** The advert in the folder: only with `keepAdverts` (create and update). */
  advert?: CheckedAdvert;
  /** The hash of what is to be sent (create and update). */
  hash?: string;
  /**
   * The hash of the text the advert was checked in (see textHashOf), recorded with it. On an
   * unchanged advert only when the record's differs: it is written when the state is written anyway.
   */
  textHash?: string;
  /** Unchanged in content but moved (another file or place in it): recorded without a request. */
  moved?: boolean;
  /** The file's reference of an advert for one of several places (`locations:`); from the state for delete and orphan. */
  group?: string;
  /** Fields whose value changed (update). */
  changed?: string[];
  /** Fields no longer in the file: the interface has no way to clear them (update takes a subset). */
  removed?: string[];
  /** Its `jobs.opens`, when that is why it waits, or is deleted (see dates-plan.ts). */
  opens?: string;
  /** Its `jobs.closes`, when that has passed: why it is deleted, or not created. */
  closed?: string;
}

export interface Plan {
  changes: PlannedChange[];
  counts: Record<Action, number>;
  /** The `jobs:` dates of the folder's adverts that have any, by reference (see dates-plan.ts). */
  dates?: ReadonlyMap<string, AdvertDates>;
}

export interface PlanOptions {
  prune: boolean;
  force: boolean;
  /** The advert's file as stored in state (relative to the folder). */
  fileOf: (advert: CheckedAdvert) => string;
  /** Keep each advert to create or update on its change (default true); without, the executor reads it again. */
  keepAdverts?: boolean;
}

export function makePlan(adverts: Iterable<CheckedAdvert>, recorded: ReadonlyMap<string, AdvertRecord>, options: PlanOptions): Plan {
  const planner = new Planner(recorded, options);
  for (const advert of adverts) {
    const group = expansionOf(advert.source)?.group;
    const digest = {
      reference: advert.reference!,
      file: options.fileOf(advert),
      source: advert.source.file,
      document: advert.source.index,
      hash: hashOf(advert.payload),
      ...(group === undefined ? {} : { group }),
    };
    planner.add(digest, advert);
  }
  return planner.finish();
}

/** What the plan needs of an advert: a sync checks the folder and keeps only this of each. */
export interface AdvertDigest {
  reference: string;
  /** The file relative to the synced folder. */
  file: string;
  /** The file as the user named it, to read it again. */
  source: string;
  document: number;
  /** hashOf(payload); '' when the check left it out (TextHashing.textOnly): knowsText, or read again. */
  hash: string;
  /** textHashOf its file's text; '' or absent when there is none. */
  textHash?: string;
  /** The file's reference, for an advert made from a `locations:` list. */
  group?: string;
}

/**
 * Plans one advert at a time, so that a caller can let each advert go once it is planned. An update
 * planned from a digest alone names its changed fields once `fill` is given them (`unfilled()`):
 * per-field hashes cost several times the advert's hash, and only updates need them.
 */
export class Planner {
  private readonly changes: PlannedChange[] = [];
  private readonly pending: PlannedChange[] = [];
  /** Adverts found in the state: when that is all of it, nothing is gone from the folder. */
  private found = 0;

  constructor(
    private readonly recorded: ReadonlyMap<string, AdvertRecord>,
    private readonly options: Pick<PlanOptions, 'prune' | 'force' | 'keepAdverts'>,
  ) {}

  /** The advert's record has the text its digest was made from: it is unchanged, whatever its content hash. */
  knowsText(reference: string, document: number, textHash: string | undefined): boolean {
    const before = this.recorded.get(reference);
    return !this.options.force && before !== undefined && Boolean(textHash) && before.text_hash === textHash && before.document === document;
  }

  /** Recorded references not in NFC (an earlier release kept them as written), by their NFC form. */
  private legacy: Map<string, string> | undefined;

  /**
   * The recorded reference of an advert: its own, or the one an earlier release recorded in another
   * Unicode normalisation form (`cafe` + combining accent for `café`). That advert is the same one:
   * it is updated at the reference the service knows, never deleted and created again.
   */
  private recordedReference(reference: string): string {
    if (this.recorded.has(reference) || /^[\x00-\x7f]*$/.test(reference)) return reference;
    this.legacy ??= new Map([...this.recorded.keys()].filter((key) => key !== key.normalize('NFC')).map((key) => [key.normalize('NFC'), key]));
    return this.legacy.get(reference) ?? reference;
  }

  /** Plans an advert from its digest; with the advert itself, an update's fields are compared at once. */
  add(digest: AdvertDigest, advert?: CheckedAdvert): void {
    const { file, document, hash } = digest;
    const reference = this.recordedReference(digest.reference);
    const textHash = digest.textHash ?? '';
    const before = this.recorded.get(reference);
    if (before) this.found++;
    if (hash === '' && !this.knowsText(reference, document, digest.textHash))
      throw new Error(`the digest of ${reference} has no content hash, and its text is not the record's`);
    if (before && !this.options.force && (hash === '' || before.hash === hash)) {
      // The common case of a big folder: one hash, no per-field work, nothing of the advert kept.
      // A place whose file's reference changed (it keeps its own) is recorded under its new group, as a move.
      const moved = before.file !== file || before.document !== document || digest.group !== before.group;
      const change: PlannedChange = moved ? { action: 'unchanged', reference, file, document, moved } : { action: 'unchanged', reference, file };
      if (digest.group !== undefined) change.group = digest.group;
      if (textHash !== '' && before.text_hash !== textHash) change.textHash = textHash;
      this.changes.push(change);
      return;
    }
    const base = {
      reference,
      file,
      source: digest.source,
      document,
      hash,
      ...(textHash === '' ? {} : { textHash }),
      ...(digest.group === undefined ? {} : { group: digest.group }),
      ...(this.options.keepAdverts === false || !advert ? {} : { advert }),
    };
    if (!before) {
      this.changes.push({ action: 'create', ...base });
      return;
    }
    const change: PlannedChange = { action: 'update', ...base };
    this.changes.push(change);
    if (advert) this.fill(change, contentHashes(advert.payload).fields);
    else this.pending.push(change);
  }

  /** The updates planned from a digest alone, waiting for their fields' hashes. */
  unfilled(): readonly PlannedChange[] {
    return this.pending;
  }

  /** Names the fields of an update that changed, and those no longer in the file, against the state. */
  fill(change: PlannedChange, fields: Record<string, string>): void {
    const earlier = this.recorded.get(change.reference)!.fields;
    // Field names come from the file (with --allow-unknown-fields, any name): own properties only.
    change.changed = Object.keys(fields).filter((k) => !Object.hasOwn(earlier, k) || earlier[k] !== fields[k]);
    change.removed = Object.keys(earlier).filter((k) => !Object.hasOwn(fields, k));
  }

  finish(): Plan {
    const { changes } = this;
    if (this.found < this.recorded.size) {
      const present = new Set(changes.map((c) => c.reference));
      for (const [reference, record] of this.recorded) {
        if (present.has(reference)) continue;
        changes.push({
          action: this.options.prune ? 'delete' : 'orphan',
          reference,
          file: record.file,
          ...(record.group === undefined ? {} : { group: record.group }),
        });
      }
    }
    return { changes, counts: countActions(changes) };
  }
}

export function countActions(changes: readonly PlannedChange[]): Record<Action, number> {
  const counts: Record<Action, number> = { create: 0, update: 0, unchanged: 0, delete: 0, orphan: 0, waiting: 0, closed: 0 };
  for (const c of changes) counts[c.action]++;
  return counts;
}

export function hasChanges(plan: Plan): boolean {
  return plan.counts.create + plan.counts.update + plan.counts.delete > 0;
}
