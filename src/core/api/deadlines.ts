/**
 * Per-attempt timeouts without a controller and a timer per attempt: attempts that start within the
 * same short window share one AbortController, aborted (with the given reason) once the last of
 * them has had its full time. A bulk run starts thousands of attempts a second; a controller, a
 * timer and the listeners fetch hangs on each were a measurable part of its CPU time.
 * An attempt may so run up to one window (1/32 of the timeout, 1 s at most) longer than the
 * timeout, never shorter; the timer is cleared when every attempt of its window has ended. A window
 * takes at most MAX_JOINS attempts: each attempt listens to the signal while it runs (a fetch handed
 * in, until its request is collected), and a signal with too many listeners makes Node warn of a leak.
 */
import { setMaxListeners } from 'node:events';

/** The longest delay setTimeout takes as given. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const MAX_JOINS = 64;

interface Window {
  controller: AbortController;
  timer: ReturnType<typeof setTimeout>;
  /** Attempts of this window not yet ended. */
  active: number;
  /** Attempts may join until then (ms, from `now`). */
  joinUntil: number;
  /** Attempts that joined. */
  joined: number;
}

/** An attempt's signal, and the function to call when the attempt has ended (once). */
export interface Deadline {
  signal: AbortSignal;
  end(): void;
}

export class Deadlines {
  private current: Window | undefined;
  private readonly windowMs: number;

  constructor(
    private readonly timeoutMs: number,
    private readonly reason: () => unknown,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowMs = Math.max(0, Math.min(1000, Math.floor(timeoutMs / 32)));
  }

  /** A signal that aborts no sooner than `timeoutMs` from now. */
  start(): Deadline {
    const now = this.now();
    let window = this.current;
    if (window === undefined || now >= window.joinUntil || window.joined >= MAX_JOINS || window.controller.signal.aborted) {
      const controller = new AbortController();
      // Every attempt of the window listens to it (the request, and a caller's signal): no leak warning past
      // 10 of them. Not 0 (unlimited): Node 20's getMaxListeners then throws, and fetch asks it on every request.
      setMaxListeners(4 * MAX_JOINS, controller.signal);
      const opened: Window = {
        controller,
        joinUntil: now + this.windowMs,
        active: 0,
        joined: 0,
        timer: setTimeout(
          () => {
            if (this.current === opened) this.current = undefined;
            controller.abort(this.reason());
            // Node fires a delay over 2^31-1 ms after 1 ms: a huge programmatic timeout waits the most it can.
          },
          Math.min(this.timeoutMs + this.windowMs, MAX_TIMER_MS),
        ),
      };
      this.current = window = opened;
    }
    const mine = window;
    mine.active++;
    mine.joined++;
    let ended = false;
    return {
      signal: mine.controller.signal,
      end: () => {
        if (ended) return;
        ended = true;
        if (--mine.active > 0) return;
        clearTimeout(mine.timer);
        if (this.current === mine) this.current = undefined;
      },
    };
  }
}
