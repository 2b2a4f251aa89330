/**
 * The commander program: global options, command registration, context construction and the
 * mapping of every error to an exit code and a readable message.
 */
import { jsonText } from './output/json-output.js';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseCount } from './commands/parsers.js';
import type { Context, GlobalOptions, Io, OutputFormat } from './context.js';
import { formatEntry, formatsOf, gives, isOutputFormat, outputFormats, prepareWriter } from './output/format-registry.js';
import { readArgv, type ArgvFacts } from './argv-facts.js';
import { ApiError, ExitCode, JobsError, UsageError } from '../core/errors/failures.js';
import { VERSION } from '../core/version.js';
import { COMMANDS } from './commands/index.js';
import { sanitize } from '../core/util/sanitize.js';
import { renamed } from './output/renamed.js';
import { HELP_CONFIGURATION, reflowNotes } from './help/configure.js';
import { COMMAND_HEADINGS, HELP_TOPICS, inHelpOrder } from './help/groups.js';
import { exitCodeTable } from '../core/errors/exit-codes.js';
import { redactingIo, Secrets } from './output/redacting-io.js';

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
  /** The secrets hidden from every write to `io` (filled in once the token is known). */
  secrets?: Secrets;
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

/** --allow-env VAR (or VAR,OTHER): environment variable names, collected over repeats. */
function allowEnvName(value: string, list: string[] = []): string[] {
  const names = value.split(',').map((name) => name.trim());
  const bad = names.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (bad !== undefined)
    throw new InvalidArgumentError(`"${sanitize(bad)}" is not an environment variable name (letters, digits and _, not starting with a digit)`);
  return [...list, ...names];
}

/** The command argv names, when it names one exactly; undefined for help, typos or no command. */
export function commandNamed(argv: readonly string[], root: Command = withGlobalOptions(new Command())): string | undefined {
  // With the commands registered, the first is a command of the path; before, the first operand.
  const facts = readArgv(root, argv);
  const first = facts.path[0] ?? facts.operands[0];
  return first !== undefined && COMMANDS.some(([name]) => name === first) ? first : undefined;
}

/**
 * The word after a top-level `help` when it names a topic or no command (`jobs help exit-codes`,
 * `jobs help publsh`): a topic, or a mistake that gets its own message rather than the whole help.
 * `config` is both: its command help comes first, then the topic.
 */
export function helpTopicAsked(argv: readonly string[], root: Command = withGlobalOptions(new Command())): string | undefined {
  const [first, second] = readArgv(root, argv).operands;
  if (first !== 'help' || second === undefined || second === 'help') return undefined;
  const topic = HELP_TOPICS.some(([t]) => t === second);
  return topic || !COMMANDS.some(([command]) => command === second) ? second : undefined;
}

/**
 * The format argv asks for (`--json`, `--output x`, `-o x`, `-ox`, `--output=x`, `-o=x`), for errors
 * that happen before commander has parsed the options; 'human' when none or an unknown one.
 */
export function outputFormatIn(facts: ArgvFacts): OutputFormat {
  if (facts.given.has('json')) return 'json';
  const asked = facts.given.get('output')?.filter((v): v is OutputFormat => v !== true && isOutputFormat(v));
  return asked?.at(-1) ?? 'human';
}

/** The global options, which every command takes. */
function withGlobalOptions(program: Command): Command {
  return program
    .option('--profile <name>', 'use this profile from the config (env JOBS_PROFILE)')
    .option('--base-url <url>', 'the service base URL (env JOBS_BASE_URL)')
    .option('--token-file <file>', 'read the token from this file (the token is never a flag)')
    .option('--config <file>', 'use this config file instead of searching (env JOBS_CONFIG)')
    .option('--allow-env <VAR>', 'let ${VAR} in the project config read this environment variable; repeatable', allowEnvName)
    .addOption(new Option('-o, --output <format>', 'output format').choices(outputFormats()).default('human'))
    .option('--json', 'short for --output json')
    .option('-q, --quiet', 'print only results and errors')
    .option('-v, --verbose', 'trace HTTP exchanges on stderr (secrets redacted); stack traces on errors')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--no-input', 'never prompt; fail instead')
    .option('--timeout <duration>', 'per-request timeout, e.g. 30s, 500ms (default 30s)')
    .option('--retries <n>', 'retries on 429, 5xx and network failures (default 5)', parseCount(0, 20))
    .option('--sandbox', 'run against the embedded local sandbox instead of the service');
}

/**
 * The program; `globals`, when given, is the command with the global options alone that argv was
 * first read with (execute): built on, rather than built again (start-up time).
 */
