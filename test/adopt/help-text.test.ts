/**
 * The help's own text: `jobs help <topic>` (exit codes, environment, formats, config) from the code's
 * definitions; a word that is neither a command nor a topic is named, with a did-you-mean, exit 2;
 * `jobs --help` groups the commands; a command's help describes the global options it inherits;
 * no "(default: [])"; the notes under a command's options wrap as paragraphs, at any width.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { execute } from '../../src/cli/program.js';
import { ExitCode } from '../../src/core/errors/failures.js';
import { EXIT_CODE_MEANINGS } from '../../src/core/errors/exit-codes.js';
import { COMMAND_HEADINGS, HELP_ORDER } from '../../src/cli/help/groups.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { outputFormats } from '../../src/cli/output/format-registry.js';
import { runJobs } from '../commands/harness.js';
import { jobsProgram, leafCommands } from './cli-shape.js';

const ROOT = join(import.meta.dirname, '../..');

/** Runs in-process with a terminal `columns` wide on stdout. */
async function atWidth(argv: string[], columns: number) {
  let stdout = '';
  const code = await execute(argv, {
    io: {
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
      stdout: { write: (s: string) => (stdout += s), isTTY: false, columns },
      stderr: { write: () => true, isTTY: false },
    },
    env: { NO_COLOR: '1' },
    cwd: ROOT,
    handleSignals: false,
  });
  return { code, stdout };
}

const program = jobsProgram();

