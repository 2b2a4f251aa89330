/**
 * What the report shows, computed from the history alone (no request to the service): each
 * advert's latest counters, rates, change over the last week and trend; totals per day; the funnel
 * views -> likes -> applications; what needs attention. The same object is the report's JSON.
 */
import { DAY_MS, QUIET_MS, insight, type Insight } from '../history/insights.js';
import type { History, Snapshot } from '../history/store.js';

/** Points kept per advert for its trend in the table (the last value of each bucket). */
export const TREND_POINTS = 30;

export interface AdvertReport extends Insight {
  /** Snapshots recorded for this advert in the period. */
  snapshots: number;
  first: number;
  last: number;
  /** The trend, at most TREND_POINTS points: times (epoch ms) and the counters at those times. */
  trend: { at: number[]; views: number[]; likes: number[]; applications: number[] };
}

export interface DayTotals {
  /** Start of the UTC day, epoch ms. */
  day: number;
  views: number;
  likes: number;
  applications: number;
  applications_unviewed: number;
}

export interface ReportModel {
  service: string;
  generatedAt: number;
  /** The period covered: first and last snapshot (epoch ms). */
  from: number;
  to: number;
  adverts: AdvertReport[];
  /** Sums over adverts of each one's latest counters at the end of each day. */
  totals: DayTotals[];
  funnel: { views: number; likes: number; applications: number };
}

export function buildReport(history: History, options: { from?: number; now?: number } = {}): ReportModel {
  const series = new Map<string, Snapshot[]>();
  for (const s of history.read(options.from ?? 0)) {
    let list = series.get(s.reference);
    if (!list) series.set(s.reference, (list = []));
    list.push(s);
  }
  let from = Infinity;
  let to = -Infinity;
  for (const list of series.values()) {
    from = Math.min(from, list[0]!.at);
    to = Math.max(to, list[list.length - 1]!.at);
  }
  const adverts: AdvertReport[] = [];
  for (const [reference, list] of series) {
    const last = list[list.length - 1]!;
    const weekAgo = newestAtOrBefore(list, last.at - QUIET_MS);
    // The change over the last week (or since the first snapshot, for a younger history).
    const baseline = weekAgo ?? (list.length > 1 ? list[0] : undefined);
    adverts.push({ ...insight(reference, last, baseline, weekAgo), snapshots: list.length, first: list[0]!.at, last: last.at, trend: trendOf(list) });
  }
  adverts.sort((a, b) => a.reference.localeCompare(b.reference));
  const totals = series.size === 0 ? [] : dailyTotals(series, from, to);
  const funnel = { views: 0, likes: 0, applications: 0 };
  for (const a of adverts) {
    funnel.views += a.current.views;
    funnel.likes += a.current.likes;
    funnel.applications += a.current.applications;
  }
  return { service: history.service, generatedAt: options.now ?? Date.now(), from: series.size ? from : 0, to: series.size ? to : 0, adverts, totals, funnel };
}

/** Binary search in a list sorted by time. */
function newestAtOrBefore(list: readonly Snapshot[], at: number): Snapshot | undefined {
  let lo = 0;
  let hi = list.length - 1;
  let found: Snapshot | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at <= at) {
      found = list[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function trendOf(list: readonly Snapshot[]): AdvertReport['trend'] {
  const n = Math.min(TREND_POINTS, list.length);
  const trend: AdvertReport['trend'] = { at: [], views: [], likes: [], applications: [] };
  for (let i = 1; i <= n; i++) {
    const s = list[Math.ceil((i * list.length) / n) - 1]!;
    trend.at.push(s.at);
    trend.views.push(s.views);
    trend.likes.push(s.likes);
    trend.applications.push(s.applications);
  }
  return trend;
}

/** Each day's sum of every advert's latest counters by the end of that day (carried forward). */
function dailyTotals(series: Map<string, Snapshot[]>, from: number, to: number): DayTotals[] {
  const first = Math.floor(from / DAY_MS) * DAY_MS;
  const days = Math.floor(to / DAY_MS) - first / DAY_MS + 1;
  const totals: DayTotals[] = Array.from({ length: days }, (_, i) => ({ day: first + i * DAY_MS, views: 0, likes: 0, applications: 0, applications_unviewed: 0 }));
  for (const list of series.values()) {
    let i = 0;
    let current: Snapshot | undefined;
    for (let d = 0; d < days; d++) {
      const end = first + (d + 1) * DAY_MS;
      while (i < list.length && list[i]!.at < end) current = list[i++];
      if (!current) continue;
      const t = totals[d]!;
      t.views += current.views;
      t.likes += current.likes;
      t.applications += current.applications;
      t.applications_unviewed += current.applications_unviewed;
    }
  }
  return totals;
}
