/**
 * Man pages from the commander program, written at build time (scripts/build.mjs): `jobs.1` for the
 * program, `jobs-<command>.1` for each command (`jobs-config-set.1` for a subcommand), and
 * `jobs-cli.1`, which points at `jobs.1`. The texts are the help's own: descriptions, options,
 * arguments, the notes and examples under them, the exit codes and the environment.
 */
import type { EventEmitter } from 'node:events';
import type { Command } from 'commander';
import { exitCodeTable, MIXED_FAILURES_NOTE } from '../../core/errors/exit-codes.js';
import { ENVIRONMENT } from './environment.js';
import { HELP_TOPICS } from './groups.js';

/** Escapes text for roff: backslashes, minus signs (so options copy as typed), a leading dot or quote. */
export function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');
}

const bold = (text: string) => `\\fB${roff(text)}\\fR`;

/** The page name of a command: `jobs`, `jobs-sync`, `jobs-config-set`. */
export function pageName(path: readonly string[]): string {
  return ['jobs', ...path].join('-');
}

/** Every page, by file name (`jobs-sync.1`), for the program as `buildProgram` makes it. */
export function manPages(program: Command, version: string): Map<string, string> {
  const pages = new Map<string, string>();
  const walk = (cmd: Command, path: string[]) => {
    pages.set(`${pageName(path)}.1`, page(cmd, path, program, version));
    for (const sub of visibleCommands(cmd)) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  pages.set('jobs-cli.1', '.so man1/jobs.1\n');
  return pages;
}

function visibleCommands(cmd: Command): Command[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .filter((c) => c.name() !== 'help');
}

/** The notes written under a command's options (addHelpText 'after'), as lines. */
function notesOf(cmd: Command): string[] {
  let text = '';
  (cmd as unknown as EventEmitter).emit('afterHelp', { error: false, command: cmd, write: (s: string) => (text += s) });
  return text.replace(/^\n+/, '').trimEnd().split('\n');
}

function page(cmd: Command, path: string[], program: Command, version: string): string {
  const help = cmd.createHelp();
  const name = pageName(path);
  const out: string[] = [];
  out.push(`.TH ${roff(name.toUpperCase())} 1 "" "jobs-cli ${roff(version)}" "jobs manual"`, '.nh', '.ad l');
  out.push('.SH NAME', `${roff(name)} \\- ${roff(path.length === 0 ? 'publish, update and delete job adverts from YAML files' : cmd.description())}`);
  out.push(
    '.SH SYNOPSIS',
    `${bold(['jobs', ...path].join(' '))} ${roff(
      help
        .commandUsage(cmd)
        .split(' ')
        .slice(path.length + 1)
        .join(' '),
    )}`,
  );
  out.push('.SH DESCRIPTION', roff(cmd.description()));

  const { prose, examples, blocks } = splitNotes(notesOf(cmd));
  for (const paragraph of prose) out.push('.PP', roff(paragraph));
  for (const block of blocks) {
    out.push('.PP', roff(block.heading), '.RS 2', '.nf');
    for (const line of outdent(block.lines)) out.push(roff(line));
    out.push('.fi', '.RE');
  }

  const args = help.visibleArguments(cmd);
  if (args.length > 0) {
    out.push('.SH ARGUMENTS');
    for (const a of args) out.push('.TP', `\\fI${roff(a.name())}\\fR`, roff(help.argumentDescription(a)));
  }
  const options = help.visibleOptions(cmd);
  if (options.length > 0) {
    out.push('.SH OPTIONS');
    for (const o of options) out.push('.TP', bold(o.flags), roff(help.optionDescription(o)));
  }
  const globals = help.visibleGlobalOptions(cmd);
  if (globals.length > 0) {
    out.push('.SH GLOBAL OPTIONS', 'These go before or after the command name; see \\fBjobs\\fR(1).');
    for (const o of globals) out.push('.TP', bold(o.flags), roff(help.optionDescription(o)));
  }
  const subs = visibleCommands(cmd);
  if (subs.length > 0) {
    out.push('.SH COMMANDS');
    // The program's commands under their help headings, in the order --help lists them.
    const headings = path.length === 0 ? [...new Set(subs.map((s) => s.helpGroup()))] : [''];
    for (const heading of headings) {
      if (heading) out.push('.SS', roff(heading.replace(/:$/, '')));
      for (const sub of subs.filter((s) => !heading || s.helpGroup() === heading)) {
        out.push(
          '.TP',
          `${bold(`${['jobs', ...path, sub.name()].join(' ')}`)}`,
          `${roff(sub.description())}; see \\fB${roff(pageName([...path, sub.name()]))}\\fR(1).`,
        );
      }
    }
  }
  if (examples.length > 0) {
    out.push('.SH EXAMPLES', '.nf', '.RS 2');
    for (const line of examples) out.push(roff(line.trim()));
    out.push('.RE', '.fi');
  }
  if (path.length === 0) {
    out.push('.SH HELP TOPICS', `${bold('jobs help')} \\fItopic\\fR prints one of these in the terminal:`);
    for (const [topic, summary] of HELP_TOPICS) out.push('.TP', bold(topic), roff(summary));
    out.push('.SH EXIT STATUS');
    for (const c of exitCodeTable()) out.push('.TP', bold(String(c.code)), roff(c.long.replace(/`/g, '')));
    out.push('.PP', roff(MIXED_FAILURES_NOTE));
    out.push('.SH ENVIRONMENT');
    for (const [variable, meaning] of ENVIRONMENT) out.push('.TP', bold(variable), roff(meaning.replace(/`/g, '')));
  } else {
    out.push('.SH EXIT STATUS', 'As for every command: see \\fBjobs\\fR(1), or run \\fBjobs help exit\\-codes\\fR.');
  }
  const seeAlso =
    path.length === 0
      ? visibleCommands(program).map((c) => pageName([c.name()]))
      : ['jobs', ...(subs.length > 0 ? subs.map((s) => pageName([...path, s.name()])) : [])];
  out.push('.SH SEE ALSO', seeAlso.map((p) => `\\fB${roff(p)}\\fR(1)`).join(', '));
  return `${out.join('\n')}\n`;
}

/** Lines without the indent they share, each keeping its own beyond it. */
function outdent(lines: string[]): string[] {
  const indent = Math.min(...lines.map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent));
}

