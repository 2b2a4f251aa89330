/**
 * One `jobs stats` run against the history: read each advert's baselines, then append this run's
 * snapshots, and say what changed. Baselines are read before the append, so "since the last
 * snapshot" means the previous run.
 */
import type { Counters } from './store.js';
import { History } from './store.js';
import { baselinesFor, insight, type Insight } from './insights.js';

export interface Observed {
  reference: string;
  stats: Counters;
  /** When the counters were read (epoch ms); a loopback sandbox's simulated clock, else ours. */
  at: number;
}

export interface RecordOptions {
  /** Compare with the snapshot at the start of this window instead of the last one. */
  windowMs?: number;
  /** false: compare only, append nothing. */
  record?: boolean;
}

export function recordAndCompare(history: History, observed: readonly Observed[], options: RecordOptions = {}): Insight[] {
  if (observed.length === 0) return [];
  const now = Math.max(...observed.map((o) => o.at));
  const { baseline, weekAgo } = baselinesFor(
    history,
    observed.map((o) => o.reference),
    now,
    options.windowMs,
  );
  if (options.record !== false) history.append(observed.map((o) => ({ reference: o.reference, at: o.at, ...o.stats })));
  return observed.map((o) => insight(o.reference, o.stats, baseline.get(o.reference), weekAgo.get(o.reference)));
}

export { History };
