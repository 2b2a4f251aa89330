/**
 * What the history says about the counters: change since a baseline, rates, and which adverts need
 * attention. Pure functions over snapshots, shared by `jobs stats`, `jobs report` and the API.
 */
import type { Counters, History, Snapshot } from './store.js';

export const COUNTERS = ['views', 'likes', 'applications', 'applications_unviewed'] as const satisfies readonly (keyof Counters)[];

export const DAY_MS = 86_400_000;
/** "Views but no applications" counts once this long has passed without a new application. */
export const QUIET_MS = 7 * DAY_MS;

export interface Change extends Counters {
  /** When the baseline snapshot was taken (epoch ms). */
  since: number;
}

export interface Insight {
  reference: string;
  current: Counters;
  /** likes / views, or null when there are no views. */
  likeRate: number | null;
  /** applications / views, or null when there are no views. */
  applicationRate: number | null;
  /** The counters minus the baseline's; undefined when the history has no baseline. */
  change?: Change;
  /** Why the advert needs a look, in words; empty when it does not. */
  attention: string[];
}

export const rate = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

export function difference(now: Counters, then: Snapshot): Change {
  return {
    since: then.at,
    views: now.views - then.views,
    likes: now.likes - then.likes,
    applications: now.applications - then.applications,
    applications_unviewed: now.applications_unviewed - then.applications_unviewed,
  };
}

/**
 * Reasons to look at an advert: applications nobody has opened, or an advert that people see but
 * nobody has applied to for a week (`weekAgo`: its newest snapshot at least a week old).
 */
export function attentionReasons(now: Counters, weekAgo: Snapshot | undefined): string[] {
  const reasons: string[] = [];
  if (now.applications_unviewed > 0) reasons.push(`${now.applications_unviewed} unviewed application${now.applications_unviewed === 1 ? '' : 's'} waiting`);
  if (weekAgo && now.views > weekAgo.views && now.applications === weekAgo.applications) reasons.push('views but no new applications for a week');
  return reasons;
}

export function insight(reference: string, now: Counters, baseline: Snapshot | undefined, weekAgo: Snapshot | undefined): Insight {
  const result: Insight = {
    reference,
    current: { views: now.views, likes: now.likes, applications: now.applications, applications_unviewed: now.applications_unviewed },
    likeRate: rate(now.likes, now.views),
    applicationRate: rate(now.applications, now.views),
    attention: attentionReasons(now, weekAgo),
  };
  if (baseline) result.change = difference(now, baseline);
  return result;
}

export interface Baselines {
  /** What each advert's change is measured from. */
  baseline: Map<string, Snapshot>;
  /** Each advert's newest snapshot at least a week before `now`. */
  weekAgo: Map<string, Snapshot>;
}

/** How far back a run looks for an advert's previous snapshot, beyond what it asks for. */
export const LOOK_BACK_MS = 92 * DAY_MS;

/**
 * Baselines for `references` at `now`: the last snapshot before now, or with `windowMs` the
 * newest one at or before the window's start (else the oldest inside the window: the history is
 * younger than the window). One pass over the newest segments: no further back than a quarter
 * before the window, so an advert without history does not make each run read the whole year.
 */
export function baselinesFor(history: History, references: readonly string[], now: number, windowMs?: number): Baselines {
  const refs = new Set(references);
  const start = now - (windowMs ?? 0);
  const [weekAgo, baseline] = history.latestBefore(
    refs,
    [now - QUIET_MS + 1, windowMs === undefined ? now + 1 : start + 1],
    Math.min(start, now - QUIET_MS) - LOOK_BACK_MS,
  );
  if (windowMs !== undefined) {
    const missing = references.filter((r) => !baseline!.has(r));
    if (missing.length > 0) {
      const wanted = new Set(missing);
      history.scan(start, (reference, at, views, likes, applications, applications_unviewed) => {
        const seen = baseline!.get(reference);
        if (wanted.has(reference) && at <= now && (!seen || at < seen.at))
          baseline!.set(reference, { reference, at, views, likes, applications, applications_unviewed });
      });
    }
  }
  return { baseline: baseline!, weekAgo: weekAgo! };
}

/** Every advert's snapshots, oldest first, grouped by reference (from `from`, epoch ms). */
export function seriesByAdvert(history: History, from = 0): Map<string, Snapshot[]> {
  const series = new Map<string, Snapshot[]>();
  for (const s of history.read(from)) {
    let list = series.get(s.reference);
    if (!list) series.set(s.reference, (list = []));
    list.push(s);
  }
  return series;
}

/** Sort keys of `jobs stats --sort` and the report's table, with the direction that reads best. */
export const SORT_KEYS = [
  'reference',
  'views',
  'likes',
  'applications',
  'unviewed',
  'like_rate',
  'apply_rate',
  'new_views',
  'new_likes',
  'new_applications',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export function sortValue(i: Insight, key: SortKey): number | string {
  switch (key) {
    case 'reference':
      return i.reference;
    case 'views':
    case 'likes':
    case 'applications':
      return i.current[key];
    case 'unviewed':
      return i.current.applications_unviewed;
    case 'like_rate':
      return i.likeRate ?? -1;
    case 'apply_rate':
      return i.applicationRate ?? -1;
    case 'new_views':
      return i.change?.views ?? -Infinity;
    case 'new_likes':
      return i.change?.likes ?? -Infinity;
    case 'new_applications':
      return i.change?.applications ?? -Infinity;
  }
}

/** References ascending, numbers descending (the biggest first); ties by reference. */
export function sortInsights(list: Insight[], key: SortKey): Insight[] {
  return list.sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    if (typeof x === 'string' || typeof y === 'string') return String(x).localeCompare(String(y));
    return y - x || a.reference.localeCompare(b.reference);
  });
}