export function buildProgram(
  opts: ExecuteOptions,
  state: { exitCode: number; ctx?: Context; signal: AbortSignal },
  only?: string,
  globals: Command = withGlobalOptions(new Command()),
): Command {
  const { io } = opts;
  const name = opts.name ?? 'jobs';
  const program = globals
    .name(name)
    .description('Publish, update and delete job adverts on the Job Advert Service from YAML files.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    .configureHelp(HELP_CONFIGURATION)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.startsWith('error:') ? `${name}: ${s.slice(7)}` : s),
      getOutHelpWidth: () => io.stdout.columns ?? 100,
      getErrHelpWidth: () => io.stderr.columns ?? 100,
    })
    .addHelpText(
      'after',
      `
Examples:
  $ ${name} validate examples/adverts/
  $ ${name} --sandbox publish examples/adverts/
  $ ${name} --sandbox stats ACME-0042 -o json
  $ ${name} schema update --path

Exit codes: ${exitCodeTable()
        .map((c) => `${c.code} ${c.short}`.replace(/ /g, '\u00a0'))
        .join(', ')}.

Help topics: ${HELP_TOPICS.map(([topic]) => topic).join(', ')}; run '${name} help <topic>' for one, and '${name} help <command>'
for a command's options and examples. At an interactive prompt, '${name} shell-init bash|zsh|fish' lets 'jobs'
name this CLI next to the shell's builtin 'jobs'.`,
    );

  const setup: CommandSetup = {
    program,
    name,
    action<A extends unknown[]>(handler: Handler<A>) {
      return async (...args: unknown[]) => {
        // commander passes (...arguments, options, command)
        const command = args[args.length - 1] as Command;
        const raw = command.optsWithGlobals();
        // `--json --output github` asks for two formats: neither wins silently.
        if (raw.json && command.getOptionValueSourceWithGlobals('output') === 'cli' && raw.output !== 'json')
          throw new UsageError(`--json and --output ${String(raw.output)} ask for two output formats; give one`, {
            details: ['--json is short for --output json: drop one of them'],
          });
        const ctx = makeContext(opts, raw, state.signal);
        state.ctx = ctx;
        // A format the command cannot give is refused before it does anything.
        const top = topCommand(command);
        ctx.command = top;
        if (!gives(ctx.globals.output, top)) {
          throw new UsageError(`${top} cannot give --output ${ctx.globals.output}`, { details: [`${top} gives: ${formatsOf(top).join(', ')}`] });
        }
        await prepareWriter(ctx.globals.output);
        await prepareColor(ctx);
        const code = await handler(ctx, ...(args.slice(0, -1) as A));
        state.exitCode = typeof code === 'number' ? code : ExitCode.ok;
      };
    },
  };
  // A run names its command: only that one is built (start-up time). Help, typos and completion
  // see them all, registered group by group, so `jobs --help` lists them under headings.
  const register = (command: string) => {
    if (only === undefined || command === only) COMMANDS.find(([n]) => n === command)?.[1](setup);
  };
  for (const [command] of COMMANDS) register(command);
  // Each command names its heading (.helpGroup() in its command.ts); commander lists headings and
  // commands in the order of program.commands.
  const ordered = inHelpOrder(program.commands);
  ordered.forEach((command, i) => ((program.commands as Command[])[i] = command));
  program.commandsGroup(COMMAND_HEADINGS[COMMAND_HEADINGS.length - 1]!);
  program.helpCommand('help [command]', `show help for a command, or a topic: ${HELP_TOPICS.map(([topic]) => topic).join(', ')}`);
  reflowNotes(program, () => Math.min(io.stdout.columns ?? 100, 100));
  // Subcommands inherit the output settings so their errors go to our streams.
  return program;
}

