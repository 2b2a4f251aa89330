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
import { shortHash, type SandboxStore } from './store.js';
import type { StoredAdvert, StoredApplication } from './types.js';

/**
 * Application records kept per advert (the newest); counts go on. The simulation levels off at 40
 * per advert, so only applications created through the fixture route ever reach this.
 */
export const MAX_KEPT_APPLICATIONS = 100;

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
 * When the `count`-th simulated application arrives (the curve reaches it): its time is a property
 * of the advert, not of when the sandbox happens to look, so lazy simulation stays deterministic.
 */
function arrivalTime(advert: StoredAdvert, count: number, ceiling: number): number {
  const share = count / ceiling;
  const t = share >= 1 ? Infinity : (HALF_LIFE_MS * share) / (1 - share);
  return advert.createdAt + Math.max(0, Math.ceil(t - WARM_START_MS));
}

/**
 * Brings one advert's simulated candidates up to `now`: applications that have "arrived" since it
 * was last looked at become records with ids, so events can be posted for them. Only the advert a
 * request reads or changes is brought up to date (never every advert), from its creation time and
 * its reference alone, so the result does not depend on when or how often it is looked at.
 * Returns true when the advert changed (it must then be saved).
 */
export function materializeApplications(store: SandboxStore, advert: StoredAdvert, now: number): boolean {
  const ceiling = ratesFor(advert.reference).applications;
  const due = simulatedCounts(advert.reference, now - advert.createdAt).applications;
  if (advert.simulated >= due) return false;
  while (advert.simulated < due) {
    advert.simulated++;
    const arrived = Math.min(now, arrivalTime(advert, advert.simulated, ceiling));
    receiveApplication(store, advert, 'simulated', arrived);
  }
  return true;
}

/** Records a new application for `advert`, keeping only the newest MAX_KEPT_APPLICATIONS records. */
export function receiveApplication(store: SandboxStore, advert: StoredAdvert, source: StoredApplication['source'], now: number): StoredApplication {
  const application: StoredApplication = { id: applicationId(advert, advert.received), createdAt: now, source, viewed: false, liked: false, rejected: false };
  advert.received++;
  advert.unviewed++;
  if (source === 'fixture') advert.fixtures++;
  advert.applications.push(application);
  store.indexApplication(advert, application);
  // A fixture loop can add applications without end: the counters keep counting, the records do not pile up.
  while (advert.applications.length > MAX_KEPT_APPLICATIONS) store.unindexApplication(advert.applications.shift()!);
  store.touched(advert);
  return application;
}

/** Marks an application viewed (an event arrived for it); false when it was already. */
export function markViewed(store: SandboxStore, advert: StoredAdvert, application: StoredApplication): boolean {
  store.touched(advert);
  if (application.viewed) return false;
  application.viewed = true;
  advert.unviewed = Math.max(0, advert.unviewed - 1);
  return true;
}

/** The statistics resource: simulated views and likes; every application received, and the unviewed ones. */
export function statsFor(advert: StoredAdvert, now: number): { views: number; likes: number; applications: number; applications_unviewed: number } {
  const sim = simulatedCounts(advert.reference, now - advert.createdAt);
  return {
    // Every applicant saw the advert first.
    views: sim.views + advert.fixtures,
    likes: sim.likes,
    applications: advert.received,
    applications_unviewed: advert.unviewed,
  };
}
