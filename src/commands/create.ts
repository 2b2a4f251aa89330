import type { CommandSetup } from '../program.js';
import { parseCount } from './parsers.js';
import type { PublishFlags } from './publish.js';

export default function create({ program, action }: CommandSetup): void {
  program
    .command('create')
    .description('create each advert (POST /jobs); a reference that is already taken is an error')
    .argument('<paths...>', 'advert files, folders (recursive) or - for stdin')
    .option('--concurrency <n>', 'adverts sent at once (default: config concurrency, 4)', parseCount(1, 64))
    .option('--dry-run', 'validate and show what would be sent; send nothing')
    .option('--allow-unknown-fields', 'send fields the schema does not know instead of refusing them')
    .addHelpText(
      'after',
      `
Like publish, but never updates: use it when an existing advert with the same reference must not
be overwritten. Exit 1 when the service rejects an advert (for example reference: taken).

Examples:
  $ jobs create adverts/new-role.yaml
  $ jobs create adverts/ --dry-run`,
    )
    .action(
      action(async (ctx, paths: string[], flags: PublishFlags) => {
        const { runPublish } = await import('./publish.js');
        return runPublish(ctx, paths, flags, 'create');
      }),
    );
}
