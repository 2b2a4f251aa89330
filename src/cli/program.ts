/**
 * The commander program: global options, command registration, context construction and the
 * mapping of every error to an exit code and a readable message.
 */
import { Command, CommanderError, Help, Option } from 'commander';
import { parseCount } from './commands/parsers.js';
import type { Context, GlobalOptions, Io, OutputFormat } from './context.js';
import { OUTPUT_FORMATS } from './context.js';
import { ExitCode, JobsError, UsageError } from '../core/errors/failures.js';
import { VERSION } from '../core/version.js';
import { COMMANDS } from './commands/index.js';
import { sanitize } from '../core/util/sanitize.js';
import { renamed } from './output/renamed.js';

export { renamed };
import { prepareColor } from './output/summary.js';
import { watchSignals } from './stop-signals.js';

export interface ExecuteOptions {
  io: Io;
  /** The name the tool was invoked under, for help and hints; 'jobs' when not given. */
  name?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  handleSignals: boolean;
}

/** A command's action: gets the context and commander's arguments; returns an exit code. */
export type Handler<A extends unknown[]> = (ctx: Context, ...args: A) => Promise<number | void>;

/** What a command file receives to register itself. */
export interface CommandSetup {
  program: Command;
  /** The name the tool was invoked under, for the examples in help. */
  name: string;
  /** Wraps a handler into a commander action that builds the context first. */
  action<A extends unknown[]>(handler: Handler<A>): (...args: unknown[]) => Promise<void>;
}

