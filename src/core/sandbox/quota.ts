/**
 * The per-client rate quota: a fixed window per client that opens at the client's first request
 * and lasts `windowMs`; the first `limit` requests in it pass, later ones get 429 until it ends.
 * A fixed window is what the headers can describe exactly (RateLimit-Reset is the window's end)
 * and what a client's backoff can be tested against deterministically.
 */
import type { SandboxQuota } from './types.js';

export interface QuotaDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export class QuotaKeeper {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly quota: SandboxQuota,
    private readonly now: () => number,
  ) {}

  /** Counts one request of `client` and says whether it passes. Rejected requests do not count. */
  take(client: string): QuotaDecision {
    const now = this.now();
    let window = this.windows.get(client);
    if (!window || now >= window.start + this.quota.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(client, window);
    }
    const allowed = window.count < this.quota.limit;
    if (allowed) window.count++;
    // Whole seconds, at least 1: a client that waits this long finds the window open again.
    const resetSeconds = Math.max(1, Math.ceil((window.start + this.quota.windowMs - now) / 1000));
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(this.quota.limit),
      'RateLimit-Remaining': String(Math.max(0, this.quota.limit - window.count)),
      'RateLimit-Reset': String(resetSeconds),
    };
    if (!allowed) headers['Retry-After'] = String(resetSeconds);
    return { allowed, headers };
  }

  reset(): void {
    this.windows.clear();
  }
}
