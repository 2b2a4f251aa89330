/**
 * Entry of the built CLI. `--version` answers here without loading anything else; every other
 * invocation loads the commander program, and each command loads its layers only when it runs.
 * Errors of every kind end here and become one line on stderr and an exit code.
 */
import type { Io } from './context.js';
import { VERSION } from '../core/version.js';
import { dropWritesWhenClosed } from './output/closed-stream.js';

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
    (options.io ?? process).stdout.write(`${VERSION}\n`);
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

/** The process's own streams; a reader that goes away (`| head`) does not end the run. */
function processIo(name: string): Io {
  dropWritesWhenClosed(process.stderr, 'stderr', process.stderr, name);
  dropWritesWhenClosed(process.stdout, 'stdout', process.stderr, name);
  return {
    // stdin is opened only if a command reads it: creating the stream costs start-up time.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
}
