import type { CommandSetup } from '../../program.js';

export default function version({ program, name, action }: CommandSetup): void {
  program
    .command('version')
    .helpGroup('Local tools:')
    .description('print the version (the same as --version)')
    .addHelpText(
      'after',
      `
With --json: {"format_version", "version", "node", "platform", "arch"}, for bug reports and CI logs.

Examples:
  $ ${name} version
  $ ${name} --version
  $ ${name} version --json`,
    )
    .action(action(async (ctx) => (await import('./run.js')).runVersion(ctx)));
}
