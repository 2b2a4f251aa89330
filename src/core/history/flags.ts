/** The history flags of `jobs stats`, checked: a bad one is a UsageError that says what was expected. */
import { parseDurationMs } from '../config/duration.js';
import { UsageError } from '../errors/failures.js';
import { sanitize } from '../util/sanitize.js';
import { SORT_KEYS, type SortKey } from './insights.js';

/** Windows up to ten years. */
const MAX_WINDOW_MS = 3650 * 86_400_000;

export interface HistoryOptions {
  windowMs?: number;
  sort?: SortKey;
  needsAttention: boolean;
  trends: boolean;
  record: boolean;
}

export function parseWindow(text: string, flag = '--since'): number {
  const ms = parseDurationMs(text, MAX_WINDOW_MS);
  if (ms === undefined) throw new UsageError(`${flag}: expected a duration such as 7d, 12h or 30m, got "${sanitize(text)}"`);
  return ms;
}

export function parseSortKey(text: string): SortKey {
  const key = text.trim().toLowerCase().replace(/-/g, '_');
  const aliases: Record<string, SortKey> = { applications_unviewed: 'unviewed', application_rate: 'apply_rate' };
  const found = aliases[key] ?? SORT_KEYS.find((k) => k === key);
  if (!found) throw new UsageError(`--sort: unknown column "${sanitize(text)}"; expected one of ${SORT_KEYS.join(', ')}`);
  return found;
}

export function parseHistoryFlags(flags: { since?: string; sort?: string; needsAttention?: boolean; history?: boolean; record?: boolean }): HistoryOptions {
  const options: HistoryOptions = { needsAttention: Boolean(flags.needsAttention), trends: Boolean(flags.history), record: flags.record !== false };
  if (flags.since !== undefined) options.windowMs = parseWindow(flags.since);
  if (flags.sort !== undefined) options.sort = parseSortKey(flags.sort);
  return options;
}