/** Global options that take a value: the word after them is not a command name. */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '--token-file', '--config', '--output', '-o', '--timeout', '--retries']);

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
  const name = opts.name ?? 'jobs';
  const program = new Command(name)
    .description('Publish, update and delete job adverts on the Job Advert Service from YAML files.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .addHelpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, formatHelp: formatHelpWithInheritedOptions })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.startsWith('error:') ? `${name}: ${s.slice(7)}` : s),
      getOutHelpWidth: () => io.stdout.columns ?? 100,
      getErrHelpWidth: () => io.stderr.columns ?? 100,
    })
    .option('--profile <name>', 'use this profile from the config (env JOBS_PROFILE)')
    .option('--base-url <url>', 'the service base URL (env JOBS_BASE_URL)')
    .option('--token-file <file>', 'read the token from this file (the token is never a flag)')
    .option('--config <file>', 'use this config file instead of searching (env JOBS_CONFIG)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS as string[]).default('human'))
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
  $ ${name} validate examples/adverts/
  $ ${name} --sandbox publish examples/adverts/
  $ ${name} --sandbox stats ACME-0042 -o json
  $ ${name} schema update --path

Exit codes: 0 ok, 1 rejected or partial failure, 2 usage or config, 3 invalid advert input,
4 unauthorized, 5 not found, 6 quota exceeded, 7 network or service error, 8 changes pending,
129 hangup, 130 interrupted, 143 terminated. Run '${name} help <command>' for a command's options and
examples. At an interactive prompt, '${name} shell-init bash|zsh|fish' lets 'jobs' name this CLI next
to the shell's builtin 'jobs'.`,
    );

  const setup: CommandSetup = {
    program,
    name,
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

/**
 * Help with each command's own options in full, then the global ones once, briefly (as gh's
 * "INHERITED FLAGS"): the program's own help describes them.
 */
function formatHelpWithInheritedOptions(this: Help, cmd: Command, helper: Help): string {
  const root = rootOf(cmd);
  if (cmd === root) return Help.prototype.formatHelp.call(this, cmd, helper);
  // commander's own rendering without its full global section; visibleGlobalOptions needs the flag back on
  helper.showGlobalOptions = false;
  const own = Help.prototype.formatHelp.call(this, cmd, helper);
  helper.showGlobalOptions = true;
  // --version belongs to the program alone: `jobs sync --version` is not a thing.
  const terms = helper
    .visibleGlobalOptions(cmd)
    .filter((o) => o.long !== '--version')
    .map((o) => helper.optionTerm(o));
  const width = Math.max(40, (helper.helpWidth ?? 80) - 2);
  const lines: string[] = [];
  for (const term of terms) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 2 + term.length <= width) lines[last] += `  ${term}`;
    else lines.push(term);
  }
  const heading = helper.styleTitle(`Global options (see '${root.name()} --help'):`);
  return `${own.trimEnd()}\n\n${heading}\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

function rootOf(cmd: Command): Command {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root;
}

function makeContext(opts: ExecuteOptions, raw: Record<string, unknown>, signal: AbortSignal): Context {
  const globals = toGlobals(raw, opts.env);
  let configPromise: ReturnType<Context['config']> | undefined;
  let tokenlessPromise: ReturnType<Context['config']> | undefined;
  let clientPromise: ReturnType<Context['client']> | undefined;
  const name = opts.name ?? 'jobs';
  const ctx: Context = {
    name,
    io: opts.io,
    env: opts.env,
    cwd: opts.cwd,
    globals,
    signal,
    config(options) {
      const resolve = (skipKeyring: boolean) =>
        import('../core/config/resolve.js')
          .then((m) => m.resolveConfig({ cwd: opts.cwd, env: opts.env, globals }, { skipKeyring }))
          .then((config) => {
            for (const warning of config.warnings) opts.io.stderr.write(`${name}: warning: ${sanitize(renamed(warning, name))}\n`);
            return config;
          });
      if (options?.token === false) return configPromise ?? (tokenlessPromise ??= resolve(true));
      configPromise ??= resolve(false);
      return configPromise;
    },
    client() {
      clientPromise ??= import('./client-for.js').then((m) => m.clientFromContext(ctx));
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
  // completion (and shell-init, which includes it) describes every command, and help may list them.
  const only = named !== 'completion' && named !== 'shell-init' && !argv.includes('--help') && !argv.includes('-h') ? named : undefined;
  const program = buildProgram(opts, state, only);
  const verbose = argv.includes('--verbose') || argv.includes('-v') || opts.env.JOBS_DEBUG === '1';
  const jsonOut = wantsJson(argv);

  // Ctrl-C, SIGTERM and SIGHUP stop the run through `controller`.
  const signals = opts.handleSignals ? watchSignals(controller, opts.io.stderr, opts.name) : undefined;
  let code: number;
  try {
    const parsed = program.parseAsync(argv, { from: 'user' }).then(() => state.exitCode);
    code = await (signals ? Promise.race([parsed, signals.quit]) : parsed);
  } catch (error) {
    code = reportError(error, { io: opts.io, name: program.name(), usage: helpCommand(program, argv), verbose, jsonOut, exitCodeOf: signals ? signals.exitCode : (c) => c });
  } finally {
    signals?.dispose();
  }
  return signals ? signals.exitCode(code) : code;
}

/** True when the run asked for JSON output (`--json`, `--output json`, `-o json`, `-ojson`, `--output=json`). */
export function wantsJson(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return false;
    if (word === '--json' || word === '--output=json' || word === '-ojson' || word === '-o=json') return true;
    if ((word === '--output' || word === '-o') && argv[i + 1] === 'json') return true;
  }
  return false;
}

/** `<name> <command> --help` for the command argv names (`jobs-cli config set --help`), `<name> --help` otherwise. */
function helpCommand(program: Command, argv: readonly string[]): string {
  const path: string[] = [];
  let level: readonly Command[] = program.commands;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (VALUE_OPTIONS.has(word)) i++;
    else if (!word.startsWith('-')) {
      const command = level.find((c) => c.name() === word || c.aliases().includes(word));
      if (!command) break;
      path.push(command.name());
      level = command.commands;
    }
  }
  return [program.name(), ...path, '--help'].join(' ');
}

interface ErrorReport {
  io: Io;
  name: string;
  /** The help that explains the command that was typed. */
  usage: string;
  verbose: boolean;
  jsonOut: boolean;
  /** The exit code the process will have for a code (an interrupted run's names the signal). */
  exitCodeOf: (code: number) => number;
}

/** An error as the one JSON document on stdout (`--json`): `{"error": {"exit_code", "message", "details"}}`. */
function writeJsonError(io: Io, exitCode: number, message: string, details: readonly string[]): void {
  io.stdout.write(`${JSON.stringify({ error: { exit_code: exitCode, message, details } })}\n`);
}


function reportError(error: unknown, report: ErrorReport): number {
  const { io, name, verbose, jsonOut } = report;
  if (error instanceof CommanderError) {
    // Help that was asked for (--help, `jobs help`) is a success; help shown because no command
    // was given (`jobs`, `jobs config`) is a usage error, so `jobs $EMPTY` does not pass in a script.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || (error.code === 'commander.help' && error.exitCode === 0)) {
      return ExitCode.ok;
    }
    const hint = `Run '${report.usage}' for usage.`;
    if (error.code === 'commander.help') {
      if (jsonOut) writeJsonError(io, ExitCode.usage, 'no command given', [hint]);
      return ExitCode.usage;
    }
    // commander has already printed the message; add a pointer to help.
    if (error.code === 'commander.executeSubCommandAsync') return ExitCode.usage;
    io.stderr.write(`${hint}\n`);
    if (jsonOut) {
      const [message, ...more] = error.message.replace(/^error: /, '').split('\n');
      writeJsonError(io, ExitCode.usage, message!, [...more.filter((l) => l.trim() !== ''), hint]);
    }
    return ExitCode.usage;
  }
  if (error instanceof JobsError) {
    // Details name files and echo input too: external text, shown as data like the message.
    const details = error.details.map((line) => renamed(line, name));
    io.stderr.write(`${name}: ${sanitize(renamed(error.message, name))}\n`);
    for (const line of details) io.stderr.write(`  ${sanitize(line)}\n`);
    if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    if (jsonOut && !error.documented) writeJsonError(io, report.exitCodeOf(error.exitCode), renamed(error.message, name), details);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`${name}: unexpected error: ${sanitize(message)}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write('  (run again with --verbose for details)\n');
  if (jsonOut) io.stdout.write(`${JSON.stringify({ error: { exit_code: ExitCode.rejected, message } })}\n`);
  return ExitCode.rejected;
}

export { UsageError };
