/**
 * Days left for each published advert that has a closing date (`jobs.closes`, kept in the record of
 * published adverts when it was sent or synced), and which close this week: what `stats` and the
 * report show. A closing date that has passed while the advert is still on the service (no sync
 * since) gives negative days: it is shown as closed.
 */
import { closingSoon, daysLeft } from '../adverts/dates.js';
import type { PublishedAdvert } from './record.js';

export interface Closing {
  /** YYYY-MM-DD (UTC): the last day the advert is up. */
  closes: string;
  /** Whole days from today to `closes`: 0 on the last day, negative once closed. */
  days_left: number;
}

/** The closing dates of the live adverts among `references` that have one. */
export function closingDates(
  adverts: ReadonlyMap<string, Pick<PublishedAdvert, 'closes' | 'deleted_at'>>,
  references: Iterable<string>,
  today: number,
): Map<string, Closing> {
  const closing = new Map<string, Closing>();
  for (const reference of references) {
    const advert = adverts.get(reference);
    if (advert?.closes === undefined || advert.deleted_at !== undefined) continue;
    const left = daysLeft(advert.closes, today);
    if (left !== undefined) closing.set(reference, { closes: advert.closes, days_left: left });
  }
  return closing;
}

/** Those that close within the week (today and the 6 days after), soonest first. */
export function closingThisWeek(closing: ReadonlyMap<string, Closing>): (Closing & { reference: string })[] {
  return [...closing]
    .filter(([, c]) => closingSoon(c.days_left))
    .map(([reference, c]) => ({ reference, ...c }))
    .sort((a, b) => a.days_left - b.days_left || (a.reference < b.reference ? -1 : 1));
}

/** `3 days left`, `last day`, `closed 2026-11-30`. */
export function daysLeftText(c: Closing): string {
  if (c.days_left < 0) return `closed ${c.closes}`;
  if (c.days_left === 0) return 'last day';
  return c.days_left === 1 ? '1 day left' : `${c.days_left} days left`;
}
