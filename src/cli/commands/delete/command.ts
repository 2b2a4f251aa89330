import type { CommandSetup } from '../../program.js';
import type { DeleteFlags } from './run.js';

export default function del({ program, name, action }: CommandSetup): void {
  program
    .command('delete')
    .helpGroup('Adverts:')
    .description('delete published adverts (DELETE /jobs/<reference>)')
    .argument('<reference...>', 'references of the adverts to delete')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText(
      'after',
      `
Asks for confirmation on a terminal (answering no exits 9); in scripts and CI pass --yes, or nothing
is sent (exit 2).
A reference that does not exist, or belongs to another client, is reported as not found (exit 5).

Examples:
  $ ${name} delete ACME-0042
  $ ${name} delete ACME-0042 ACME-0043 --yes`,
    )
    .action(action(async (ctx, references: string[], flags: DeleteFlags) => (await import('./run.js')).runDelete(ctx, references, flags)));
}
