/**
 * `jobs sandbox --fast-forward <duration>`, the history's part: moves the embedded sandbox's clock
 * forward a day at a time (sandbox/fast-forward.ts) and, at each simulated day, reads the statistics
 * of every advert in it through the service's client and records them in the history, as if
 * `jobs --sandbox stats` of every advert had run once a day. `jobs --sandbox report` then shows a
 * month of trends on a fresh machine. The snapshots carry the sandbox's simulated dates (its
 * X-Sandbox-Time header), never today's date: they are demo data, kept under the `sandbox` service only.
 */
import { JobsClient } from '../api/client.js';
import { CancelledError, UsageError } from '../errors/failures.js';
import { openMovableSandbox } from '../sandbox/fast-forward.js';
import { resetEmbeddedSandbox } from '../sandbox/embedded.js';
import { forgetPublished } from '../published/record.js';
import { parseWindow } from './flags.js';
import { recordAndCompare, type Observed } from './record.js';
import { History, defaultHistoryDir, forgetHistory } from './store.js';
import type { Env } from '../config/inputs.js';

const DAY_MS = 86_400_000;
const MAX_MS = 400 * DAY_MS;

export interface FastForwardInput {
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C: the clock stays where it got to. */
  signal: AbortSignal;
}

/** Where the clock ended, and what was recorded on the way. */
export interface FastForwarded {
  /** The sandbox's time now, in ms since the epoch. */
  sandboxTime: number;
  offsetMs: number;
  /** Days moved, each with a snapshot of every advert. */
  days: number;
  references: string[];
}

export async function fastForwardEmbedded(input: FastForwardInput, text: string): Promise<FastForwarded> {
  const total = parseWindow(text, '--fast-forward');
  if (total > MAX_MS) throw new UsageError(`--fast-forward: at most ${MAX_MS / DAY_MS}d at a time`);
  const sandbox = await openMovableSandbox(input.env);
  const history = new History(defaultHistoryDir(input.env), 'sandbox');
  const { references, startOffsetMs } = sandbox;
  let offset = startOffsetMs;
  let days = 0;
  try {
    const client = new JobsClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, retries: 0 });
    for (let moved = 0; moved < total;) {
      if (input.signal.aborted) throw new CancelledError('interrupted: the sandbox clock stays where it got to');
      moved = Math.min(total, moved + DAY_MS);
      offset = startOffsetMs + moved;
      sandbox.moveTo(offset);
      const observed: Observed[] = [];
      for (const reference of references) {
        const { stats, at } = await client.statsAt(reference, { signal: input.signal });
        observed.push({ reference, stats, at: at ?? Date.now() + offset });
      }
      recordAndCompare(history, observed);
      // Saved at every step: an interrupted run keeps the clock and the snapshots in step.
      sandbox.saveClock();
      days++;
    }
  } finally {
    await sandbox.close();
  }
  return { sandboxTime: Date.now() + offset, offsetMs: offset, days, references };
}

/**
 * Clears the embedded sandbox and everything recorded about it: its statistics history (snapshots
 * dated by its clock, which would be stale or in the future after a reset) and the record of adverts
 * published to it. True when there was any.
 */
export async function resetSandboxAndRecords(env: Env): Promise<boolean> {
  const hadState = await resetEmbeddedSandbox(env);
  const hadHistory = forgetHistory(defaultHistoryDir(env), 'sandbox');
  const hadRecord = forgetPublished(env, 'sandbox');
  return hadState || hadHistory || hadRecord;
}
