/**
 * What the report shows, computed from the history alone (no request to the service): each
 * advert's latest counters, rates, change over the last week and trend; totals per day; the funnel
 * views -> likes -> applications; what needs attention. The same object is the report's JSON.
 */
import { DAY_MS, QUIET_MS, insight, type Insight } from '../history/insights.js';
import type { History, Snapshot, Visitor } from '../history/store.js';
import { CancelledError } from '../errors/failures.js';
import { nextTurn } from '../util/next-turn.js';
import { closingDates, closingThisWeek } from '../published/closing.js';

/** Points kept per advert for its trend in the table (the last value of each bucket). */
export const TREND_POINTS = 30;

export interface AdvertReport extends Insight {
  /** The title it was last published with, from the record of published adverts. */
  title?: string;
  /** Deleted through this tool: shown as deleted, never as needing attention. */
  deleted?: boolean;
  /** Its `jobs.closes` date (YYYY-MM-DD, UTC), from the record of published adverts; live adverts only. */
  closes?: string;
  /** Whole days from today to `closes`: 0 on the last day, negative once closed. */
  daysLeft?: number;
  /** For an advert made from a `locations:` list: its file's reference, which the adverts of its places share. */
  group?: string;
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
  /** Sums over live adverts of each one's latest counters at the end of each day (deleted ones count in no total). */
  totals: DayTotals[];
  funnel: { views: number; likes: number; applications: number };
  /** Live adverts that close within the week (today and the 6 days after), soonest first. */
  closingThisWeek: { reference: string; title?: string; closes: string; days_left: number }[];
}

/** One advert while the history is scanned: its edges, its week-ago baseline, trend buckets and days. */
interface Accumulator {
  reference: string;
  count: number;
  first: Snapshot;
  last: Snapshot;
  weekAgo?: Snapshot;
  /** Per trend bucket: the time and counters of its newest snapshot (time -1: none). */
  trend: Float64Array;
  /** Per day of the period: the time and the four counters of its newest snapshot (time -1: none). */
  days: Float64Array;
}

/**
 * One pass over the history, creating no object per snapshot (a year of 10,000 adverts is 3.65
 * million): each advert keeps only its edges, a bucket per trend point and a slot per day, each
 * holding the newest snapshot that falls in it, so the order of the lines does not matter.
 */
export function buildReport(history: History, options: ReportOptions = {}): ReportModel {
  const report = startReport(history, options);
  if ('model' in report) return report.model;
  history.scan(report.from, report.visit);
  return report.finish();
}

/**
 * buildReport for a run that can be stopped (Ctrl-C): it lets the event loop turn after each month
 * of history, where a signal's handler can run, and throws a CancelledError once `signal` is aborted.
 */
export async function buildReportStoppable(history: History, options: ReportOptions, signal: AbortSignal): Promise<ReportModel> {
  const stopped = async () => {
    await nextTurn();
    return signal.aborted;
  };
  const interrupted = () => new CancelledError('interrupted while reading the history: no report was written');
  // Finding the span reads the first and last months already.
  const report = startReport(history, options);
  if (await stopped()) throw interrupted();
  if ('model' in report) return report.model;
  for (const _month of history.segments(report.from, report.visit)) if (await stopped()) throw interrupted();
  return report.finish();
}

export interface ReportOptions {
  /** The oldest snapshot to include (epoch ms); all when omitted. */
  from?: number;
  now?: number;
  /** What this tool published to the service (core/published/record.ts): titles, which are deleted, closing dates, groups. */
  published?: ReadonlyMap<string, { title?: string; deleted_at?: string; closes?: string; group?: string }>;
  /** Today's UTC day number, for days left (sync/today.ts); default from `now`. */
  today?: number;
}

type StartedReport = { model: ReportModel } | { from: number; visit: Visitor; finish: () => ReportModel };

/** The report's accumulators and what to do with each snapshot; a model at once when there is none. */
function startReport(history: History, options: ReportOptions): StartedReport {
  const generatedAt = options.now ?? Date.now();
  const from = options.from ?? 0;
  const span = history.span(from);
  if (!span)
    return {
      model: {
        service: history.service,
        generatedAt,
        from: 0,
        to: 0,
        adverts: [],
        totals: [],
        funnel: { views: 0, likes: 0, applications: 0 },
        closingThisWeek: [],
      },
    };
  const firstDay = Math.floor(span.first / DAY_MS);
  const dayCount = Math.floor(span.last / DAY_MS) - firstDay + 1;
  const bucketMs = Math.max(1, (span.last - span.first + 1) / TREND_POINTS);
  const cutoff = span.last - QUIET_MS;
  const accumulators = new Map<string, Accumulator>();
  const snapshot = (reference: string, at: number, views: number, likes: number, applications: number, unviewed: number): Snapshot => ({
    reference,
    at,
    views,
    likes,
    applications,
    applications_unviewed: unviewed,
  });

  const visit: Visitor = (reference, at, views, likes, applications, unviewed) => {
    let acc = accumulators.get(reference);
    if (!acc) {
      const s = snapshot(reference, at, views, likes, applications, unviewed);
      acc = { reference, count: 0, first: s, last: s, trend: new Float64Array(TREND_POINTS * 4).fill(-1), days: new Float64Array(dayCount * 5).fill(-1) };
      accumulators.set(reference, acc);
    }
    acc.count++;
    if (at < acc.first.at) acc.first = snapshot(reference, at, views, likes, applications, unviewed);
    if (at >= acc.last.at) acc.last = snapshot(reference, at, views, likes, applications, unviewed);
    if (at <= cutoff && (!acc.weekAgo || at >= acc.weekAgo.at)) acc.weekAgo = snapshot(reference, at, views, likes, applications, unviewed);
    const b = Math.min(TREND_POINTS - 1, Math.floor((at - span.first) / bucketMs)) * 4;
    if (at >= acc.trend[b]!) {
      acc.trend[b] = at;
      acc.trend[b + 1] = views;
      acc.trend[b + 2] = likes;
      acc.trend[b + 3] = applications;
    }
    const d = Math.min(dayCount - 1, Math.max(0, Math.floor(at / DAY_MS) - firstDay)) * 5;
    if (at >= acc.days[d]!) {
      acc.days[d] = at;
      acc.days[d + 1] = views;
      acc.days[d + 2] = likes;
      acc.days[d + 3] = applications;
      acc.days[d + 4] = unviewed;
    }
  };
  const today = options.today ?? Math.floor(generatedAt / DAY_MS);
  return {
    from,
    visit,
    finish: () => withClosing(finishReport(history.service, generatedAt, span, dayCount, firstDay, accumulators, options.published), options.published, today),
  };
}

