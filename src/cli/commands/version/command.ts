import type { CommandSetup } from '../../program.js';
import { VERSION } from '../../../core/version.js';

export default function version({ program, name, action }: CommandSetup): void {
  program
    .command('version')
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
    .action(
      action(async (ctx) => {
        if (ctx.globals.output === 'json') {
          const { jsonText } = await import('../../output/json-output.js');
          ctx.io.stdout.write(jsonText({ version: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch }));
        } else ctx.io.stdout.write(`${VERSION}\n`);
        return 0;
      }),
    );
}
