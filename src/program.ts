/**
 * The commander program: global options, command registration, context construction and the
 * mapping of every error to an exit code and a readable message.
 */
import { Command, CommanderError, Option } from 'commander';
import { parseCount } from './commands/parsers.js';
import type { Context, GlobalOptions, Io, OutputFormat } from './context.js';
import { OUTPUT_FORMATS } from './context.js';
import { ExitCode, JobsError, UsageError } from './errors/failures.js';
import { VERSION } from './version.js';
import { COMMANDS } from './commands/index.js';
import { sanitize } from './output/sanitize.js';
import { prepareColor } from './output/summary.js';
import { watchSignals } from './stop-signals.js';

export interface ExecuteOptions {
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  handleSignals: boolean;
}

/** A command's action: gets the context and commander's arguments; returns an exit code. */
export type Handler<A extends unknown[]> = (ctx: Context, ...args: A) => Promise<number | void>;

/** What a command file receives to register itself. */
export interface CommandSetup {
  program: Command;
  /** Wraps a handler into a commander action that builds the context first. */
  action<A extends unknown[]>(handler: Handler<A>): (...args: unknown[]) => Promise<void>;
}

/** Global options that take a value: the word after them is not a command name. */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '--token-file', '--config', '--output', '--timeout', '--retries']);

/** The command argv names, when it names one exactly; undefined for help, typos or no command. */
export function commandNamed(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return undefined;
    if (VALUE_OPTIONS.has(word)) i++;
    else if (!word.startsWith('-')) return COMMANDS.some(([name]) => name === word) ? word : undefined;
  }
  return undefined;
}

export function buildProgram(opts: ExecuteOptions, state: { exitCode: number; ctx?: Context; signal: AbortSignal }, only?: string): Command {
  const { io } = opts;
  const program = new Command('jobs')
    .description('Publish, update and delete job adverts on the Job Advert Service from YAML files.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .addHelpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.startsWith('error:') ? `jobs: ${s.slice(7)}` : s),
      getOutHelpWidth: () => io.stdout.columns ?? 100,
      getErrHelpWidth: () => io.stderr.columns ?? 100,
    })
    .option('--profile <name>', 'use this profile from the config (env JOBS_PROFILE)')
    .option('--base-url <url>', 'the service base URL (env JOBS_BASE_URL)')
    .option('--token-file <file>', 'read the token from this file (the token is never a flag)')
    .option('--config <file>', 'use this config file instead of searching (env JOBS_CONFIG)')
    .addOption(new Option('--output <format>', 'output format').choices(OUTPUT_FORMATS as string[]).default('human'))
    .option('--json', 'short for --output json')
    .option('-q, --quiet', 'print only results and errors')
    .option('-v, --verbose', 'trace HTTP exchanges on stderr (secrets redacted); stack traces on errors')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--no-input', 'never prompt; fail instead')
    .option('--timeout <duration>', 'per-request timeout, e.g. 30s, 500ms (default 30s)')
    .option('--retries <n>', 'retries on 429, 5xx and network failures (default 5)', parseCount(0, 20))
    .option('--sandbox', 'run against the embedded local sandbox instead of the service')
    .addHelpText(
      'after',
      `
Examples:
  $ jobs validate adverts/
  $ jobs --sandbox publish examples/
  $ jobs publish advert.yaml
  $ jobs stats ACME-042 --json

Exit codes: 0 ok, 1 rejected or partial failure, 2 usage or config, 3 invalid advert input,
4 unauthorized, 5 not found, 6 quota exceeded, 7 network or service error, 8 changes pending,
129 hangup, 130 interrupted, 143 terminated. Run 'jobs help <command>' for a command's options and examples.`,
    );

  const setup: CommandSetup = {
    program,
    action<A extends unknown[]>(handler: Handler<A>) {
      return async (...args: unknown[]) => {
        // commander passes (...arguments, options, command)
        const command = args[args.length - 1] as Command;
        const ctx = makeContext(opts, command.optsWithGlobals(), state.signal);
        state.ctx = ctx;
        await prepareColor(ctx);
        const code = await handler(ctx, ...(args.slice(0, -1) as A));
        state.exitCode = typeof code === 'number' ? code : ExitCode.ok;
      };
    },
  };
  // A run names its command: only that one is built (start-up time). Help, typos and completion
  // see them all.
  for (const [name, register] of COMMANDS) if (only === undefined || name === only) register(setup);
  // Subcommands inherit the output settings so their errors go to our streams.
  return program;
}

