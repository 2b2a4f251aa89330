/** From a `jobs stats` run's results to what is shown: record, compare, filter, sort, and trends. */
import { formatDuration } from '../../../core/config/duration.js';
import type { StatsResult, StatsView } from './report.js';
import type { HistoryOptions } from '../../../core/history/flags.js';
import { insight, sortInsights, type Insight } from '../../../core/history/insights.js';
import { recordAndCompare, type Observed } from '../../../core/history/record.js';
import { HistoryWriteError, type History, type Snapshot } from '../../../core/history/store.js';
import { StorageError } from '../../../core/storage/errors.js';

export function statsView(
  history: History,
  results: readonly (StatsResult & { at?: number })[],
  options: HistoryOptions,
  warn: (line: string) => void,
): StatsView {
  const observed: Observed[] = results.flatMap((r) => ('stats' in r ? [{ reference: r.reference, stats: r.stats, at: r.at ?? Date.now() }] : []));
  let insights: Insight[];
  try {
    insights = recordAndCompare(history, observed, { windowMs: options.windowMs, record: options.record });
  } catch (error) {
    // The statistics were fetched: an unwritable history must not hide them.
    if (error instanceof HistoryWriteError) {
      // Read fine, write failed: the changes are shown; the warning says how much was kept.
      warn(
        `${error.message}: ${error.recorded === 0 ? 'nothing' : `${error.recorded} of ${error.total} snapshots`} recorded; free space or pass --history-dir <dir> or --no-record`,
      );
      insights = recordAndCompare(history, observed, { windowMs: options.windowMs, record: false });
      return finish(history, observed, insights, options);
    }
    // A segment that could not be read (a FIFO planted in its place) is named with the reason.
    if (error instanceof StorageError) warn(`${error.message}; no change shown, nothing recorded; or pass --history-dir <dir> or --no-record`);
    else {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      warn(`the history in ${history.folder} could not be used (${reason}): no change shown, nothing recorded; pass --history-dir <dir> or --no-record`);
    }
    insights = observed.map((o) => insight(o.reference, o.stats, undefined, undefined));
  }
  return finish(history, observed, insights, options);
}

function finish(history: History, observed: readonly Observed[], insights: Insight[], options: HistoryOptions): StatsView {
  let note: string | undefined;
  if (options.needsAttention) {
    insights = insights.filter((i) => i.attention.length > 0);
    if (insights.length === 0 && observed.length > 0) note = `nothing needs attention (${observed.length} advert${observed.length === 1 ? '' : 's'} checked)`;
  }
  if (options.sort) insights = sortInsights(insights, options.sort);
  const view: StatsView = { insights, changeLabel: options.windowMs === undefined ? 'the last snapshot' : `${formatDuration(options.windowMs)} ago` };
  if (note) view.note = note;
  if (options.trends) {
    const shown = new Set(insights.map((i) => i.reference));
    const now = Math.max(0, ...observed.map((o) => o.at));
    const series = new Map<string, Snapshot[]>([...shown].map((r) => [r, []]));
    try {
      for (const s of history.read(options.windowMs === undefined ? 0 : now - options.windowMs)) series.get(s.reference)?.push(s);
    } catch {
      // Already said above; the charts stay empty.
    }
    view.series = series;
  }
  return view;
}