/** The command under the program that `cmd` belongs to (`config` for `config set`). */
function topCommand(cmd: Command): string {
  let top = cmd;
  while (top.parent?.parent) top = top.parent;
  return top.name();
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
            opts.secrets?.add(config.token?.value);
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
    ...(raw.allowEnv ? { allowEnv: raw.allowEnv as string[] } : {}),
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
export async function execute(argv: string[], given: ExecuteOptions): Promise<number> {
  // Every write of the run goes through the redaction of the token (see redacting-io.ts).
  const secrets = given.secrets ?? new Secrets();
  const opts: ExecuteOptions = { ...given, io: redactingIo(given.io, secrets), secrets };
  const controller = new AbortController();
  const state: { exitCode: number; ctx?: Context; signal: AbortSignal } = { exitCode: ExitCode.ok, signal: controller.signal };
  argv = withInitConfigDefault(argv);
  // Before any command is built, argv is read with the global options alone.
  const globals = withGlobalOptions(new Command());
  const topic = helpTopicAsked(argv, globals);
  if (topic !== undefined) {
    const { showHelpTopic } = await import('./help/topics.js');
    const command = COMMANDS.some(([c]) => c === topic) ? topic : undefined;
    const commandHelp = command
      ? () =>
          buildProgram(opts, { exitCode: 0, signal: controller.signal }, command)
            .commands.find((c) => c.name() === command)
            ?.outputHelp()
      : undefined;
    return showHelpTopic(topic, { io: opts.io, name: opts.name ?? 'jobs', json: outputFormatIn(readArgv(globals, argv)) === 'json', commandHelp });
  }
  const named = commandNamed(argv, globals);
  // completion (and shell-init, which includes it) describes every command, and help may list them.
  const help = readArgv(globals, argv).unknown.some((word) => word === '--help' || word === '-h');
  const only = named !== 'completion' && named !== 'shell-init' && !help ? named : undefined;
  const program = buildProgram(opts, state, only, globals);
  // Read again with the command's own options, for the errors that come before commander's parse.
  const facts = readArgv(program, argv);
  const verbose = facts.given.has('verbose') || opts.env.JOBS_DEBUG === '1';
  const format = outputFormatIn(facts);

  // Ctrl-C, SIGTERM and SIGHUP stop the run through `controller`.
  const signals = opts.handleSignals ? watchSignals(controller, opts.io.stderr, opts.name) : undefined;
  let code: number;
  try {
    const parsed = program.parseAsync(argv, { from: 'user' }).then(() => state.exitCode);
    code = await (signals ? Promise.race([parsed, signals.quit]) : parsed);
  } catch (error) {
    const command = [program.name(), ...facts.path].join(' ');
    code = await reportError(error, {
      io: opts.io,
      name: program.name(),
      command,
      usage: `${command} --help`,
      verbose,
      format,
      exitCodeOf: signals ? signals.exitCode : (c) => c,
    });
  } finally {
    signals?.dispose();
  }
  return signals ? signals.exitCode(code) : code;
}

interface ErrorReport {
  io: Io;
  name: string;
  /** The command that was typed (`jobs config set`), and the help that explains it. */
  command: string;
  usage: string;
  verbose: boolean;
  /** The format asked for: a fatal error is given in it too. */
  format: OutputFormat;
  /** The exit code the process will have for a code (an interrupted run's names the signal). */
  exitCodeOf: (code: number) => number;
}

/**
 * A fatal error in the format the run asked for, on stdout, where a program reading it looks: the
 * JSON error object, a GitHub annotation, or a SARIF, JUnit or Code Quality document that says why
 * the run could not be done. Human output has it on stderr alone.
 */
async function writeFatal(report: ErrorReport, exitCode: number, kind: string, message: string, details?: readonly string[]): Promise<void> {
  const { io, format } = report;
  if (format === 'json') {
    io.stdout.write(jsonText({ error: { exit_code: exitCode, message, ...(details ? { details } : {}) } }));
    return;
  }
  const writer = formatEntry(format).writer ? await prepareWriter(format) : undefined;
  if (writer) io.stdout.write(writer.fatal({ command: report.command, version: VERSION, exitCode, kind, message, details: details ?? [] }));
}

/** A short stable name for what went wrong, for the report formats' check names. */
function errorKind(error: JobsError): string {
  if (error instanceof ApiError) return error.kind;
  switch (error.exitCode) {
    case ExitCode.usage:
      return 'usage';
    case ExitCode.invalidInput:
      return 'invalid_input';
    case ExitCode.interrupted:
      return 'interrupted';
    default:
      return 'error';
  }
}

async function reportError(error: unknown, report: ErrorReport): Promise<number> {
  const { io, name, verbose } = report;
  if (error instanceof CommanderError) {
    // Help that was asked for (--help, `jobs help`) is a success; help shown because no command
    // was given (`jobs`, `jobs config`) is a usage error, so `jobs $EMPTY` does not pass in a script.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || (error.code === 'commander.help' && error.exitCode === 0)) {
      return ExitCode.ok;
    }
    const hint = `Run '${report.usage}' for usage.`;
    if (error.code === 'commander.help') {
      await writeFatal(report, ExitCode.usage, 'usage', 'no command given', [hint]);
      return ExitCode.usage;
    }
    // commander has already printed the message; add a pointer to help.
    if (error.code === 'commander.executeSubCommandAsync') return ExitCode.usage;
    io.stderr.write(`${hint}\n`);
    const [message, ...more] = error.message.replace(/^error: /, '').split('\n');
    await writeFatal(report, ExitCode.usage, 'usage', message!, [...more.filter((l) => l.trim() !== ''), hint]);
    return ExitCode.usage;
  }
  if (error instanceof JobsError) {
    // Details name files and echo input too: external text, shown as data like the message.
    const details = error.details.map((line) => renamed(line, name));
    io.stderr.write(`${name}: ${sanitize(renamed(error.message, name))}\n`);
    for (const line of details) io.stderr.write(`  ${sanitize(line)}\n`);
    if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    // A documented error was already written in the format, with its findings.
    if (!error.documented) await writeFatal(report, report.exitCodeOf(error.exitCode), errorKind(error), renamed(error.message, name), details);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`${name}: unexpected error: ${sanitize(message)}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write('  (run again with --verbose for details)\n');
  await writeFatal(report, ExitCode.rejected, 'unexpected', message);
  return ExitCode.rejected;
}

export { UsageError };