function makeContext(opts: ExecuteOptions, raw: Record<string, unknown>, signal: AbortSignal): Context {
  const globals = toGlobals(raw, opts.env);
  let configPromise: ReturnType<Context['config']> | undefined;
  let clientPromise: ReturnType<Context['client']> | undefined;
  const ctx: Context = {
    io: opts.io,
    env: opts.env,
    cwd: opts.cwd,
    globals,
    signal,
    config() {
      configPromise ??= import('./config/resolve.js')
        .then((m) => m.resolveConfig({ cwd: opts.cwd, env: opts.env, globals }))
        .then((config) => {
          for (const warning of config.warnings) opts.io.stderr.write(`jobs: warning: ${warning}\n`);
          return config;
        });
      return configPromise;
    },
    client() {
      clientPromise ??= import('./api/from-context.js').then((m) => m.clientFromContext(ctx));
      return clientPromise;
    },
  };
  return ctx;
}

function toGlobals(raw: Record<string, unknown>, env: Record<string, string | undefined>): GlobalOptions {
  const output: OutputFormat = raw.json ? 'json' : ((raw.output as OutputFormat | undefined) ?? 'human');
  return {
    profile: raw.profile as string | undefined,
    baseUrl: raw.baseUrl as string | undefined,
    tokenFile: raw.tokenFile as string | undefined,
    config: raw.config as string | undefined,
    output,
    quiet: Boolean(raw.quiet),
    verbose: Boolean(raw.verbose) || env.JOBS_DEBUG === '1',
    color: raw.color !== false,
    input: raw.input !== false,
    timeout: raw.timeout as string | undefined,
    retries: raw.retries as number | undefined,
    sandbox: Boolean(raw.sandbox),
  };
}

/**
 * `jobs init --config` names no file, but the global `--config <file>` takes the next word. For init
 * alone, a bare --config means the project config's usual name.
 */
function withInitConfigDefault(argv: string[]): string[] {
  const init = argv.indexOf('init');
  const at = argv.indexOf('--config', init);
  if (init < 0 || at < 0) return argv;
  const next = argv[at + 1];
  if (next !== undefined && !next.startsWith('-')) return argv;
  return [...argv.slice(0, at + 1), '.jobsrc.yaml', ...argv.slice(at + 1)];
}

/** Parses argv, runs the command, and turns every outcome into an exit code. */
export async function execute(argv: string[], opts: ExecuteOptions): Promise<number> {
  const controller = new AbortController();
  const state: { exitCode: number; ctx?: Context; signal: AbortSignal } = { exitCode: ExitCode.ok, signal: controller.signal };
  argv = withInitConfigDefault(argv);
  const named = commandNamed(argv);
  // completion describes every command, and help may list them.
  const only = named !== 'completion' && !argv.includes('--help') && !argv.includes('-h') ? named : undefined;
  const program = buildProgram(opts, state, only);
  const verbose = argv.includes('--verbose') || argv.includes('-v') || opts.env.JOBS_DEBUG === '1';
  const jsonOut = argv.includes('--json') || argv.includes('--output=json') || argv.join(' ').includes('--output json');

  // Ctrl-C, SIGTERM and SIGHUP stop the run through `controller`.
  const signals = opts.handleSignals ? watchSignals(controller, opts.io.stderr) : undefined;
  let code: number;
  try {
    const parsed = program.parseAsync(argv, { from: 'user' }).then(() => state.exitCode);
    code = await (signals ? Promise.race([parsed, signals.quit]) : parsed);
  } catch (error) {
    code = reportError(error, opts.io, verbose, jsonOut);
  } finally {
    signals?.dispose();
  }
  return signals ? signals.exitCode(code) : code;
}

function reportError(error: unknown, io: Io, verbose: boolean, jsonOut: boolean): number {
  if (error instanceof CommanderError) {
    // Help that was asked for (--help, `jobs help`) is a success; help shown because no command
    // was given (`jobs`, `jobs config`) is a usage error, so `jobs $EMPTY` does not pass in a script.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || (error.code === 'commander.help' && error.exitCode === 0)) {
      return ExitCode.ok;
    }
    if (error.code === 'commander.help') return ExitCode.usage;
    // commander has already printed the message; add a pointer to help.
    if (error.code !== 'commander.executeSubCommandAsync') io.stderr.write(`Run 'jobs --help' for usage.\n`);
    return ExitCode.usage;
  }
  if (error instanceof JobsError) {
    io.stderr.write(`jobs: ${sanitize(error.message)}\n`);
    // Details name files and echo input too: external text, shown as data like the message.
    for (const line of error.details) io.stderr.write(`  ${sanitize(line)}\n`);
    if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    if (jsonOut && !error.documented) io.stdout.write(`${JSON.stringify({ error: { exit_code: error.exitCode, message: error.message, details: error.details } })}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`jobs: unexpected error: ${sanitize(message)}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write('  (run again with --verbose for details)\n');
  if (jsonOut) io.stdout.write(`${JSON.stringify({ error: { exit_code: ExitCode.rejected, message } })}\n`);
  return ExitCode.rejected;
}

export { UsageError };
