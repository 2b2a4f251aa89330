/**
 * Entry of the built CLI. `--version` answers here without loading anything else; every other
 * invocation loads the commander program, and each command loads its layers only when it runs.
 * Errors of every kind end here and become one line on stderr and an exit code.
 */
import type { Io } from './context.js';
import { VERSION } from '../core/version.js';
import { lazyStdio, stdioDrained } from './output/lazy-stdio.js';

export interface RunOptions {
  io?: Io;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Stop on Ctrl-C, SIGTERM and SIGHUP (the real binary does; in-process tests don't). */
  handleSignals?: boolean;
  /** The path the program was started by (process.argv[1]): the tool names itself after it. */
  invokedAs?: string;
}

export async function run(argv: string[], options: RunOptions = {}): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    (options.io ?? processIo('jobs')).stdout.write(`${VERSION}\n`);
    return 0;
  }
  const [{ execute }, { programName }] = await Promise.all([import('./program.js'), import('./program-name.js')]);
  const env = options.env ?? process.env;
  const name = programName(options.invokedAs, env);
  const io: Io = options.io ?? processIo(name);
  return execute(argv, {
    io,
    name,
    env,
    cwd: options.cwd ?? process.cwd(),
    handleSignals: options.handleSignals ?? false,
  });
}

/**
 * The process's own streams; a reader that goes away (`| head`) does not end the run. Each is made
 * only when a run needs it (creating one costs start-up time): stdin when a command reads it,
 * stdout and stderr when a run needs more than writing to a pipe or file (lazy-stdio.ts).
 */
function processIo(name: string): Io {
  const stderr: NodeJS.WriteStream = lazyStdio(2, () => stderr, name);
  const stdout = lazyStdio(1, () => stderr, name);
  return {
    get stdin() {
      return process.stdin;
    },
    stdout,
    stderr,
  };
}

/** Resolves once the process's stdout and stderr have handed over what was written (see lazy-stdio.ts): bin/jobs.js exits then. */
export function drained(): Promise<void> {
  return stdioDrained();
}
