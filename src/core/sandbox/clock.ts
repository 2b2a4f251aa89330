/**
 * The embedded sandbox's simulated clock: real time plus an offset that `jobs sandbox
 * --fast-forward <duration>` moves forward, kept in a small file beside the sandbox's state so
 * every later `--sandbox` run sees the same simulated date. The sandbox reports its time in an
 * `X-Sandbox-Time` header, which `jobs stats` records as the snapshot's time (only from loopback
 * addresses), so fast-forwarded days land on their own dates in the history.
 */
import { readFileSync } from 'node:fs';
import { removeOwnFile, replaceFile } from '../storage/replace.js';
import { dirname, join } from 'node:path';

export const SANDBOX_TIME_HEADER = 'X-Sandbox-Time';

/** `sandbox-clock.json` beside the embedded sandbox's state file. */
export function clockFile(stateFile: string): string {
  return join(dirname(stateFile), 'sandbox-clock.json');
}

/** The offset in milliseconds (0 when never moved, or the file is unreadable). */
export function readOffset(file: string): number {
  try {
    const value = (JSON.parse(readFileSync(file, 'utf8')) as { offset_ms?: unknown }).offset_ms;
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
  } catch {
    return 0;
  }
}

export function writeOffset(file: string, offsetMs: number): void {
  // Not fsynced: a clock lost to a power cut is fast-forwarded again.
  replaceFile(file, `${JSON.stringify({ offset_ms: offsetMs })}\n`, { durable: false, mode: 0o600 });
}

export function removeClock(file: string): void {
  removeOwnFile(file);
}

/** A clock that runs `offsetMs` ahead of real time. */
export function shiftedClock(offsetMs: number): () => number {
  return () => Date.now() + offsetMs;
}
