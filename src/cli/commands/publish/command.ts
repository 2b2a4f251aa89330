import type { Command } from 'commander';
import type { CommandSetup } from '../../program.js';
import { parseCount } from '../parsers.js';

import type { PublishFlags } from './run.js';

export type { PublishFlags };

/** The arguments and options publish and create share. */
export function withSendOptions(command: Command): Command {
  return command
    .argument('<paths...>', 'advert files, folders (recursive) or - for stdin')
    .option('--concurrency <n>', 'adverts sent at once (default: config concurrency, 4)', parseCount(1, 64))
    .option('--dry-run', 'validate and show what would be sent; send nothing')
    .option('--allow-unknown-fields', 'send fields the schema does not know instead of refusing them');
}

export default function publish({ program, name, action }: CommandSetup): void {
  withSendOptions(
    program.command('publish').helpGroup('Adverts:').description('create or update each advert (upsert): POST, and PUT where the reference is taken'),
  )
    .option('-y, --yes', 'replace adverts last published from another file with another title without asking; required when not on a terminal')
    .addHelpText(
      'after',
      `
Every advert is validated first; if any is invalid nothing is sent (exit 3). Then each advert is
created with POST /jobs; when the service answers that its reference is taken, it is updated with
PUT /jobs/<reference> (without the reference, which is immutable).

Before sending, an advert whose reference was last published (by this user, to this service) from
another file with another title is named: it would replace that advert. On a terminal publish asks
(no: exit 9, nothing sent); in scripts and CI it needs --yes, or nothing is sent (exit 2). The same
file with a new title, or a file moved or renamed with the same title, is the same advert.

Examples:
  $ ${name} publish adverts/backend-engineer.yaml
  $ ${name} publish adverts/ --concurrency 8
  $ ${name} publish adverts/ --dry-run --json
  $ ${name} publish adverts/ --yes                 # in CI: replace adverts another file published`,
    )
    .action(action(async (ctx, paths: string[], flags: PublishFlags) => (await import('./run.js')).runPublish(ctx, paths, flags, 'upsert')));
}
