/**
 * The tool's own block in an advert, `jobs:`, with the dates an advert is up on the service:
 *
 *     jobs:
 *       opens: 2026-12-01    # created from this day on
 *       closes: 2026-12-31   # deleted after this day
 *
 * The block is never sent: it is taken off the advert before its payload is built, so it is in no
 * request and in no content hash (a change to the dates alone sends nothing). Its shape (known keys,
 * YYYY-MM-DD calendar dates) is checked by the advert schema, at the lines written.
 *
 * Dates are calendar dates in UTC: an advert is open from 00:00 UTC on `opens` through 23:59:59 UTC
 * on `closes`. "Today" is a day number (days since 1970-01-01, UTC), see sync/today.ts.
 */
import type { ErrorTree } from '../errors/tree.js';
import { addError } from '../errors/tree.js';
import { isCalendarDay } from '../util/calendar.js';

/** The block's name in an advert file. */
export const DATES_BLOCK = 'jobs';

export const DAY_MS = 86_400_000;

export interface AdvertDates {
  /** YYYY-MM-DD: the first day the advert is up. */
  opens?: string;
  /** YYYY-MM-DD: the last day the advert is up. */
  closes?: string;
}

/** Where an advert stands on a given day. */
export type DateStatus = 'waiting' | 'open' | 'closed';

/** Days advert lists close within, counting today: "closing this week". */
export const CLOSING_SOON_DAYS = 7;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number (days since 1970-01-01 UTC) of a YYYY-MM-DD calendar date; undefined when it is none. */
export function dayOf(date: string): number | undefined {
  const m = DATE.exec(date);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  // Counted, not printed and compared: the rules data's dates are read at every start.
  return isCalendarDay(year, month, day) ? utcMs(year, month - 1, day) / DAY_MS : undefined;
}

/**
 * Date.UTC for every year: Date.UTC reads years 0-99 as 1900-1999 (0026-12-31 would be 1926's), so
 * the year is set apart. `month` counts from 0; days beyond the month roll over as with Date.UTC.
 */
export function utcMs(year: number, month: number, day: number): number {
  return new Date(0).setUTCFullYear(year, month, day);
}

/** YYYY-MM-DD of a day number. */
export function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The day number of an instant (epoch ms), in UTC. */
export function dayAt(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/**
 * The advert without its `jobs:` block, and the block's dates (those that are calendar dates; the
 * schema reports the others). The advert is returned as it is when it has no block.
 */
export function splitDates(advert: Record<string, unknown>): { advert: Record<string, unknown>; dates?: AdvertDates } {
  if (!Object.hasOwn(advert, DATES_BLOCK)) return { advert };
  // A copy without the block, key by key: a rest spread with a computed key is a slow runtime call in V8.
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(advert)) {
    if (key === DATES_BLOCK) continue;
    // An own data property even for __proto__ (whose assignment would set the prototype), as a spread makes it.
    if (key === '__proto__') Object.defineProperty(rest, key, { value: advert[key], enumerable: true, writable: true, configurable: true });
    else rest[key] = advert[key];
  }
  const dates = datesOf(advert);
  return { advert: rest, ...(dates ? { dates } : {}) };
}

/** The calendar dates of an advert's `jobs:` block (undefined when it has none), without copying the advert. */
export function datesOf(advert: Record<string, unknown>): AdvertDates | undefined {
  const block = Object.hasOwn(advert, DATES_BLOCK) ? advert[DATES_BLOCK] : undefined;
  if (block === null || typeof block !== 'object' || Array.isArray(block)) return undefined;
  const { opens, closes } = block as Record<string, unknown>;
  const dates: AdvertDates = {};
  if (typeof opens === 'string' && dayOf(opens) !== undefined) dates.opens = opens;
  if (typeof closes === 'string' && dayOf(closes) !== undefined) dates.closes = closes;
  return dates.opens !== undefined || dates.closes !== undefined ? dates : undefined;
}

/**
 * An advert that closes before it opens would never be up: an error at `closes` (exit 3), not a
 * warning, since whatever was meant, the file cannot be published as written (nothing is sent).
 */
export function checkDates(dates: AdvertDates | undefined, tree: ErrorTree): void {
  if (dates?.opens === undefined || dates.closes === undefined) return;
  if (dayOf(dates.closes)! < dayOf(dates.opens)!) addError(tree, [DATES_BLOCK, 'closes'], 'before_opens');
}

/** Where an advert with these dates stands on `today` (a day number). */
export function dateStatus(dates: AdvertDates | undefined, today: number): DateStatus {
  if (dates?.opens !== undefined && today < dayOf(dates.opens)!) return 'waiting';
  if (dates?.closes !== undefined && today > dayOf(dates.closes)!) return 'closed';
  return 'open';
}

/** Whole days from `today` to the closing day: 0 on the last day, negative once closed; undefined without one. */
export function daysLeft(closes: string | undefined, today: number): number | undefined {
  const day = closes === undefined ? undefined : dayOf(closes);
  return day === undefined ? undefined : day - today;
}

/** Open, and closing within CLOSING_SOON_DAYS days counting today. */
export function closingSoon(left: number | undefined): boolean {
  return left !== undefined && left >= 0 && left < CLOSING_SOON_DAYS;
}
