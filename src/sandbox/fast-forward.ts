/**
 * `jobs sandbox --fast-forward <duration>`: moves the embedded sandbox's clock forward a day at a
 * time and, at each simulated day, reads the statistics of every advert in it and records them in
 * the history, as if `jobs --sandbox stats` of every advert had run once a day. Simulated candidates
 * keep arriving meanwhile, so `jobs --sandbox report` then shows a month of trends on a fresh
 * machine. The snapshots carry the sandbox's simulated dates (its X-Sandbox-Time header), never
 * today's date: they are demo data, kept under the `sandbox` service only.
 */
import { JobsClient } from '../api/client.js';
import type { Context } from '../context.js';
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

export async function fastForwardEmbedded(ctx: Context, text: string, others: { data?: string; reset?: boolean } = {}): Promise<number> {
  if (others.data !== undefined || others.reset) throw new UsageError('--fast-forward moves the clock of the --sandbox state; it does not go with --data or --reset');
  const total = parseWindow(text, '--fast-forward');
  if (total > MAX_MS) throw new UsageError(`--fast-forward: at most ${MAX_MS / DAY_MS}d at a time`);
  const stateFile = sandboxStatePath(ctx.env);
  const clock = clockFile(stateFile);
  const start = readOffset(clock);
  let offset = start;
  const sandbox = createSandbox({ tokens: [EMBEDDED_TOKEN], dataFile: stateFile, now: () => Date.now() + offset });
  const { baseUrl } = await sandbox.listen(0, '127.0.0.1', { unref: true });
  const history = new History(defaultHistoryDir(ctx.env), 'sandbox');
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
      if (ctx.signal.aborted) throw new CancelledError('interrupted: the sandbox clock stays where it got to');
      moved = Math.min(total, moved + DAY_MS);
      offset = start + moved;
      const observed: Observed[] = [];
      for (const reference of references) {
        const { stats, at } = await client.statsAt(reference, { signal: ctx.signal });
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
  const now = new Date(Date.now() + offset).toISOString().slice(0, 10);
  const ahead = Math.round(offset / DAY_MS);
  ctx.io.stderr.write(`the embedded sandbox's clock is now at ${now} (${ahead} day${ahead === 1 ? '' : 's'} ahead of real time; ${ctx.name} sandbox --reset puts it back)\n`);
  if (references.length === 0) ctx.io.stderr.write(`no adverts in the embedded sandbox yet: publish some first (${ctx.name} --sandbox publish examples/adverts/), then fast-forward again\n`);
  else ctx.io.stderr.write(`recorded ${days} daily snapshot${days === 1 ? '' : 's'} of ${references.length} advert${references.length === 1 ? '' : 's'}: see ${ctx.name} --sandbox stats <reference> --history, or ${ctx.name} --sandbox report\n`);
  if (ctx.globals.output === 'json') {
    ctx.io.stdout.write(`${JSON.stringify({ sandbox_time: new Date(Date.now() + offset).toISOString(), offset_days: offset / DAY_MS, snapshots: days * references.length, adverts: references })}\n`);
  }
  return 0;
}
