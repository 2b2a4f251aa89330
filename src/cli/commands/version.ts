import type { CommandSetup } from '../program.js';
import { VERSION } from '../../core/version.js';

export default function version({ program, name, action }: CommandSetup): void {
  program
    .command('version')
    .description('print the version (the same as --version)')
    .addHelpText(
      'after',
      `
Examples:
  $ ${name} version
  $ ${name} --version`,
    )
    .action(
      action(async (ctx) => {
        ctx.io.stdout.write(`${VERSION}\n`);
        return 0;
      }),
    );
}
