import type { CommandSetup } from '../../program.js';

export default function rules({ program, name, action }: CommandSetup): void {
  program
    .command('rules')
    .helpGroup('Local tools:')
    .description('list the rules by place (pay transparency, disclosures) that validate, publish and sync check')
    .argument('[place]', 'only the rules that reach this place: US, US-CO, US-NY/new-york-city, CA-ON, AT')
    .option('--stale', 'only the rules last checked against their source more than 12 months ago')
    .addHelpText(
      'after',
      `
Each rule: its id, place, the day it is in force from (and to), whom it covers (employer size,
remote jobs), what an advert must show, what the law asks that no check reads, its source (the
statute or regulation) and the day it was last checked against it. A place lists the rules of the
places it is in and inside it (US-NY: New York State's and New York City's). A rule the config
lowers (rules: {<id>: warning|off}) says so. A checklist kept from public sources with dates, not
legal advice: see docs/rules.md.

Examples:
  $ ${name} rules
  $ ${name} rules US-CO
  $ ${name} rules --stale --json`,
    )
    .action(action(async (ctx, place: string | undefined, flags: { stale?: boolean }) => (await import('./run.js')).runRules(ctx, place, flags)));
}