/** Days left of each live advert with a closing date, and those closing this week (see published/closing.ts). */
function withClosing(model: ReportModel, published: ReportOptions['published'], today: number): ReportModel {
  if (!published) return model;
  const closing = closingDates(
    published,
    model.adverts.map((a) => a.reference),
    today,
  );
  for (const advert of model.adverts) {
    const c = closing.get(advert.reference);
    if (!c) continue;
    advert.closes = c.closes;
    advert.daysLeft = c.days_left;
  }
  const titles = new Map(model.adverts.map((a) => [a.reference, a.title]));
  model.closingThisWeek = closingThisWeek(closing).map((c) => ({
    ...c,
    ...(titles.get(c.reference) === undefined ? {} : { title: titles.get(c.reference)! }),
  }));
  return model;
}

function finishReport(
  service: string,
  generatedAt: number,
  span: { first: number; last: number },
  dayCount: number,
  firstDay: number,
  accumulators: Map<string, Accumulator>,
  published: ReportOptions['published'],
): ReportModel {
  const totals: DayTotals[] = Array.from({ length: dayCount }, (_, i) => ({
    day: (firstDay + i) * DAY_MS,
    views: 0,
    likes: 0,
    applications: 0,
    applications_unviewed: 0,
  }));
  const adverts: AdvertReport[] = [];
  const funnel = { views: 0, likes: 0, applications: 0 };
  for (const acc of accumulators.values()) {
    // The change over the last week (or since the first snapshot, for a younger history).
    const baseline = acc.weekAgo ?? (acc.count > 1 ? acc.first : undefined);
    const trend: AdvertReport['trend'] = { at: [], views: [], likes: [], applications: [] };
    for (let b = 0; b < TREND_POINTS * 4; b += 4) {
      if (acc.trend[b]! < 0) continue;
      trend.at.push(acc.trend[b]!);
      trend.views.push(acc.trend[b + 1]!);
      trend.likes.push(acc.trend[b + 2]!);
      trend.applications.push(acc.trend[b + 3]!);
    }
    const advert: AdvertReport = {
      ...insight(acc.reference, acc.last, baseline, acc.weekAgo),
      snapshots: acc.count,
      first: acc.first.at,
      last: acc.last.at,
      trend,
    };
    const known = published?.get(acc.reference);
    if (known?.title !== undefined) advert.title = known.title;
    if (known?.group !== undefined) advert.group = known.group;
    if (known?.deleted_at !== undefined) {
      advert.deleted = true;
      advert.attention = [];
    }
    adverts.push(advert);
    // A deleted advert is listed as deleted, and counts in no total.
    if (advert.deleted) continue;
    funnel.views += acc.last.views;
    funnel.likes += acc.last.likes;
    funnel.applications += acc.last.applications;
    // Each day counts the advert's latest counters by then (carried forward over days without one).
    let seen = false;
    const carried = [0, 0, 0, 0];
    for (let i = 0; i < dayCount; i++) {
      const d = i * 5;
      if (acc.days[d]! >= 0) {
        seen = true;
        for (let k = 0; k < 4; k++) carried[k] = acc.days[d + 1 + k]!;
      }
      if (!seen) continue;
      const t = totals[i]!;
      t.views += carried[0]!;
      t.likes += carried[1]!;
      t.applications += carried[2]!;
      t.applications_unviewed += carried[3]!;
    }
  }
  adverts.sort((a, b) => a.reference.localeCompare(b.reference));
  return { service, generatedAt, from: span.first, to: span.last, adverts, totals, funnel, closingThisWeek: [] };
}

/** The live adverts of one group (an advert written for several places), with their counters summed. */
export interface GroupReport {
  reference: string;
  places: string[];
  views: number;
  likes: number;
  applications: number;
  applications_unviewed: number;
}

export function groupReports(model: ReportModel): GroupReport[] {
  const groups = new Map<string, GroupReport>();
  for (const a of model.adverts) {
    if (a.group === undefined || a.deleted) continue;
    let g = groups.get(a.group);
    if (!g) groups.set(a.group, (g = { reference: a.group, places: [], views: 0, likes: 0, applications: 0, applications_unviewed: 0 }));
    g.places.push(a.reference);
    g.views += a.current.views;
    g.likes += a.current.likes;
    g.applications += a.current.applications;
    g.applications_unviewed += a.current.applications_unviewed;
  }
  return [...groups.values()].sort((a, b) => a.reference.localeCompare(b.reference));
}
