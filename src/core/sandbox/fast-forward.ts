/**
 * `jobs sandbox --fast-forward <duration>`: moves the embedded sandbox's clock forward a day at a
 * time and, at each simulated day, reads the statistics of every advert in it and records them in
 * the history, as if `jobs --sandbox stats` of every advert had run once a day. Simulated candidates
 * keep arriving meanwhile, so `jobs --sandbox report` then shows a month of trends on a fresh
 * machine. The snapshots carry the sandbox's simulated dates (its X-Sandbox-Time header), never
 * today's date: they are demo data, kept under the `sandbox` service only.
 */
import { JobsClient } from '../api/client.js';
import { CancelledError, UsageError } from '../errors/failures.js';
import { parseWindow } from '../history/flags.js';
import { recordAndCompare, type Observed } from '../history/record.js';
import { History, defaultHistoryDir } from '../history/store.js';
import { clockFile, readOffset, writeOffset } from './clock.js';
import { EMBEDDED_TOKEN, sandboxStatePath } from './embedded.js';
import { createSandbox } from './server.js';
import { ownerOf } from './store.js';

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
  const stateFile = sandboxStatePath(input.env);
  const clock = clockFile(stateFile);
  const start = readOffset(clock);
  let offset = start;
  const sandbox = createSandbox({ tokens: [EMBEDDED_TOKEN], dataFile: stateFile, now: () => Date.now() + offset });
  const { baseUrl } = await sandbox.listen(0, '127.0.0.1', { unref: true });
  const history = new History(defaultHistoryDir(input.env), 'sandbox');
  const owner = ownerOf(EMBEDDED_TOKEN);
  const references = sandbox
    .state()
    .adverts.filter((a) => a.owner === owner)
    .map((a) => a.reference)
    .sort();
  let days = 0;
  try {
    const client = new JobsClient({ baseUrl, token: EMBEDDED_TOKEN, retries: 0 });
    for (let moved = 0; moved < total; ) {
      if (input.signal.aborted) throw new CancelledError('interrupted: the sandbox clock stays where it got to');
      moved = Math.min(total, moved + DAY_MS);
      offset = start + moved;
      const observed: Observed[] = [];
      for (const reference of references) {
        const { stats, at } = await client.statsAt(reference, { signal: input.signal });
        observed.push({ reference, stats, at: at ?? Date.now() + offset });
      }
      recordAndCompare(history, observed);
      // Saved at every step: an interrupted run keeps the clock and the snapshots in step.
      writeOffset(clock, offset);
      days++;
    }
  } finally {
    await sandbox.close();
  }
  return { sandboxTime: Date.now() + offset, offsetMs: offset, days, references };
}
