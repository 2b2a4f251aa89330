import type { CommandSetup } from '../../program.js';
import type { UpdateFlags } from './run.js';

const collect = (value: string, previous: string[]) => [...previous, value];

export default function update({ program, name, action }: CommandSetup): void {
  program
    .command('update')
    .helpGroup('Adverts:')
    .description('change some fields of a published advert (PUT /jobs/<reference>)')
    .argument('<reference>', 'the reference of the advert to change')
    .argument('[file]', 'a YAML file holding only the fields to change (- for stdin)')
    .option('--set <path=value>', 'set one field, by dotted path; repeatable', collect, [])
    .option('--dry-run', 'validate and show what would be sent; send nothing')
    .option('--allow-unknown-fields', 'send fields the schema does not know instead of refusing them')
    .addHelpText(
      'after',
      `
Only the given fields change; nested objects may be partial (recruiter.phone alone is fine). The
reference is immutable: it is never sent, and a file naming another reference is refused.
--set values follow the file rules: text fields keep the text as written, numbers only for number
fields, lists as [a, b].

Examples:
  $ ${name} update ACME-0042 --set location.city=Lyon --set seniority=3
  $ ${name} update ACME-0042 changes.yaml
  $ ${name} update ACME-0042 --set 'skills=[Go, Rust]' --dry-run`,
    )
    .action(
      action(async (ctx, reference: string, file: string | undefined, flags: UpdateFlags) => (await import('./run.js')).runUpdate(ctx, reference, file, flags)),
    );
}
