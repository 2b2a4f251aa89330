import { Argument } from 'commander';
import type { CommandSetup } from '../../program.js';
import type { SchemaName } from '../../../core/scaffold/package-files.js';
import type { SchemaFlags } from './run.js';

// Kept here (not imported from the scaffold layer) so registering the command loads nothing else.
const KINDS = ['create', 'update', 'event', 'config'];

export default function schema({ program, name, action }: CommandSetup): void {
  program
    .command('schema')
    .helpGroup('Local tools:')
    .description('print a JSON Schema shipped with jobs: an advert (create), a partial update, an event, or the config')
    .addArgument(new Argument('[kind]', 'which schema').choices(KINDS).default('create'))
    .option('--path', 'print the path of the schema file instead of its content')
    .option('--resolved', "the advert schema as this project's config makes it: fields its defaults fill are optional, its constants' names are accepted")
    .option('--write', `with --resolved: write it to ${'.jobs/'} beside the project config (where ${name} init points editors) and print its path`)
    .option(
      '--front-matter',
      "the advert schema for a Markdown advert's front matter: every field but job_description, which is the body (with --resolved, as the config makes it)",
    )
    .addHelpText(
      'after',
      `
The schemas (JSON Schema 2020-12) are the ones jobs validates with, and ship in the package's
schemas/ folder: create is advert.schema.json, update advert-update.schema.json, event
event.schema.json, config config.schema.json.

With a project config that sets defaults or constants, editors should check adverts against the
resolved schema: ${name} init writes it to .jobs/advert.schema.json beside the config and points new
adverts' modeline there; run '${name} schema create --resolved --write' again after changing the config.

A Markdown advert's front matter is checked by ${name} validate; for a tool that checks front matter
against a JSON Schema as you type (Front Matter CMS, remark-lint-frontmatter-schema), print the
front-matter schema with --front-matter (plain YAML editors do not look inside .md files).

Examples:
  $ ${name} schema > advert.schema.json
  $ ${name} schema update
  $ ${name} schema config --path
  $ ${name} schema create --resolved --write
  $ ${name} schema --front-matter --resolved > .jobs/advert-front-matter.schema.json`,
    )
    .action(action(async (ctx, kind: string, flags: SchemaFlags) => (await import('./run.js')).runSchema(ctx, kind as SchemaName, flags)));
}
