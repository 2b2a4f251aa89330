/**
 * Progress of a long run on stderr: on a terminal of known width the live line (done/total,
 * failures, rate, ETA); elsewhere, a terminal without a width included, a plain line every few
 * seconds; nothing with --json or --quiet. Result lines written through `log` don't collide with
 * the live line.
 */
import type { Context } from '../context.js';
import { liveLine, showsStatus } from './live-line.js';

export interface Progress {
  tick(failed: boolean): void;
  /** Writes a line to stdout without breaking the live line. */
  log(line: string): void;
  stop(): void;
}

const PLAIN_EVERY_MS = 5000;

export async function startProgress(ctx: Context, total: number, label: string): Promise<Progress> {
  const started = Date.now();
  let done = 0;
  let failed = 0;
  const text = () => {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
    return `${label} ${done}/${total}${failed ? `, ${failed} failed` : ''}, ${rate.toFixed(1)}/s${eta !== undefined && done < total ? `, ETA ${eta}s` : ''}`;
  };
  const silent = !showsStatus(ctx) || total === 0;
  if (silent) return { tick: (f) => ((done += 1), (failed += f ? 1 : 0)), log: (line) => ctx.io.stdout.write(line), stop: () => undefined };

  const line = liveLine(ctx);
  if (line) {
    line.set('progress', text());
    const timer = setInterval(() => line.set('progress', text()), 200);
    return {
      tick(f) {
        done++;
        if (f) failed++;
      },
      log: (out) => line.print(ctx.io.stdout, out),
      stop() {
        clearInterval(timer);
        line.set('progress', undefined);
      },
    };
  }

  let last = Date.now();
  return {
    tick(f) {
      done++;
      if (f) failed++;
      if (Date.now() - last >= PLAIN_EVERY_MS && done < total) {
        last = Date.now();
        ctx.io.stderr.write(`${text()}\n`);
      }
    },
    log: (line) => ctx.io.stdout.write(line),
    stop: () => undefined,
  };
}
