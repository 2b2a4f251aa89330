import type { CommandSetup } from '../../program.js';
import type { ValidateFlags } from './run.js';

export default function validate({ program, name, action }: CommandSetup): void {
  program
    .command('validate')
    .helpGroup('Adverts:')
    .description('check advert files locally against the schema; nothing is sent')
    .argument('<paths...>', 'files, folders (searched recursively for .yaml, .yml, .json, .md) or - for stdin')
    .option('--update', 'check partial update files (any subset of fields) instead of full adverts')
    .option('--allow-unknown-fields', 'accept fields the schema does not know instead of reporting them')
    .option('--wording', 'also check the words adverts use (gender-coded, exclusionary, unpaid availability): warnings, see docs/wording.md')
    .option('--no-wording', 'do not check the words adverts use (the default)')
    .addHelpText(
      'after',
      `
Every error of every file is reported with file:line:column; exits 0 when all are valid, 3 when
any is invalid, 2 on a usage error. An advert whose jobs.closes date has passed is a warning (exit
0): sync deletes it. Config defaults and constants apply as they would on publish. With --wording
(the pre-commit hook passes it), words that keep candidates away (gender-coded, exclusionary,
unpaid availability) are warnings at their line, with what to write instead (docs/wording.md);
they are off by default, as they make a check about 1.5x slower. Rules by place always apply.

Examples:
  $ ${name} validate adverts/
  $ ${name} validate --wording adverts/            # and the words they use
  $ ${name} validate --output github adverts/     # annotations in a GitHub Actions job
  $ cat advert.yaml | ${name} validate - --json`,
    )
    .action(action(async (ctx, paths: string[], flags: ValidateFlags) => (await import('./run.js')).runValidate(ctx, paths, flags)));
}
