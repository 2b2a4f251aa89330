/**
 * Help that teaches: every command's --help has a description, a description for each option and
 * argument, and two or more examples that really parse; `jobs help <command>` shows the same; a
 * mistyped command or option suggests the nearest one.
 */
import { describe, expect, it } from 'vitest';
import { runJobs } from '../commands/harness.js';
import { outputFormats } from '../../src/cli/output/format-registry.js';
import { checkInvocation, jobsInvocations, jobsModel, jobsProgram, leafCommands } from './cli-shape.js';

const program = jobsProgram();
const model = jobsModel();
const commands = [
  ...leafCommands(program),
  // Commands with subcommands have their own help too.
  ...program.commands.filter((c) => c.commands.length > 0).map((c) => ({ path: [c.name()], command: c })),
];

function examples(help: string): string[] {
  const section = help.split(/^Examples:$/m)[1] ?? '';
  return section
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('$ '))
    .map((l) => l.slice(2));
}

describe('every command has help that teaches', () => {
  it('covers every command, including the ones this package adds', () => {
    const names = commands.map((c) => c.path.join(' '));
    expect(names).toEqual(expect.arrayContaining(['validate', 'sync', 'init', 'schema', 'completion', 'config get']));
  });

  for (const { path, command } of commands) {
    const name = path.join(' ');
    it(`jobs ${name} --help: a description, each option and argument described, 2+ examples that parse`, async () => {
      const r = await runJobs([...path, '--help']);
      expect(r.code).toBe(0);
      expect(command.description().trim(), 'description').not.toBe('');
      expect(r.stdout).toContain(command.description().split('\n')[0]!.slice(0, 40));
      for (const option of command.options) {
        if (option.hidden) continue;
        expect(option.description.trim(), `${name} ${option.flags}`).not.toBe('');
        expect(r.stdout).toContain(option.flags);
      }
      for (const argument of command.registeredArguments) expect(argument.description.trim(), `${name} <${argument.name()}>`).not.toBe('');

      const lines = examples(r.stdout);
      expect(lines.length, `examples of jobs ${name}`).toBeGreaterThanOrEqual(2);
      const invocations = lines.flatMap((l) => jobsInvocations(l));
      expect(
        invocations.some((args) => args.join(' ').includes(path.join(' '))),
        `an example of jobs ${name} uses it`,
      ).toBe(true);
      for (const args of invocations) expect(checkInvocation(model, args), `$ jobs ${args.join(' ')}`).toEqual([]);
    });
  }

  it('jobs help <command> (and jobs config help <subcommand>) prints the same help as --help', async () => {
    for (const path of [['validate'], ['init'], ['completion'], ['config', 'set']]) {
      const viaHelp = await runJobs(path.length === 1 ? ['help', ...path] : [path[0]!, 'help', ...path.slice(1)]);
      const viaFlag = await runJobs([...path, '--help']);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaHelp.stdout).toMatch(new RegExp(`^Usage: jobs ${path.join(' ')} `));
    }
  });

  it('the checker refuses what commander refuses (so the checks above can fail)', () => {
    expect(checkInvocation(model, ['validate'])).toEqual(['jobs validate: needs 1 argument(s), got 0']);
    expect(checkInvocation(model, ['validate', 'a', '--updat'])).toEqual(['jobs validate: unknown option --updat']);
    expect(checkInvocation(model, ['--output', 'xml', 'validate', 'a'])).toEqual([`jobs: --output xml: not one of ${outputFormats().join(', ')}`]);
    expect(checkInvocation(model, ['stats', 'A-1', '-o', 'junit'])).toEqual(['jobs stats: cannot give --output junit']);
    expect(checkInvocation(model, ['completion', 'tcsh'])).toEqual(['jobs completion: tcsh: not one of bash, zsh, fish']);
    expect(checkInvocation(model, ['config'])).toEqual(['jobs config: needs a subcommand (get, set, unset, list, path)']);
    expect(checkInvocation(model, ['publish', 'a', '--concurrency'])).toEqual(['jobs publish: --concurrency needs a value']);
  });
});

describe('a mistyped command or option suggests the nearest one', () => {
  it.each([
    [['valdate', 'adverts/'], /unknown command 'valdate'\n\(Did you mean validate\?\)/],
    [['completoin', 'bash'], /unknown command 'completoin'\n\(Did you mean completion\?\)/],
    [['validate', 'adverts/', '--updat'], /unknown option '--updat'\n\(Did you mean --update\?\)/],
    [['sync', 'adverts/', '--dryrun'], /unknown option '--dryrun'\n\(Did you mean --dry-run\?\)/],
    [['validate', 'adverts/', '--verbos'], /unknown option '--verbos'\n\(Did you mean --verbose\?\)/],
    [['config', 'gte', 'x'], /unknown command 'gte'\n\(Did you mean get\?\)/],
  ])('jobs %j', async (argv, message) => {
    const r = await runJobs(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
