/**
 * What a command line says before commander parses it (which command to build, the format and
 * --verbose of an error that happens first), read with the program's own Command and Option
 * objects: an option added to a definition is known here at once, with no second list to keep.
 */
import type { Command, Option } from 'commander';

export interface ArgvFacts {
  /** The commands named, outermost first (`['config', 'set']`), as far as `program` defines them. */
  path: string[];
  /** The words that are neither options, their values nor command names, before `--`. */
  operands: string[];
  /** The options given, by commander's attribute name (`output`, `json`, `verbose`): each value in order (true for a flag). */
  given: Map<string, (string | true)[]>;
  /** Option words no command on the path defines (`--help`, `-h`, a typo). */
  unknown: string[];
}

/** The option `flag` (`-o`, `--output`) names among those of `level` and the commands above it. */
function optionNamed(level: Command, flag: string): Option | undefined {
  for (let c: Command | null = level; c; c = c.parent) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

/** Reads argv as commander would: `--opt value`, `--opt=value`, `-ovalue`, `-o=value`, `-qv`, subcommands. */
export function readArgv(program: Command, argv: readonly string[]): ArgvFacts {
  const facts: ArgvFacts = { path: [], operands: [], given: new Map(), unknown: [] };
  const record = (option: Option, value: string | true) => {
    const name = option.attributeName();
    facts.given.set(name, [...(facts.given.get(name) ?? []), value]);
  };
  let level = program;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word.length > 1 && word.startsWith('-')) {
      const long = word.startsWith('--');
      const equals = long ? word.indexOf('=') : -1;
      let flag = long ? (equals < 0 ? word : word.slice(0, equals)) : word.slice(0, 2);
      let attached: string | undefined = long ? (equals < 0 ? undefined : word.slice(equals + 1)) : word.length > 2 ? word.slice(2) : undefined;
      for (;;) {
        const option = optionNamed(level, flag);
        if (!option) {
          facts.unknown.push(word);
          break;
        }
        if (option.required || option.optional) {
          if (attached !== undefined) record(option, long ? attached : attached.replace(/^=/, ''));
          else if (option.required && i + 1 < argv.length) record(option, argv[++i]!);
          else if (option.optional && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) record(option, argv[++i]!);
          else record(option, true);
          break;
        }
        record(option, true);
        // `-qv` is `-q -v`: the letters after a flag that takes no value are flags too.
        if (long || attached === undefined) break;
        flag = `-${attached[0]}`;
        attached = attached.length > 1 ? attached.slice(1) : undefined;
      }
      continue;
    }
    // A command's subcommand is the first word after it; later words are its arguments.
    const sub = facts.operands.length === 0 ? level.commands.find((c) => c.name() === word || c.aliases().includes(word)) : undefined;
    if (sub) {
      facts.path.push(sub.name());
      level = sub;
    } else facts.operands.push(word);
  }
  return facts;
}
