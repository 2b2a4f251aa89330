/** Statistics as an aligned table (with rates, change and what needs attention) or JSON. */
import { jsonText } from '../../output/json-output.js';
import type { Stats } from '../../../core/api/client.js';
import type { Context } from '../../context.js';
import type { JobsError } from '../../../core/errors/failures.js';
import type { Insight } from '../../../core/history/insights.js';
import type { Snapshot } from '../../../core/history/store.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { downsample, sparkline } from '../../output/sparkline.js';
import { paint } from '../../output/summary.js';
import { isJson } from '../../output/command-io.js';
import { closingThisWeek, daysLeftText, type Closing } from '../../../core/published/closing.js';
import { rate } from '../../../core/history/insights.js';

export type StatsResult = { reference: string; stats: Stats } | { reference: string; error: JobsError };

export interface StatsView {
  /** One per advert that answered, in display order. */
  insights: Insight[];
  /** What the change is measured from, in words: `the last snapshot`, `7d`. */
  changeLabel: string;
  /** Said on stderr when the table is empty for a reason (a filter). */
  note?: string;
  /** With --history: each shown advert's snapshots, oldest first. */
  series?: Map<string, Snapshot[]>;
  /** The adverts with a closing date (`jobs.closes`), with their days left. */
  closing?: ReadonlyMap<string, Closing>;
  /** Groups asked for (an advert for several places): group reference -> its places' references. */
  groups?: Map<string, string[]>;
}

/** A group's counters summed over its places that answered, with its rates. */
export interface GroupTotal extends Stats {
  reference: string;
  places: string[];
  like_rate: number | null;
  application_rate: number | null;
}

export function groupTotals(view: StatsView): GroupTotal[] {
  const byReference = new Map(view.insights.map((i) => [i.reference, i.current]));
  return [...(view.groups ?? [])].map(([reference, places]) => {
    const sum: Stats = { views: 0, likes: 0, applications: 0, applications_unviewed: 0 };
    for (const place of places) {
      const current = byReference.get(place);
      if (current) for (const key of Object.keys(sum) as (keyof Stats)[]) sum[key] += current[key];
    }
    return { reference, places, ...sum, like_rate: rate(sum.likes, sum.views), application_rate: rate(sum.applications, sum.views) };
  });
}

const percent = (r: number | null) => (r === null ? '-' : `${(100 * r).toFixed(1)}%`);
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `${n}` : '±0');
const iso = (ms: number) => new Date(ms).toISOString();

export function insightJson(i: Insight, closing?: Closing): Record<string, unknown> {
  return {
    reference: i.reference,
    ...i.current,
    like_rate: i.likeRate,
    application_rate: i.applicationRate,
    change: i.change ? { ...i.change, since: iso(i.change.since) } : null,
    needs_attention: i.attention,
    ...(closing ? { closes: closing.closes, days_left: closing.days_left } : {}),
  };
}

export function snapshotJson(s: Snapshot): Record<string, unknown> {
  return { at: iso(s.at), views: s.views, likes: s.likes, applications: s.applications, applications_unviewed: s.applications_unviewed };
}

