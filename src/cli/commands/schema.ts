import { Argument } from 'commander';
import type { CommandSetup } from '../program.js';
import type { SchemaName } from '../../core/scaffold/package-files.js';

// Kept here (not imported from the scaffold layer) so registering the command loads nothing else.
const KINDS = ['create', 'update', 'event', 'config'];

export default function schema({ program, name, action }: CommandSetup): void {
  program
    .command('schema')
    .description('print a JSON Schema shipped with jobs: an advert (create), a partial update, an event, or the config')
    .addArgument(new Argument('[kind]', 'which schema').choices(KINDS).default('create'))
    .option('--path', 'print the path of the schema file instead of its content')
    .addHelpText(
      'after',
      `
The schemas (JSON Schema 2020-12) are the ones jobs validates with, and ship in the package's
schemas/ folder: create is advert.schema.json, update advert-update.schema.json, event
event.schema.json, config config.schema.json.

Examples:
  $ ${name} schema > advert.schema.json
  $ ${name} schema update
  $ ${name} schema config --path`,
    )
    .action(
      action(async (ctx, kind: string, flags: { path?: boolean }) => {
        const { readSchemaText, schemaPath } = await import('../../core/scaffold/package-files.js');
        const name = kind as SchemaName;
        ctx.io.stdout.write(flags.path ? `${schemaPath(name)}\n` : ensureNewline(readSchemaText(name)));
        return 0;
      }),
    );
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