describe('jobs help <word> that is neither a command nor a topic', () => {
  it('names the word, prints no whole help and exits 2', async () => {
    const r = await runJobs(['help', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "jobs: unknown command or topic 'nope'\nRun 'jobs help' for the commands, and 'jobs help <topic>' for exit-codes, environment, formats, config.\n",
    );
  });

  it.each([
    ['publsh', 'publish'],
    ['exit-code', 'exit-codes'],
    ['enviroment', 'environment'],
  ])('help %s: did you mean %s?', async (typo, meant) => {
    const r = await runJobs(['help', typo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`jobs: unknown command or topic '${typo}'\n(Did you mean ${meant}?)\n`);
  });

  it('shows the word as data: escape sequences are removed', async () => {
    const r = await runJobs(['help', '\u001b[31mnope\u0007']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^jobs: unknown command or topic 'nope'\n/);
  });

  it('with --json, is also the JSON error document', async () => {
    const r = await runJobs(['help', 'publsh', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: 1,
      error: { exit_code: 2, message: "unknown command or topic 'publsh'", details: ['(Did you mean publish?)', expect.stringContaining("Run 'jobs help'")] },
    });
  });

  it('jobs help alone is the whole help, exit 0, and names the topics', async () => {
    const r = await runJobs(['help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: jobs /);
    expect(r.stdout).toContain('Help topics: exit-codes, environment, formats, config;');
  });
});

describe('help topics', () => {
  it('exit-codes: every code of the code, with its meaning, in order', async () => {
    const r = await runJobs(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    const rows = r.stdout
      .split('\n')
      .filter((l) => /^ {2}\d+ /.test(l))
      .map((l) => Number(l.trim().split(' ')[0]));
    expect(rows).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
    for (const [key, code] of Object.entries(ExitCode)) {
      const meaning = EXIT_CODE_MEANINGS[key as keyof typeof ExitCode].long.replace(/`/g, '');
      expect(r.stdout.replace(/\n {5,}/g, ' ')).toMatch(new RegExp(`\\n {2}${code} +${meaning.replace(/[()]/g, '\\$&')}`));
    }
    // The one-line summary of jobs --help comes from the same table.
    const help = await runJobs(['--help']);
    expect(help.stdout.replace(/\n/g, ' ')).toContain(
      `Exit codes: 0 ok, 1 rejected or partial failure, 2 usage or config, 3 invalid advert input, 4 unauthorized,`,
    );
  });

  it('environment: every variable the code reads', async () => {
    const r = await runJobs(['help', 'environment']);
    expect(r.code).toBe(0);
    const read = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.ts$/.test(entry) && !entry.endsWith('.d.ts'))
          for (const m of readFileSync(path, 'utf8').matchAll(/env(?:\?\.|\.|\[')([A-Z][A-Z0-9_]+)/g)) read.add(m[1]!);
      }
    };
    walk(join(ROOT, 'src'));
    read.add('JOBS_CLI_NAME'); // read through a constant (program-name.ts)
    expect(read.size).toBeGreaterThan(10);
    const listed = new Set(
      r.stdout
        .split('\n')
        .map((l) => /^ {2}([A-Z][A-Z0-9_]+) /.exec(l)?.[1])
        .filter(Boolean),
    );
    expect(
      [...read].filter((v) => !listed.has(v)),
      'variables read by the code but not in jobs help environment',
    ).toEqual([]);
  });

  it('formats: each output format, and the JSON documents', async () => {
    const r = await runJobs(['help', 'formats']);
    expect(r.code).toBe(0);
    for (const format of outputFormats()) expect(r.stdout).toMatch(new RegExp(`^ {2}${format} +\\S`, 'm'));
    expect(r.stdout).toContain('{"error": {"exit_code", "message", "details"}}');
  });

  it("config: the config command's help, then every key of the config schema with its description", async () => {
    const r = await runJobs(['help', 'config']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: jobs config /);
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/config.schema.json'), 'utf8'));
    for (const key of Object.keys(schema.properties).filter((k) => k !== '$schema')) expect(r.stdout).toMatch(new RegExp(`^ {2}${key}\\n`, 'm'));
    expect(r.stdout).toContain('  profiles.<name>.base_url\n');
    expect(r.stdout).toContain('allow_insecure_http');
  });
});

describe('jobs --help', () => {
  it('lists every command under the heading its command.ts names, headings and commands in help order', async () => {
    const program = jobsProgram();
    const commands = program.commands.filter((c) => c.name() !== 'help');
    for (const command of commands) {
      expect(
        COMMAND_HEADINGS,
        `jobs ${command.name()} names no help heading: add .helpGroup('<heading>') after .command('${command.name()}') in src/cli/commands/${command.name()}/command.ts, one of ${COMMAND_HEADINGS.join(' ')}`,
      ).toContain(command.helpGroup());
    }
    const r = await runJobs(['--help']);
    const headings = r.stdout.split('\n').filter((l) => /^[A-Z][a-z ]+:$/.test(l) && l !== 'Options:' && l !== 'Examples:');
    expect(headings).toEqual(COMMAND_HEADINGS.filter((h) => commands.some((c) => c.helpGroup() === h)));
    for (const heading of headings) {
      const block = r.stdout.split(`\n${heading}\n`)[1]!.split('\n\n')[0]!;
      const listed = block
        .split('\n')
        .filter((l) => /^ {2}\S/.test(l))
        .map((l) => l.trim().split(' ')[0]!)
        .filter((n) => n !== 'help');
      const expected = commands.filter((c) => c.helpGroup() === heading).map((c) => c.name());
      expect(listed).toEqual(expected);
      // HELP_ORDER first, then by name.
      const rank = (n: string) => (HELP_ORDER.includes(n) ? HELP_ORDER.indexOf(n) : HELP_ORDER.length);
      expect(listed).toEqual([...listed].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)));
    }
    expect(r.stdout).not.toContain('\nCommands:\n');
    // Every command folder is a command.
    expect(commands.map((c) => c.name()).sort()).toEqual(COMMANDS.map(([name]) => name).sort());
  });
});

describe("a command's help", () => {
  it("describes each global option it inherits (as gh's INHERITED FLAGS), without --version", async () => {
    const r = await runJobs(['sync', '--help']);
    const block = r.stdout.split('\nGlobal options:\n')[1]!.split('\n\n')[0]!;
    for (const option of program.options) {
      if (option.long === '--version') expect(block).not.toContain('--version');
      else
        expect(block.replace(/\n +/g, ' ')).toMatch(
          new RegExp(`${option.flags.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +${option.description.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
        );
    }
  });

  it('shows no "(default: [])" for a repeatable option', async () => {
    for (const { path } of leafCommands(program)) {
      const r = await runJobs([...path, '--help']);
      expect(r.stdout, path.join(' ')).not.toContain('default: []');
    }
    expect((await runJobs(['update', '--help'])).stdout).toMatch(/--set <path=value> +set one field, by dotted path; repeatable\n/);
  });

  it.each([100, 72])('wraps the notes under the options as paragraphs, at %i columns', async (columns) => {
    for (const { path } of leafCommands(program)) {
      const { stdout } = await atWidth([...path, '--help'], columns);
      const notes = stdout.split('\nGlobal options:\n')[1]!.split('\n\n').slice(1).join('\n\n').trimEnd();
      for (const paragraph of notes.split('\n\n')) {
        const lines = paragraph.split('\n');
        if (lines.some((l) => /^\s/.test(l))) continue; // examples, tables: as written
        lines.forEach((line, i) => {
          expect(line.length, `${path.join(' ')}: ${line}`).toBeLessThanOrEqual(Math.max(columns, line.split(' ').length === 1 ? line.length : 0));
          const next = lines[i + 1];
          if (next !== undefined)
            expect(line.length + 1 + next.split(' ')[0]!.length, `${path.join(' ')}: a line broken early: "${line}"`).toBeGreaterThan(columns);
        });
      }
    }
  });
});