interface Notes {
  prose: string[];
  /** Indented blocks under a heading (a table of routes, set-up lines), as written. */
  blocks: { heading: string; lines: string[] }[];
  examples: string[];
}

/** The notes as paragraphs, indented blocks and the examples (`$ ` lines, without the prompt). */
function splitNotes(lines: string[]): Notes {
  const notes: Notes = { prose: [], blocks: [], examples: [] };
  const paragraphs: string[][] = [[]];
  for (const line of lines) {
    if (line.trim() === '') paragraphs.push([]);
    else paragraphs[paragraphs.length - 1]!.push(line);
  }
  for (const p of paragraphs.filter((p) => p.length > 0)) {
    const [first, ...rest] = p;
    if (first === 'Examples:') for (const l of rest) notes.examples.push(l.trim().replace(/^\$ /, ''));
    else if (first!.endsWith(':') && rest.length > 0 && rest.every((l) => /^\s/.test(l))) notes.blocks.push({ heading: first!, lines: rest });
    else {
      // prose, perhaps followed by indented lines (kept as written)
      const cut = p.findIndex((l) => /^\s/.test(l));
      const text = cut < 0 ? p : p.slice(0, cut);
      notes.prose.push(text.map((l) => l.trim()).join(' '));
      if (cut >= 0) notes.blocks.push({ heading: '', lines: p.slice(cut) });
    }
  }
  return notes;
}
