// Small helpers for benchmarks: run a command many times, alternating with its baseline, and report
// the ratio of medians. Every loop is bounded by a count.
import { spawnSync } from 'node:child_process';

export function timeOnce(cmd, args, options = {}) {
  const started = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000, ...options });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== (options.expectStatus ?? 0)) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Runs subject and baseline alternately `runs` times (after one warm-up each); returns medians and ratio. */
export function compare(subject, baseline, runs) {
  timeOnce(...subject);
  timeOnce(...baseline);
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(timeOnce(...subject));
    b.push(timeOnce(...baseline));
  }
  const ms = median(a);
  const base = median(b);
  return { ms, base, ratio: ms / base };
}

export function report(name, { ms, base, ratio }, target) {
  const verdict = target === undefined ? '' : ratio <= target ? `  (target <= ${target}x: met)` : `  (target <= ${target}x: MISSED)`;
  console.log(`${name.padEnd(58)} ${ratio.toFixed(2)}x${verdict}   [${ms.toFixed(0)} ms vs ${base.toFixed(0)} ms]`);
  return ratio;
}
