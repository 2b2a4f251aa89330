/**
 * How `--help` reads: each command's own options, then the global options with their descriptions
 * (as gh's INHERITED FLAGS), commands grouped under headings, no `(default: [])` for a repeatable
 * option, and the notes after the options wrapped to the terminal as paragraphs.
 */
import type { EventEmitter } from 'node:events';
import { Help, type Command, type HelpConfiguration, type Option } from 'commander';

/** commander's heading for the options a subcommand inherits. */
const GLOBAL_HEADING = 'Global Options:';

export const HELP_CONFIGURATION: HelpConfiguration = {
  showGlobalOptions: true,
  // --version belongs to the program alone: `jobs sync --version` is not a thing.
  visibleGlobalOptions(this: Help, cmd: Command): Option[] {
    return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => o.long !== '--version');
  },
  // A repeatable option starts from an empty list: "(default: [])" tells the reader nothing.
  optionDescription(this: Help, option: Option): string {
    const text = Help.prototype.optionDescription.call(this, option);
    return Array.isArray(option.defaultValue) && option.defaultValue.length === 0
      ? text.replace(/ ?\(default: \[\]\)$/, '').replace(/, default: \[\]\)$/, ')')
      : text;
  },
  formatItemList(this: Help, heading: string, items: string[], helper: Help): string[] {
    return Help.prototype.formatItemList.call(this, heading === GLOBAL_HEADING ? 'Global options:' : heading, items, helper);
  },
};

/**
 * Wraps the prose of every command's notes (the text after its options) to `width`: a paragraph is
 * written as sentences, and a line break inside it is the terminal's business. Indented lines
 * (examples, tables) and headings (a line ending in ':' before indented lines) stay as written.
 */
export function reflowNotes(program: Command, width: () => number): void {
  const walk = (cmd: Command) => {
    // commander's Command is an EventEmitter; addHelpText adds an 'afterHelp' listener.
    const emitter = cmd as unknown as EventEmitter;
    for (const listener of emitter.listeners('afterHelp')) {
      emitter.off('afterHelp', listener as never);
      emitter.on('afterHelp', (context: { write: (s: string) => void }) =>
        (listener as (c: unknown) => void)({ ...context, write: (s: string) => context.write(reflow(s, width())) }),
      );
    }
    for (const sub of cmd.commands) walk(sub);
  };
  walk(program);
}

export function reflow(text: string, width: number): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let prose: string[] = [];
  const flush = () => {
    if (prose.length > 0) for (const l of wrap(prose.join(' '), width)) out.push(l);
    prose = [];
  };
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    const heading = line.endsWith(':') && (next === undefined || next === '' || /^\s/.test(next));
    if (line.trim() === '' || /^\s/.test(line) || heading) {
      flush();
      out.push(line);
    } else prose.push(line.trim());
  });
  flush();
  // A no-break space keeps words together while wrapping (`4 unauthorized`); it prints as a space.
  return out.join('\n').replace(/\u00a0/g, ' ');
}

/** Greedy wrapping at spaces; a word longer than the width stays whole on its own line. */
function wrap(paragraph: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/ +/)) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
