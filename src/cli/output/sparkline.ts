/** Sparklines: a series as block characters (▁..█), readable without colour. */
const BARS = '▁▂▃▄▅▆▇█';

/** Values reduced to at most `width` points: the last value of each bucket (counters only grow). */
export function downsample(values: readonly number[], width: number): number[] {
  if (values.length <= width) return [...values];
  const out: number[] = [];
  for (let i = 1; i <= width; i++) out.push(values[Math.ceil((i * values.length) / width) - 1]!);
  return out;
}

/** One character per value, scaled from the series' minimum to its maximum (flat: all ▁). */
export function sparkline(values: readonly number[]): string {
  if (values.length === 0) return '';
  const min = Math.min(...values);
  const span = Math.max(...values) - min;
  return values.map((v) => BARS[span === 0 ? 0 : Math.round(((v - min) / span) * (BARS.length - 1))]).join('');
}
