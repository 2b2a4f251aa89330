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
}

const percent = (r: number | null) => (r === null ? '-' : `${(100 * r).toFixed(1)}%`);
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `${n}` : '±0');
const iso = (ms: number) => new Date(ms).toISOString();

export function insightJson(i: Insight): Record<string, unknown> {
  return {
    reference: i.reference,
    ...i.current,
    like_rate: i.likeRate,
    application_rate: i.applicationRate,
    change: i.change ? { ...i.change, since: iso(i.change.since) } : null,
    needs_attention: i.attention,
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
        ...view.insights.map(insightJson),
        ...errors.map((r) => ({ reference: r.reference, error: { message: r.error.message, exit_code: r.error.exitCode } })),
      ],
    };
    if (view.series) doc.history = [...view.series].map(([reference, list]) => ({ reference, snapshots: list.map(snapshotJson) }));
    ctx.io.stdout.write(jsonText(doc));
    return;
  }
  const out = ctx.io.stdout;
  const bold = paint(ctx, out).bold;
  const header = ['REFERENCE', 'VIEWS', 'LIKES', 'APPLICATIONS', 'UNVIEWED', 'LIKE RATE', 'APPLY RATE'];
  const cell = (i: Insight, key: keyof Stats) => (i.change ? `${i.current[key]} (${signed(i.change[key])})` : String(i.current[key]));
  const rows = view.insights.map((i) => [
    sanitize(i.reference),
    cell(i, 'views'),
    cell(i, 'likes'),
    cell(i, 'applications'),
    cell(i, 'applications_unviewed'),
    percent(i.likeRate),
    percent(i.applicationRate),
  ]);
  if (rows.length > 0) {
    // reduce, not Math.max(...rows): `stats --all` may list more references than a call takes arguments.
    const widths = header.map((h, i) => rows.reduce((width, row) => Math.max(width, row[i]!.length), h.length));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
    out.write(`${bold(line(header))}\n`);
    for (const row of rows) out.write(`${line(row)}\n`);
    if (view.insights.some((i) => i.change)) out.write(`(change since ${view.changeLabel})\n`);
  }
  const attention = view.insights.filter((i) => i.attention.length > 0);
  if (attention.length > 0) {
    out.write(`\n${bold('Needs attention')}\n`);
    for (const i of attention) out.write(`  ${sanitize(i.reference)}: ${i.attention.join('; ')}\n`);
  }
  if (view.series) renderTrends(out, view.series, bold);
  if (view.note) ctx.io.stderr.write(`${view.note}\n`);
  const c = paint(ctx, ctx.io.stderr);
  for (const r of errors) ctx.io.stderr.write(`${c.red('✖')} ${sanitize(r.reference)}: ${sanitize(r.error.message)}\n`);
}

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
      out.write(`  ${label.padEnd(13)} ${sparkline(values).padEnd(Math.min(TREND_WIDTH, list.length))}  ${first[key]} → ${last[key]} (${signed(last[key] - first[key])})\n`);
    }
  }
}
