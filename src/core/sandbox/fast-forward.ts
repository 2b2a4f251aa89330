/**
 * The embedded sandbox with its clock moved forward: `jobs sandbox --fast-forward <duration>`
 * starts it at its saved clock (clock.ts) and moves that clock a step at a time; simulated
 * candidates keep arriving meanwhile (activity.ts), as they would over those days. The sandbox only
 * moves its own clock: reading statistics and recording them is the history's (history/fast-forward.ts).
 */
import { clockFile, readOffset, writeOffset } from './clock.js';
import { EMBEDDED_TOKEN, sandboxStatePath } from './embedded.js';
import { createSandbox } from './server.js';
import { ownerOf } from './store.js';

/** A running embedded sandbox whose clock the caller moves. */
export interface MovableSandbox {
  baseUrl: string;
  token: string;
  /** The references of the adverts published to the embedded sandbox, sorted. */
  references: string[];
  /** The clock's offset from real time when it was opened (ms). */
  startOffsetMs: number;
  /** Moves the clock to `offsetMs` from real time (not saved yet). */
  moveTo(offsetMs: number): void;
  /** Saves where the clock is: the next start of the embedded sandbox begins there. */
  saveClock(): void;
  /** The sandbox's time now (epoch ms). */
  now(): number;
  close(): Promise<void>;
}

export async function openMovableSandbox(env: Record<string, string | undefined>): Promise<MovableSandbox> {
  const stateFile = sandboxStatePath(env);
  const clock = clockFile(stateFile);
  const startOffsetMs = readOffset(clock);
  let offset = startOffsetMs;
  const now = () => Date.now() + offset;
  const sandbox = createSandbox({ tokens: [EMBEDDED_TOKEN], dataFile: stateFile, now });
  const { baseUrl } = await sandbox.listen(0, '127.0.0.1', { unref: true });
  const owner = ownerOf(EMBEDDED_TOKEN);
  const references = sandbox
    .state()
    .adverts.filter((a) => a.owner === owner)
    .map((a) => a.reference)
    .sort();
  return {
    baseUrl,
    token: EMBEDDED_TOKEN,
    references,
    startOffsetMs,
    moveTo(offsetMs) {
      offset = offsetMs;
    },
    saveClock: () => writeOffset(clock, offset),
    now,
    close: () => sandbox.close(),
  };
}
