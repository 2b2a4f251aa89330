/**
 * No silent waits: what a user sees while the client waits for the service. Each retry says on
 * stderr what went wrong, how long the client waits and which attempt comes next; on a terminal,
 * a request that takes more than a moment, and a long wait before a retry, show on the live line
 * with the seconds counting. Nothing with --quiet, --json or sarif output.
 */
import type { ClientOptions, RetryWait } from '../../core/api/transport.js';
import type { Context } from '../context.js';
import { liveLine, showsStatus, type LiveLine } from './live-line.js';
import { sanitize } from '../../core/util/sanitize.js';

/** A request shows on the live line once it has taken this long. */
export const SLOW_REQUEST_MS = 1000;
const REFRESH_MS = 250;

/** The client's callbacks for this run's output: none where the run must stay quiet. */
export function requestStatus(ctx: Context): Pick<ClientOptions, 'onRequest' | 'onWait'> {
  if (!showsStatus(ctx)) return {};
  const line = liveLine(ctx);
  if (!line) return { onWait: (wait) => void ctx.io.stderr.write(`${waitLine(wait)}\n`) };

  const shown = new LiveActivities(line);
  return {
    onRequest(request) {
      const started = Date.now();
      return shown.track((now) =>
        now - started >= SLOW_REQUEST_MS ? `waiting for ${sanitize(request)} (${Math.floor((now - started) / 1000)}s)…` : undefined,
      );
    },
    onWait(wait) {
      line.print(ctx.io.stderr, `${waitLine(wait)}\n`);
      if (wait.ms < SLOW_REQUEST_MS) return undefined;
      const until = Date.now() + wait.ms;
      return shown.track((now) => `${sanitize(wait.reason)}: retrying ${sanitize(wait.request)} in ${Math.max(1, Math.ceil((until - now) / 1000))}s…`);
    },
  };
}

/** `POST /jobs: rate limit (429): waiting 30s, attempt 2 of 6`. */
export function waitLine(wait: RetryWait): string {
  const how = wait.askedByService ? `waiting ${waitText(wait.ms)}` : `retrying in ${waitText(wait.ms)}`;
  return sanitize(`${wait.request}: ${wait.reason}: ${how}, attempt ${wait.attempt} of ${wait.attempts}`);
}

/** `0.3s`, `2s`, `1.5s`, `30s`, `2m 5s`: as precise as a person waiting needs. */
export function waitText(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')}s`;
  const total = Math.round(ms / 1000);
  if (total < 120) return `${total}s`;
  const seconds = total % 60;
  return seconds === 0 ? `${total / 60}m` : `${Math.floor(total / 60)}m ${seconds}s`;
}

/** What is under way, oldest first; the oldest that has something to show is on the live line. */
class LiveActivities {
  private readonly active = new Set<(now: number) => string | undefined>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly line: LiveLine) {}

  /** Tracks one activity until the returned function is called. */
  track(describe: (now: number) => string | undefined): () => void {
    this.active.add(describe);
    this.timer ??= setInterval(() => this.refresh(), REFRESH_MS).unref();
    return () => {
      this.active.delete(describe);
      this.refresh();
    };
  }

  private refresh(): void {
    const now = Date.now();
    const texts = [...this.active].flatMap((describe) => describe(now) ?? []);
    this.line.set('request', texts.length === 0 ? undefined : texts.length === 1 ? texts[0] : `${texts[0]} (+${texts.length - 1} more)`);
    if (this.active.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
