/**
 * The plan of a sync, like `terraform plan`: what to create (not in state), update (content
 * changed), leave alone (unchanged: no request), and delete (in state, gone from the folder; only
 * with --prune, otherwise listed as orphans).
 */
import type { CheckedAdvert } from '../validation/check.js';
import { fieldHashes, hashOf } from './hash.js';
import type { AdvertRecord } from './state.js';

export type Action = 'create' | 'update' | 'unchanged' | 'delete' | 'orphan';

export interface PlannedChange {
  action: Action;
  reference: string;
  /** The advert in the folder (absent for delete and orphan). */
  advert?: CheckedAdvert;
  /** The file relative to the synced folder (from state for delete and orphan). */
  file: string;
  hash?: string;
  fields?: Record<string, string>;
  /** Fields whose value changed (update). */
  changed?: string[];
  /** Fields no longer in the file: the interface has no way to clear them (update takes a subset). */
  removed?: string[];
}

export interface Plan {
  changes: PlannedChange[];
  counts: Record<Action, number>;
}

export interface PlanOptions {
  prune: boolean;
  force: boolean;
  /** The advert's file as stored in state (relative to the folder). */
  fileOf: (advert: CheckedAdvert) => string;
}

export function makePlan(adverts: readonly CheckedAdvert[], recorded: ReadonlyMap<string, AdvertRecord>, options: PlanOptions): Plan {
  const changes: PlannedChange[] = [];
  const present = new Set<string>();
  for (const advert of adverts) {
    const reference = advert.reference!;
    present.add(reference);
    const hash = hashOf(advert.payload);
    const file = options.fileOf(advert);
    const before = recorded.get(reference);
    if (before && before.hash === hash && !options.force) {
      // The common case of a big folder: one hash, no per-field work.
      changes.push({ action: 'unchanged', reference, advert, file, hash });
      continue;
    }
    const fields = fieldHashes(advert.payload);
    if (!before) {
      changes.push({ action: 'create', reference, advert, file, hash, fields });
      continue;
    }
    // Field names come from the file (with --allow-unknown-fields, any name): own properties only.
    const changed = Object.keys(fields).filter((k) => !Object.hasOwn(before.fields, k) || before.fields[k] !== fields[k]);
    const removed = Object.keys(before.fields).filter((k) => !Object.hasOwn(fields, k));
    changes.push({ action: 'update', reference, advert, file, hash, fields, changed, removed });
  }
  for (const [reference, record] of recorded) {
    if (present.has(reference)) continue;
    changes.push({ action: options.prune ? 'delete' : 'orphan', reference, file: record.file });
  }
  const counts: Record<Action, number> = { create: 0, update: 0, unchanged: 0, delete: 0, orphan: 0 };
  for (const c of changes) counts[c.action]++;
  return { changes, counts };
}

export function hasChanges(plan: Plan): boolean {
  return plan.counts.create + plan.counts.update + plan.counts.delete > 0;
}
