/** Durations as users write them in config and flags: `30s`, `500ms`, `2m`, or a number of seconds. */

const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/;
const MAX_MS = 3_600_000;

/** Milliseconds, or undefined when the text is not a duration from 1ms to 1h. */
export function parseDurationMs(value: string | number): number | undefined {
  let ms: number;
  if (typeof value === 'number') {
    ms = value * 1000;
  } else {
    const m = DURATION.exec(value);
    if (!m) return undefined;
    const n = Number(m[1]);
    ms = m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
  }
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_MS) return undefined;
  return Math.max(1, Math.round(ms));
}

/** The shortest exact spelling of a duration: `2m`, `30s`, `1500ms`. */
export function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
