/**
 * The man pages are the command tree's: a page per command (and subcommand), each naming every
 * option of its command and the global ones, its synopsis, its examples; the build wrote exactly
 * those pages, package.json's `man` installs each, and man renders them without a warning (man.real.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { manPages, pageName } from '../../src/cli/help/man.js';
import { jobsProgram } from './cli-shape.js';

const ROOT = join(import.meta.dirname, '../..');
const program = jobsProgram();
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const pages = manPages(program, VERSION);

/** Every command a user can type a page for: the program, each command, each subcommand. */
function commandTree(cmd: Command, path: string[] = []): { path: string[]; command: Command }[] {
  const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden: boolean })._hidden);
  return [{ path, command: cmd }, ...visible.flatMap((c) => commandTree(c, [...path, c.name()]))];
}

/** A page as text, the way roff source reads once its escapes are undone. */
const plain = (page: string) =>
  page
    .replace(/\\-/g, '-')
    .replace(/\\f[BIR]/g, '')
    .replace(/\\e/g, '\\')
    .replace(/\\&/g, '');

/** The `$ ` lines of a command's notes, as its --help shows them. */
function examplesOf(command: Command): string[] {
  let text = '';
  (command as unknown as { emit: (e: string, c: unknown) => void }).emit('afterHelp', { error: false, command, write: (s: string) => (text += s) });
  return text
    .split('\n')
    .filter((l) => /^ +\$ /.test(l))
    .map((l) => l.trim().slice(2));
}

describe('man pages', () => {
  const tree = commandTree(program);

  it('one per command and subcommand, and jobs-cli pointing at jobs', () => {
    expect(tree.length).toBeGreaterThan(20);
    expect([...pages.keys()].sort()).toEqual([...tree.map(({ path }) => `${pageName(path)}.1`), 'jobs-cli.1'].sort());
    expect(pages.get('jobs-cli.1')).toBe('.so man1/jobs.1\n');
  });

  for (const { path, command } of tree) {
    const name = pageName(path);
    it(`${name}(1) names every option of the command, its synopsis and its examples`, () => {
      const page = plain(pages.get(`${name}.1`)!);
      expect(page).toMatch(new RegExp(`^\\.TH ${name.toUpperCase()} 1 `, 'm'));
      expect(page).toContain(`.SH SYNOPSIS\njobs${path.map((p) => ` ${p}`).join('')}`);
      for (const option of command.options) {
        if (option.hidden) continue;
        expect(page, `${name}: ${option.flags}`).toContain(`.TP\n${option.flags}\n${option.description.split('\n')[0]}`);
      }
      if (path.length > 0)
        for (const option of program.options.filter((o) => o.long !== '--version'))
          expect(page, `${name}: global ${option.flags}`).toContain(`.TP\n${option.flags}\n`);
      for (const argument of command.registeredArguments) expect(page).toContain(`.TP\n${argument.name()}\n`);
      expect(page).toContain(command.description().split('\n')[0]);
      for (const example of command.helpInformation().length > 0 ? examplesOf(command) : []) expect(page, `${name}: example ${example}`).toContain(example);
    });
  }

  it('the root page holds every exit code and every help topic', () => {
    const page = plain(pages.get('jobs.1')!);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 129, 130, 143]) expect(page).toContain(`.TP\n${code}\n`);
    for (const topic of ['exit-codes', 'environment', 'formats', 'config']) expect(page).toContain(`.TP\n${topic}\n`);
  });

  it('the build wrote exactly these pages, and package.json installs each of them', () => {
    const built = readdirSync(join(ROOT, 'dist/man/man1')).sort();
    expect(built).toEqual([...pages.keys()].sort());
    for (const file of built) expect(readFileSync(join(ROOT, 'dist/man/man1', file), 'utf8'), file).toBe(pages.get(file));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
    expect([...pkg.man].sort()).toEqual(built.map((f) => `./dist/man/man1/${f}`).sort());
    expect(pkg.files).toContain('dist/');
  });
});
