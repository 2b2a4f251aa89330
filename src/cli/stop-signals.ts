/**
 * Signals that ask a run to stop: Ctrl-C (SIGINT), SIGTERM (CI cancellation, `timeout`, `docker
 * stop`) and SIGHUP (the terminal went away). All three stop a run the same way, through the
 * context's abort signal: no new request starts, those in flight finish and are recorded, state,
 * journal and lock are put away. The run then exits 128 + the signal's number, as a shell reports a
 * process that signal ended. A second signal quits at once.
 */
import type { OutStream } from './context.js';
import { ExitCode } from '../core/errors/failures.js';

type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

const STOP_SIGNALS: Record<StopSignal, { code: number; said: string; again: string }> = {
  // The terminal echoed ^C without a line break.
  SIGINT: { code: ExitCode.interrupted, said: '\n%s: interrupted', again: 'press Ctrl-C again to quit at once' },
  SIGTERM: { code: ExitCode.terminated, said: '%s: terminated (SIGTERM)', again: 'send it again to quit at once' },
  SIGHUP: { code: ExitCode.hangup, said: '%s: hangup (SIGHUP)', again: 'send it again to quit at once' },
};

export interface SignalWatch {
  /** Resolves with an exit code when a second signal asks to quit at once. */
  quit: Promise<number>;
  /** The exit code of a run that ended with `code`: an interrupted run names the signal that stopped it. */
  exitCode(code: number): number;
  /** Gives the signals back to Node's defaults. */
  dispose(): void;
}

/** `tool` is the name the program was invoked under, for the line that says a signal was heard. */
export function watchSignals(controller: AbortController, stderr: OutStream, tool = 'jobs'): SignalWatch {
  let received: StopSignal | undefined;
  let count = 0;
  let quit!: (code: number) => void;
  const quitting = new Promise<number>((resolve) => (quit = resolve));
  const handlers = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((name) => {
    const handler = () => {
      count++;
      received = name;
      // Every command watches the abort: requests are aborted, or (sync, events) none is started
      // and those in flight finish so their outcome is recorded.
      controller.abort();
      const { said, again, code } = STOP_SIGNALS[name];
      if (count === 1) stderr.write(`${said.replace('%s', tool)}; stopping (${again})\n`);
      else quit(code);
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    quit: quitting,
    exitCode: (code) => (received !== undefined && code === ExitCode.interrupted ? STOP_SIGNALS[received].code : code),
    dispose: () => {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}
