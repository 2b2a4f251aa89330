import type { CommandSetup } from '../../program.js';
import { withSendOptions, type PublishFlags } from '../publish/command.js';

export default function create({ program, name, action }: CommandSetup): void {
  withSendOptions(program.command('create').helpGroup('Adverts:').description('create each advert (POST /jobs); a reference that is already taken is an error'))
    .addHelpText(
      'after',
      `
Like publish, but never updates: use it when an existing advert with the same reference must not
be overwritten. Exit 1 when the service rejects an advert (for example reference: taken).

Examples:
  $ ${name} create adverts/new-role.yaml
  $ ${name} create adverts/ --dry-run`,
    )
    .action(
      action(async (ctx, paths: string[], flags: PublishFlags) => {
        const { runPublish } = await import('../publish/run.js');
        return runPublish(ctx, paths, flags, 'create');
      }),
    );
}
