/**
 * The plan step of advert dates (`jobs:` opens/closes, see adverts/dates.ts): after the folder is
 * planned against the state, an advert outside its dates on `today` is not sent.
 *
 * - not yet open, not on the service: `waiting` (`+ ACME-0042 (opens 2026-12-01)`), nothing sent;
 * - closed, on the service: `delete` (`- ACME-0031 (closed 2026-11-30)`). The file asked for it, so
 *   it needs no --prune; it is confirmed as a prune's deletions are;
 * - not yet open but on the service (its opening date was moved later): `delete` too;
 * - closed, not on the service: `closed`, nothing sent.
 *
 * Dates are not part of the content hash, so this step is what makes them count: it runs on every
 * plan, also one that found the whole folder unchanged from the state's sum alone.
 */
import { dateStatus, type AdvertDates } from '../adverts/dates.js';
import { countActions, type Plan, type PlannedChange } from './plan.js';

export function applyDates(plan: Plan, dates: ReadonlyMap<string, AdvertDates>, today: number): Plan {
  if (dates.size === 0) return plan;
  let touched = false;
  const changes = plan.changes.map((change): PlannedChange => {
    if (change.action === 'delete' || change.action === 'orphan') return change;
    const own = dates.get(change.reference);
    const status = dateStatus(own, today);
    if (status === 'open') return change;
    touched = true;
    const why = status === 'waiting' ? { opens: own!.opens! } : { closed: own!.closes! };
    // Not on the service: nothing to send today.
    if (change.action === 'create') return { action: status, reference: change.reference, file: change.file, ...why };
    return { action: 'delete', reference: change.reference, file: change.file, ...why };
  });
  return touched ? { changes, counts: countActions(changes), dates } : { ...plan, dates };
}

/** The dates of the adverts that have any, by reference, from a checked folder's digests. */
export function datesOf(adverts: Iterable<{ reference: string; dates?: AdvertDates }>): Map<string, AdvertDates> {
  const dates = new Map<string, AdvertDates>();
  for (const advert of adverts) if (advert.dates) dates.set(advert.reference, advert.dates);
  return dates;
}

/** A deletion the file asked for by its dates, rather than a prune of an advert gone from the folder. */
export function deletedByDate(change: PlannedChange): boolean {
  return change.action === 'delete' && (change.opens !== undefined || change.closed !== undefined);
}
