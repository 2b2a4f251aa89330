/**
 * The CLI's real shape for tests that hold documentation to it: the commander program as the binary
 * builds it, and a checker that says whether a `jobs ...` command line (from --help, the README or
 * the CI recipe) would parse: known command, known options with their values, argument counts.
 */
import type { Command } from 'commander';
import { buildProgram, outputFormatIn } from '../../src/cli/program.js';
import { readArgv } from '../../src/cli/argv-facts.js';
import { completionModel, type CommandSpec, type CompletionModel, type OptionSpec } from '../../src/cli/completion/model.js';
import { gives } from '../../src/cli/output/format-registry.js';

const sink = { write: () => true, isTTY: false };

export function jobsProgram(): Command {
  return buildProgram(
    { io: { stdin: (async function* () {})(), stdout: sink, stderr: sink }, env: {}, cwd: process.cwd(), handleSignals: false },
    { exitCode: 0, signal: new AbortController().signal },
  );
}

export function jobsModel(): CompletionModel {
  return completionModel(jobsProgram());
}

/** Every command a user can type, with its path: validate, ..., config get, ... (not `help`). */
export function leafCommands(program: Command): { path: string[]; command: Command }[] {
  const out: { path: string[]; command: Command }[] = [];
  const walk = (parent: Command, path: string[]) => {
    for (const c of parent.commands) {
      if ((c as unknown as { _hidden: boolean })._hidden) continue;
      const p = [...path, c.name()];
      if (c.commands.filter((s) => !(s as unknown as { _hidden: boolean })._hidden).length > 0) walk(c, p);
      else out.push({ path: p, command: c });
    }
  };
  walk(program, []);
  return out;
}

/** Splits a shell line into words: quotes, `\` escapes; operators (| ; && > < 2> <( ) ) as words. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
      continue;
    }
    if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
      continue;
    }
    if (ch === '#' && !inWord) break;
    const op = /^(\|\||&&|<\(|2>&1|2>|>>|[|;<>()])/.exec(line.slice(i))?.[0];
    if (/\s/.test(ch) || op) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      if (op) {
        words.push(op);
        i += op.length - 1;
      }
      continue;
    }
    word += ch;
    inWord = true;
  }
  if (quote) throw new Error(`unterminated quote in: ${line}`);
  if (inWord) words.push(word);
  return words;
}

const SEPARATORS = new Set(['|', '||', '&&', ';', '<(', '(', ')']);
const REDIRECTS = new Set(['>', '>>', '<', '2>', '2>&1']);

/** The argument lists of every `jobs` invocation on a shell line (`echo x | jobs login --with-token`). */
export function jobsInvocations(line: string, names: readonly string[] = ['jobs']): string[][] {
  const words = shellWords(line);
  const out: string[][] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!names.some((n) => w === n || w.endsWith(`/${n}`))) continue;
    const start = i === 0 || SEPARATORS.has(words[i - 1]!) || /^[A-Z_][A-Z0-9_]*=/.test(words[i - 1]!);
    if (!start) continue;
    const args: string[] = [];
    for (i++; i < words.length && !SEPARATORS.has(words[i]!); i++) {
      if (REDIRECTS.has(words[i]!)) {
        i += words[i] === '2>&1' ? 0 : 1;
        continue;
      }
      args.push(words[i]!);
    }
    out.push(args);
  }
  return out;
}

/** Problems with one `jobs` argument list, as commander would see them; [] when it parses. */
export function checkInvocation(model: CompletionModel, args: readonly string[]): string[] {
  const problems: string[] = [];
  let spec: CommandSpec | undefined;
  let level = model.commands;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      const candidates: OptionSpec[] = [...(spec?.options ?? []), ...model.globals, ...(spec ? [] : model.rootOptions)];
      const option = candidates.find((o) => o.long === name || o.short === name);
      const where = spec ? `jobs ${spec.path.join(' ')}` : 'jobs';
      if (!option) {
        problems.push(`${where}: unknown option ${name}`);
        continue;
      }
      if (!option.value) {
        if (inline !== undefined) problems.push(`${where}: ${name} takes no value`);
        continue;
      }
      const value = inline ?? args[++i];
      if (value === undefined) problems.push(`${where}: ${name} needs a value`);
      else if (option.value.type === 'choices' && !option.value.values.includes(value))
        problems.push(`${where}: ${name} ${value}: not one of ${option.value.values.join(', ')}`);
      continue;
    }
    const sub = positional.length === 0 ? level.find((c) => c.name === arg) : undefined;
    if (sub) {
      spec = sub;
      level = sub.subcommands;
      continue;
    }
    positional.push(arg);
  }
  if (!spec) {
    if (!args.some((a) => ['--help', '-h', '--version', '-V'].includes(a))) problems.push(`no command in: jobs ${args.join(' ')}`);
    return problems;
  }
  const where = `jobs ${spec.path.join(' ')}`;
  // A command refuses the formats it cannot give (exit 2), so a recipe that asks for one fails.
  const format = outputFormatIn(readArgv(jobsProgram(), args));
  if (!gives(format, spec.path[0]!)) problems.push(`${where}: cannot give --output ${format}`);
  if (spec.subcommands.length > 0 && !args.includes('--help'))
    problems.push(`${where}: needs a subcommand (${spec.subcommands.map((s) => s.name).join(', ')})`);
  const required = spec.args.filter((a) => a.required).length;
  const variadic = spec.args.some((a) => a.variadic);
  if (positional.length < required && !args.includes('--help') && !args.includes('-h'))
    problems.push(`${where}: needs ${required} argument(s), got ${positional.length}`);
  if (!variadic && positional.length > spec.args.length) problems.push(`${where}: takes at most ${spec.args.length} argument(s), got ${positional.length}`);
  positional.forEach((value, i) => {
    const a = spec.args[Math.min(i, spec.args.length - 1)];
    if (a?.value.type === 'choices' && !a.value.values.includes(value)) problems.push(`${where}: ${value}: not one of ${a.value.values.join(', ')}`);
    if (a?.value.type === 'command' && !model.commands.some((c) => c.name === value)) problems.push(`${where}: ${value} is not a command`);
  });
  return problems;
}
