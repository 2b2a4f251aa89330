/**
 * What shell completion knows, read from the commander program itself (commands, their options and
 * arguments, the global options), so the generated scripts cannot drift from the CLI. Each value is
 * classified by what completes it: file paths, profile names, a fixed list, command names or nothing.
 */
import type { Argument, Command, Option } from 'commander';
import { EVENT_KINDS } from '../../core/events/types.js';
import { HELP_TOPICS } from '../help/groups.js';

/** `command`: a command name, or a help topic (`jobs help <Tab>`). */
export type ValueKind = { type: 'file' } | { type: 'profile' } | { type: 'choices'; values: string[] } | { type: 'command' } | { type: 'text' };

export interface OptionSpec {
  long?: string;
  short?: string;
  description: string;
  /** Undefined for a switch; otherwise what completes its value. */
  value?: ValueKind;
  /** The value's placeholder in --help (`file` for `--state <file>`). */
  valueName?: string;
  /** May be given more than once (its default is a list, like --set). */
  repeatable: boolean;
}

export interface ArgumentSpec {
  name: string;
  value: ValueKind;
  variadic: boolean;
  required: boolean;
}

export interface CommandSpec {
  name: string;
  /** Names from the top: ['config', 'get']. */
  path: string[];
  description: string;
  options: OptionSpec[];
  args: ArgumentSpec[];
  subcommands: CommandSpec[];
}

export interface CompletionModel {
  /** The executable name. */
  name: string;
  /** Options every command accepts, before or after the command name. */
  globals: OptionSpec[];
  /** Options only the bare program takes (--version). */
  rootOptions: OptionSpec[];
  commands: CommandSpec[];
  /** The topics of `jobs help <topic>`, completed with the command names, and their summaries. */
  helpTopics: ReadonlyArray<readonly [name: string, summary: string]>;
}

/**
 * Arguments whose values are a fixed list the command checks itself (with a did-you-mean), not
 * commander's choices: by command path and argument name.
 */
const ARGUMENT_VALUES: Record<string, readonly string[]> = {
  'event kind': EVENT_KINDS,
};

/** Placeholders and argument names whose values are paths. */
const PATH_WORDS = /^(file|files|dir|folder|path|paths)$/;

export function completionModel(program: Command): CompletionModel {
  const help = program.createHelp();
  const options = help.visibleOptions(program);
  return {
    name: program.name(),
    globals: options.filter((o) => o.long !== '--version').map(optionSpec),
    rootOptions: options.filter((o) => o.long === '--version').map(optionSpec),
    commands: help.visibleCommands(program).map((c) => commandSpec(c, [])),
    // A topic named as a command (config) is completed once, as the command.
    helpTopics: HELP_TOPICS.filter(([topic]) => !program.commands.some((c) => c.name() === topic)),
  };
}

function commandSpec(command: Command, parent: string[]): CommandSpec {
  const help = command.createHelp();
  const path = [...parent, command.name()];
  const isHelpCommand =
    parent.length === 0 && command.name() === 'help' && command.registeredArguments.length > 0 && command.registeredArguments[0]!.name() === 'command';
  return {
    name: command.name(),
    path,
    description: firstLine(command.description()),
    // --help is a global of the model; the rest are the command's own.
    options: help
      .visibleOptions(command)
      .filter((o) => o.long !== '--help')
      .map(optionSpec),
    args: command.registeredArguments.map((a) => argumentSpec(a, isHelpCommand, ARGUMENT_VALUES[`${path.join(' ')} ${a.name()}`])),
    subcommands: help
      .visibleCommands(command)
      .filter((c) => c.name() !== 'help')
      .map((c) => commandSpec(c, path)),
  };
}

function optionSpec(option: Option): OptionSpec {
  const spec: OptionSpec = { description: firstLine(option.description), repeatable: Array.isArray(option.defaultValue) };
  if (option.long) spec.long = option.long;
  if (option.short) spec.short = option.short;
  if (option.required || option.optional) {
    spec.value = optionValue(option);
    spec.valueName = placeholderOf(option);
  }
  return spec;
}

function optionValue(option: Option): ValueKind {
  if (option.argChoices) return { type: 'choices', values: [...option.argChoices] };
  if (option.long === '--profile') return { type: 'profile' };
  return PATH_WORDS.test(placeholderOf(option)) ? { type: 'file' } : { type: 'text' };
}

function placeholderOf(option: Option): string {
  return /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(option.flags)?.[1] ?? 'value';
}

function argumentSpec(argument: Argument, isHelpCommand: boolean, values: readonly string[] | undefined): ArgumentSpec {
  let value: ValueKind;
  if (isHelpCommand) value = { type: 'command' };
  else if (argument.argChoices ?? values) value = { type: 'choices', values: [...(argument.argChoices ?? values!)] };
  else value = PATH_WORDS.test(argument.name()) ? { type: 'file' } : { type: 'text' };
  return { name: argument.name(), value, variadic: argument.variadic, required: argument.required };
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

/** Every command spec, depth first (config, then config get, ...). */
export function allCommands(model: CompletionModel): CommandSpec[] {
  const out: CommandSpec[] = [];
  const walk = (specs: CommandSpec[]) => {
    for (const s of specs) {
      out.push(s);
      walk(s.subcommands);
    }
  };
  walk(model.commands);
  return out;
}
