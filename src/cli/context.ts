/**
 * What every command touches, handed in as one object (as GitHub's CLI hands each command a
 * factory): streams, environment, working directory, global options and lazy access to config and
 * the HTTP client. Tests build one with fakes and run a command in-process.
 */
import type { ResolvedConfig } from '../core/config/types.js';
import type { JobsClient } from '../core/api/client.js';
import type { ConfigFlags } from '../core/config/inputs.js';

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface InStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
}

export interface Io {
  stdin: InStream;
  stdout: OutStream;
  stderr: OutStream;
}

import type { OutputFormat } from './output/format-registry.js';
export type { OutputFormat };

/** The global flags, parsed: those settings are resolved from (core), and the terminal's own. */
export interface GlobalOptions extends ConfigFlags {
  output: OutputFormat;
  quiet: boolean;
  verbose: boolean;
  /** false when --no-color was given; colour is then decided by `useColor`. */
  color: boolean;
  /** false when --no-input was given: never prompt. */
  input: boolean;
  sandbox: boolean;
}

export interface Context {
  /** The name the tool was invoked under (`jobs`, `jobs-cli`): every hint that names a command uses it. */
  name: string;
  /** The top-level command that runs (`validate`, `config`), for the reports that name it. */
  command?: string;
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C: commands stop starting new work. */
  signal: AbortSignal;
  /**
   * Resolved settings (flags > env > project config > user config > defaults); loaded once.
   * `{ token: false }`: a command that sends nothing, which need not read a token from the OS keyring.
   */
  config(options?: { token?: false }): Promise<ResolvedConfig>;
  /** A client for the resolved service; created once. */
  client(): Promise<JobsClient>;
}

/** True when prompting is allowed: stdin and stderr are terminals and --no-input was not given. */
export function canPrompt(ctx: Context): boolean {
  // stdin last: looking at it opens it, which costs start-up time.
  return ctx.globals.input && !ctx.env.CI && Boolean(ctx.io.stderr.isTTY) && Boolean(ctx.io.stdin.isTTY);
}
