import { Argument } from 'commander';
import type { CommandSetup } from '../../program.js';
import type { SchemaName } from '../../../core/scaffold/package-files.js';
import type { Context } from '../../context.js';

// Kept here (not imported from the scaffold layer) so registering the command loads nothing else.
const KINDS = ['create', 'update', 'event', 'config'];

interface SchemaFlags {
  path?: boolean;
  resolved?: boolean;
  write?: boolean;
}

export default function schema({ program, name, action }: CommandSetup): void {
  program
    .command('schema')
    .description('print a JSON Schema shipped with jobs: an advert (create), a partial update, an event, or the config')
    .addArgument(new Argument('[kind]', 'which schema').choices(KINDS).default('create'))
    .option('--path', 'print the path of the schema file instead of its content')
    .option('--resolved', "the advert schema as this project's config makes it: fields its defaults fill are optional, its constants' names are accepted")
    .option('--write', `with --resolved: write it to ${'.jobs/'} beside the project config (where ${name} init points editors) and print its path`)
    .addHelpText(
      'after',
      `
The schemas (JSON Schema 2020-12) are the ones jobs validates with, and ship in the package's
schemas/ folder: create is advert.schema.json, update advert-update.schema.json, event
event.schema.json, config config.schema.json.

With a project config that sets defaults or constants, editors should check adverts against the
resolved schema: ${name} init writes it to .jobs/advert.schema.json beside the config and points new
adverts' modeline there; run '${name} schema create --resolved --write' again after changing the config.

Examples:
  $ ${name} schema > advert.schema.json
  $ ${name} schema update
  $ ${name} schema config --path
  $ ${name} schema create --resolved --write`,
    )
    .action(action((ctx, kind: string, flags: SchemaFlags) => runSchema(ctx, kind as SchemaName, flags)));
}

async function runSchema(ctx: Context, kind: SchemaName, flags: SchemaFlags): Promise<number> {
  const { readSchemaText, schemaPath } = await import('../../../core/scaffold/package-files.js');
  if (!flags.resolved) {
    if (flags.write) throw new (await import('../../../core/errors/failures.js')).UsageError('--write goes with --resolved');
    ctx.io.stdout.write(flags.path ? `${schemaPath(kind)}\n` : ensureNewline(readSchemaText(kind)));
    return 0;
  }
  if (kind !== 'create' && kind !== 'update') {
    throw new (await import('../../../core/errors/failures.js')).UsageError(`--resolved goes with create or update: the ${kind} schema does not depend on the config`);
  }
  const { writeProjectSchema, resolvedFor } = await import('./run.js');
  if (!flags.write && !flags.path) {
    ctx.io.stdout.write(`${JSON.stringify(await resolvedFor(ctx, kind), null, 2)}\n`);
    return 0;
  }
  const path = flags.write ? await writeProjectSchema(ctx, kind) : await (await import('./run.js')).projectSchemaPath(ctx, kind);
  ctx.io.stdout.write(`${path}\n`);
  return 0;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