export function renderStats(ctx: Context, results: readonly StatsResult[], view: StatsView): void {
  const errors = results.flatMap((r) => ('error' in r ? [r] : []));
  if (isJson(ctx)) {
    const doc: Record<string, unknown> = {
      stats: [
        ...view.insights.map((i) => insightJson(i, view.closing?.get(i.reference))),
        ...errors.map((r) => ({ reference: r.reference, error: { message: r.error.message, exit_code: r.error.exitCode } })),
      ],
    };
    if (view.groups) doc.groups = groupTotals(view);
    if (view.series) doc.history = [...view.series].map(([reference, list]) => ({ reference, snapshots: list.map(snapshotJson) }));
    ctx.io.stdout.write(jsonText(doc));
    return;
  }
  const out = ctx.io.stdout;
  const bold = paint(ctx, out).bold;
  const closing = view.closing?.size ? view.closing : undefined;
  const header = ['REFERENCE', 'VIEWS', 'LIKES', 'APPLICATIONS', 'UNVIEWED', 'LIKE RATE', 'APPLY RATE', ...(closing ? ['DAYS LEFT'] : [])];
  const cell = (i: Insight, key: keyof Stats) => (i.change ? `${i.current[key]} (${signed(i.change[key])})` : String(i.current[key]));
  const rows = view.insights.map((i) => [
    sanitize(i.reference),
    cell(i, 'views'),
    cell(i, 'likes'),
    cell(i, 'applications'),
    cell(i, 'applications_unviewed'),
    percent(i.likeRate),
    percent(i.applicationRate),
    ...(closing ? [closingCell(closing.get(i.reference))] : []),
  ]);
  // A group's total follows the rows: `= ACME-0042 (3 places)`.
  const changes = new Map(view.insights.map((i) => [i.reference, i.change]));
  const totals = groupTotals(view).map((g) => {
    // The change is summed too when every place has one (each row shows its own).
    const placeChanges = g.places.map((p) => changes.get(p));
    const summed = placeChanges.every((c) => c !== undefined) ? placeChanges : undefined;
    const total = (key: keyof Stats) => (summed ? `${g[key]} (${signed(summed.reduce((n, c) => n + c![key], 0))})` : String(g[key]));
    return [
      `= ${sanitize(g.reference)} (${g.places.length} place${g.places.length === 1 ? '' : 's'})`,
      total('views'),
      total('likes'),
      total('applications'),
      total('applications_unviewed'),
      percent(g.like_rate),
      percent(g.application_rate),
      ...(closing ? [''] : []),
    ];
  });
  if (rows.length > 0) {
    for (const total of totals) rows.push(total);
    // reduce, not Math.max(...rows): `stats --all` may list more references than a call takes arguments.
    const widths = header.map((h, i) => rows.reduce((width, row) => Math.max(width, row[i]!.length), h.length));
    const line = (cells: string[]) =>
      cells
        .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
        .join('  ')
        .trimEnd();
    out.write(`${bold(line(header))}\n`);
    for (const row of rows) out.write(`${line(row)}\n`);
    if (view.insights.some((i) => i.change)) out.write(`(change since ${view.changeLabel})\n`);
  }
  const attention = view.insights.filter((i) => i.attention.length > 0);
  if (attention.length > 0) {
    out.write(`\n${bold('Needs attention')}\n`);
    for (const i of attention) out.write(`  ${sanitize(i.reference)}: ${i.attention.join('; ')}\n`);
  }
  const soon = closing ? closingThisWeek(closing).filter((c) => view.insights.some((i) => i.reference === c.reference)) : [];
  if (soon.length > 0) {
    out.write(`\n${bold('Closing this week')}\n`);
    for (const c of soon) out.write(`  ${sanitize(c.reference)}: ${daysLeftText(c)} (closes ${c.closes})\n`);
  }
  if (view.series) renderTrends(out, view.series, bold);
  if (view.note) ctx.io.stderr.write(`${view.note}\n`);
  const c = paint(ctx, ctx.io.stderr);
  for (const r of errors) ctx.io.stderr.write(`${c.red('✖')} ${sanitize(r.reference)}: ${sanitize(r.error.message)}\n`);
}

/** Days left of an advert with a closing date; `-` without one. */
const closingCell = (c: Closing | undefined) => (c === undefined ? '-' : c.days_left < 0 ? 'closed' : String(c.days_left));

const TREND_WIDTH = 60;
const LABELS: [keyof Stats, string][] = [
  ['views', 'views'],
  ['likes', 'likes'],
  ['applications', 'applications'],
  ['applications_unviewed', 'unviewed'],
];

/** A sparkline per counter, with the first and last values so the chart reads without colour. */
function renderTrends(out: Context['io']['stdout'], series: Map<string, Snapshot[]>, bold: (s: string) => string): void {
  for (const [reference, list] of series) {
    out.write('\n');
    if (list.length === 0) {
      out.write(`${bold(sanitize(reference))}: no snapshots yet (each jobs stats run records one)\n`);
      continue;
    }
    const first = list[0]!;
    const last = list[list.length - 1]!;
    const day = (ms: number) => iso(ms).slice(0, 16).replace('T', ' ');
    out.write(`${bold(sanitize(reference))}  ${list.length} snapshot${list.length === 1 ? '' : 's'}, ${day(first.at)} → ${day(last.at)} UTC\n`);
    for (const [key, label] of LABELS) {
      const values = downsample(
        list.map((s) => s[key]),
        TREND_WIDTH,
      );
      out.write(
        `  ${label.padEnd(13)} ${sparkline(values).padEnd(Math.min(TREND_WIDTH, list.length))}  ${first[key]} → ${last[key]} (${signed(last[key] - first[key])})\n`,
      );
    }
  }
}
