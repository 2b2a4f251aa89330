/** From a `jobs stats` run's results to what is shown: record, compare, filter, sort, and trends. */
import { formatDuration } from '../config/duration.js';
import type { StatsResult, StatsView } from '../output/stats-table.js';
import type { HistoryOptions } from './flags.js';
import { sortInsights } from './insights.js';
import { recordAndCompare, type Observed } from './record.js';
import type { History, Snapshot } from './store.js';

export function statsView(history: History, results: readonly (StatsResult & { at?: number })[], options: HistoryOptions): StatsView {
  const observed: Observed[] = results.flatMap((r) => ('stats' in r ? [{ reference: r.reference, stats: r.stats, at: r.at ?? Date.now() }] : []));
  let insights = recordAndCompare(history, observed, { windowMs: options.windowMs, record: options.record });
  if (options.needsAttention) insights = insights.filter((i) => i.attention.length > 0);
  if (options.sort) insights = sortInsights(insights, options.sort);
  const view: StatsView = { insights, changeLabel: options.windowMs === undefined ? 'the last snapshot' : `${formatDuration(options.windowMs)} ago` };
  if (options.trends) {
    const shown = new Set(insights.map((i) => i.reference));
    const now = Math.max(0, ...observed.map((o) => o.at));
    const series = new Map<string, Snapshot[]>([...shown].map((r) => [r, []]));
    for (const s of history.read(options.windowMs === undefined ? 0 : now - options.windowMs)) series.get(s.reference)?.push(s);
    view.series = series;
  }
  return view;
}
