/**
 * The embedded sandbox behind `--sandbox`: any command runs against a sandbox started in the same
 * process on a free loopback port, with its state kept in the user's state directory, so
 * `jobs --sandbox publish examples/` then `jobs --sandbox stats <reference>` work on a fresh
 * machine with no credentials. The server does not keep the process alive, and each change is
 * appended to the state's journal synchronously, so nothing is lost when the command exits; at exit
 * the journal is folded into the state file. Runs that share the file take turns through its lock
 * (storage/lock.ts), so parallel runs keep every change.
 */
import { isAbsolute, join } from 'node:path';
import { existsSync } from 'node:fs';
import { homeDir } from '../config/paths.js';
import { SANDBOX_TOKEN } from '../config/sandbox-source.js';
import { withLock } from '../storage/lock.js';
import { cannotWrite, NotOwnFileError, StorageError } from '../storage/errors.js';
import { clockFile, readOffset, removeClock, shiftedClock } from './clock.js';
import { createSandbox } from './server.js';
import { removeData } from './data-file.js';
import { checkWritableDataFolder } from './writable-folder.js';

type Env = Record<string, string | undefined>;

/** The one token the embedded sandbox accepts: the token --sandbox resolves to (config/sandbox-source.ts). */
export const EMBEDDED_TOKEN = SANDBOX_TOKEN;

/** `$XDG_STATE_HOME/jobs/sandbox.json`, or `~/.local/state/jobs/sandbox.json` (a relative XDG path is ignored, per the XDG spec). */
export function sandboxStatePath(env: Env): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'jobs', 'sandbox.json');
  return join(homeDir(env), '.local', 'state', 'jobs', 'sandbox.json');
}

/**
 * Clears the embedded sandbox's own state: its data and its clock. True when there was any. What is
 * recorded about it (history, published record) is cleared by history/fast-forward.ts's
 * resetSandboxAndRecords: the emulator stands alone and knows nothing of them.
 */
export async function resetEmbeddedSandbox(env: Env): Promise<boolean> {
  const file = sandboxStatePath(env);
  // Under the lock, so a run in progress does not write back what was just cleared; the clock goes
  // with the data, or not at all (future-dated activity on a fresh clock would make no sense).
  return withLock(file, () => {
    const clock = clockFile(file);
    const hadClock = existsSync(clock);
    const hadData = removeData(file);
    removeClock(clock);
    return hadData || hadClock;
  });
}

export interface EmbeddedSandboxInput {
  env: Env;
  /** Gets each request as one line (the CLI shows them with --verbose); the sandbox writes nowhere itself. */
  log?: (line: string) => void;
}

export async function startEmbeddedSandbox(input: EmbeddedSandboxInput): Promise<{ baseUrl: string; token: string; knownFailure: () => Error | undefined }> {
  const dataFile = sandboxStatePath(input.env);
  checkWritableDataFolder(dataFile);
  // The sandbox runs in this process: when it cannot keep a change (its data, journal or lock is a
  // planted link or FIFO, the disk is full), the client is told that, with the file, and does not
  // retry a 500 that would only say "internal" five times over.
  let failure: Error | undefined;
  const sandbox = createSandbox({
    tokens: [EMBEDDED_TOKEN],
    dataFile,
    onInternalError: (error) => {
      const path = error instanceof NotOwnFileError || error instanceof StorageError ? error.path : (error as NodeJS.ErrnoException).path;
      if (path !== undefined) failure ??= cannotWrite(path, path, error, { what: "the embedded sandbox's file" });
    },
    // Moved forward by `jobs sandbox --fast-forward` (see clock.ts).
    now: shiftedClock(readOffset(clockFile(dataFile))),
    ...(input.log ? { log: input.log } : {}),
  });
  const { baseUrl } = await sandbox.listen(0, '127.0.0.1', { unref: true });
  sandbox.compactOnExit();
  return { baseUrl, token: EMBEDDED_TOKEN, knownFailure: () => failure };
}
