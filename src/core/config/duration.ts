/**
 * Durations as users write them in config and flags: `30s`, `500ms`, `2m`, `12h`, `7d`, or a number
 * of seconds.
 */

const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/;
const MAX_MS = 3_600_000;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Milliseconds, or undefined when the text is not a duration from 1ms to `maxMs` (1h by default:
 * timeouts; history windows pass a larger bound).
 */
export function parseDurationMs(value: string | number, maxMs = MAX_MS): number | undefined {
  let ms: number;
  if (typeof value === 'number') {
    ms = value * 1000;
  } else {
    const m = DURATION.exec(value);
    if (!m) return undefined;
    ms = Number(m[1]) * UNIT_MS[m[2] ?? 's']!;
  }
  if (!Number.isFinite(ms) || ms <= 0 || ms > maxMs) return undefined;
  return Math.max(1, Math.round(ms));
}

/**
 * The one spelling of a duration shown anywhere (config list, doctor, error messages, traces): the
 * largest unit that writes it exactly, seconds with decimals below a minute, milliseconds below a
 * second: `1d`, `2h`, `2m`, `90s`, `1.5s`, `500ms`. Every spelling reads back with parseDurationMs,
 * so a value shown can be pasted into a config or a flag.
 */
export function formatDuration(ms: number): string {
  if (ms >= 86_400_000 && ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms < 1000) return `${ms}ms`;
  return `${ms / 1000}s`;
}
