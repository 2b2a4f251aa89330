import { Option } from 'commander';
import type { CommandSetup } from '../../program.js';
import type { ConvertFlags } from './run.js';

export default function convert({ program, name, action }: CommandSetup): void {
  program
    .command('convert')
    .helpGroup('Local tools:')
    .description('turn YAML adverts into Markdown adverts (front matter and body), or back with --to yaml')
    .argument('<paths...>', 'advert files, or folders (searched recursively, as validate does)')
    .addOption(new Option('--to <format>', 'the format to write; files already in it are left as they are').choices(['markdown', 'yaml']).default('markdown'))
    .option('--force', 'overwrite a file that already has the new name')
    .option('--remove', 'remove each source file once its conversion is written, synced and read back (a folder moves over in one command)')
    .addHelpText(
      'after',
      `
Each file is written beside its source with the other extension (a.yaml -> a.md, a.md -> a.yaml);
a file that already has that name is left alone unless --force is given, and a name a folder walk
passes over (README.md, compose.yaml) is never written. Every field is kept: the job description
becomes the Markdown body (and back), the other fields stay in YAML, comments and a locations: list
included. Each new file is read back before it is written, and is written only when it reads as
the same adverts. A YAML file of several adverts becomes one Markdown advert per document, named
after its reference (a.yaml -> a-ACME-0042.md, a-ACME-0043.md), or by number (a-1.md, a-2.md) when
references would not make distinct names. With --remove a source goes only once its new file is
synced to disk and read back from it; Ctrl-C stops between two files.
Nothing is sent to the service.

Examples:
  $ ${name} convert adverts/backend-engineer.yaml
  $ ${name} convert adverts/ --remove
  $ ${name} convert adverts/backend-engineer.md --to yaml`,
    )
    .action(
      action(async (ctx, paths: string[], flags: ConvertFlags) => {
        const { runConvert } = await import('./run.js');
        return runConvert(ctx, paths, flags);
      }),
    );
}
