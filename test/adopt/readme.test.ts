/**
 * The README's command table against commander's definitions: every command has a row, each row's
 * name and arguments are the command's own, the row names every option of the command and no
 * option that does not exist, and its example parses. It fails when the two drift apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argument, Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { checkInvocation, jobsInvocations, jobsModel, jobsProgram, leafCommands } from './cli-shape.js';

const ROOT = join(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Row {
  command: string;
  does: string;
  example: string;
}

/** The rows of the table under `## Commands`; cells split on unescaped pipes. */
function commandTable(markdown: string): Row[] {
  const section = markdown.split(/^## Commands$/m)[1]?.split(/^## /m)[0] ?? '';
  const lines = section.split('\n').filter((l) => l.startsWith('|'));
  return lines.slice(2).map((line) => {
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    const code = (cell: string) => /^`(.*)`$/.exec(cell)?.[1] ?? cell;
    return { command: code(cells[0] ?? ''), does: cells[1] ?? '', example: code(cells[2] ?? '') };
  });
}

function usageOf(path: string[], command: Command): string {
  const arg = (a: Argument) => {
    const name = `${a.name()}${a.variadic ? '...' : ''}`;
    return a.required ? `<${name}>` : `[${name}]`;
  };
  return [...path, ...command.registeredArguments.map(arg)].join(' ');
}

const program = jobsProgram();
const model = jobsModel();
const rows = commandTable(README);
const commands = leafCommands(program);
const globalLongs = new Set(program.options.map((o) => o.long));

describe("the README's command table matches the CLI", () => {
  it('has exactly one row per command, in the order of jobs --help', () => {
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.map((r) => r.command)).toEqual(commands.map(({ path, command }) => usageOf(path, command)));
  });

  for (const { path, command } of commands) {
    const name = path.join(' ');
    it(`${name}: names every option, no other, with the placeholders --help shows`, () => {
      const row = rows.find((r) => r.command.split(' ').slice(0, path.length).join(' ') === name && r.command === usageOf(path, command));
      expect(row, `a row for ${usageOf(path, command)}`).toBeDefined();
      const spans = [...row!.does.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((s) => /^--?[a-z]/i.test(s));
      for (const option of command.options) {
        if (option.hidden) continue;
        const mention = spans.find((s) => s.split(' ')[0] === option.long);
        expect(mention, `the ${name} row mentions ${option.flags}`).toBeDefined();
        const placeholder = mention!.split(' ').slice(1).join(' ');
        if (placeholder) expect(`${option.long} ${placeholder}`, `placeholder of ${option.long}`).toBe(option.flags.replace(/^-\w, /, ''));
      }
      for (const span of spans) {
        const flag = span.split(' ')[0]!;
        const known = command.options.some((o) => o.long === flag || o.short === flag) || globalLongs.has(flag);
        expect(known, `the ${name} row mentions ${flag}, which jobs ${name} does not have`).toBe(true);
      }
    });
  }

  it("every row's example is a command line that parses", () => {
    for (const row of rows) {
      // `jobs` at a prompt once set up; `jobs-cli` where the set-up itself is shown
      const invocations = jobsInvocations(row.example, ['jobs', 'jobs-cli']);
      expect(invocations.length, row.example).toBe(1);
      expect(checkInvocation(model, invocations[0]!), row.example).toEqual([]);
      expect(invocations[0]!.join(' ')).toContain(
        row.command
          .split(' ')
          .filter((w) => !/^[<[]/.test(w))
          .join(' '),
      );
    }
  });

  it('the parser reads the table the way a reader does (so the checks above can fail)', () => {
    const table = commandTable(
      '## Commands\n\n| command | does | example |\n|---|---|---|\n| `a <x>` | uses `--b <n>` \\| more | `echo 1 \\| jobs a y` |\n\n## Next\n| `z` | no | no |\n',
    );
    expect(table).toEqual([{ command: 'a <x>', does: 'uses `--b <n>` | more', example: 'echo 1 | jobs a y' }]);
  });
});
