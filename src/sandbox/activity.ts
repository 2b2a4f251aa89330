/**
 * Simulated candidates, so statistics are not all zero. Views, likes and applications grow with
 * the time since the advert was created, along a saturating curve whose size is seeded by a hash
 * of the reference: the same reference at the same age always shows the same numbers (tests inject
 * the clock), counts only ever grow, and they level off so an old advert does not pile up
 * thousands of application records. A warm start makes a fresh advert show a little activity.
 * A second, slower curve (half of it within 3 to 14 days, per reference) keeps adverts growing
 * over days, so a fast-forwarded sandbox (`jobs sandbox --fast-forward 30d`) shows trends; about a
 * third of the adverts get no applications from it: views without applications, as in real life.
 */
import { createHash } from 'node:crypto';
import { shortHash } from './store.js';
import type { StoredAdvert, StoredApplication } from './types.js';

/** Time for the curve to reach half of its ceiling. */
const HALF_LIFE_MS = 2 * 60 * 60 * 1000;
/** The advert is treated as this old when created. */
const WARM_START_MS = 10 * 60 * 1000;

export interface ActivityRates {
  /** Ceilings of the fast curve. */
  views: number;
  likes: number;
  applications: number;
  /** Ceilings of the slow curve, and the age at which it is half-way. */
  later: { views: number; likes: number; applications: number };
  laterHalfLifeMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function ratesFor(reference: string): ActivityRates {
  const h = createHash('sha256').update(reference).digest();
  const views = 300 + (h.readUInt16BE(0) % 601); // 300..900
  const likeShare = 0.15 + (h[2]! % 21) / 100; // 15%..35% of views
  const applications = 15 + (h[3]! % 26); // 15..40
  const laterViews = 200 + (h.readUInt16BE(4) % 1001); // 200..1200
  const later = { views: laterViews, likes: Math.floor(laterViews * likeShare), applications: h[6]! % 3 === 0 ? 0 : 5 + (h[7]! % 26) }; // 0 or 5..30
  return { views, likes: Math.floor(views * likeShare), applications, later, laterHalfLifeMs: (3 + (h[8]! % 12)) * DAY_MS };
}

function progress(ageMs: number): number {
  const t = Math.max(0, ageMs) + WARM_START_MS;
  return t / (t + HALF_LIFE_MS);
}

export interface SimulatedCounts {
  views: number;
  likes: number;
  applications: number;
}

export function simulatedCounts(reference: string, ageMs: number): SimulatedCounts {
  const rates = ratesFor(reference);
  const p = progress(ageMs);
  const age = Math.max(0, ageMs);
  const slow = age / (age + rates.laterHalfLifeMs);
  return {
    views: Math.floor(rates.views * p) + Math.floor(rates.later.views * slow),
    likes: Math.floor(rates.likes * p) + Math.floor(rates.later.likes * slow),
    applications: Math.floor(rates.applications * p) + Math.floor(rates.later.applications * slow),
  };
}

export function applicationId(advert: StoredAdvert, index: number): string {
  return `app_${shortHash(advert.owner, advert.reference, advert.serial, index)}`;
}

/**
 * Turns simulated applications that have "arrived" by `now` into records with ids, so events can
 * be posted for them. Returns true when the advert changed (the state must then be saved).
 */
export function materializeApplications(advert: StoredAdvert, now: number): boolean {
  const due = simulatedCounts(advert.reference, now - advert.createdAt).applications;
  let changed = false;
  while (advert.simulated < due) {
    advert.applications.push(newApplication(advert, 'simulated', now));
    advert.simulated++;
    changed = true;
  }
  return changed;
}

export function newApplication(advert: StoredAdvert, source: StoredApplication['source'], now: number): StoredApplication {
  return { id: applicationId(advert, advert.applications.length), createdAt: now, source, viewed: false, liked: false, rejected: false };
}

/** The statistics resource: simulated views and likes; every application record, and the unviewed ones. */
export function statsFor(advert: StoredAdvert, now: number): { views: number; likes: number; applications: number; applications_unviewed: number } {
  const sim = simulatedCounts(advert.reference, now - advert.createdAt);
  const fixtureApplications = advert.applications.filter((a) => a.source === 'fixture').length;
  return {
    // Every applicant saw the advert first.
    views: sim.views + fixtureApplications,
    likes: sim.likes,
    applications: advert.applications.length,
    applications_unviewed: advert.applications.filter((a) => !a.viewed).length,
  };
}
