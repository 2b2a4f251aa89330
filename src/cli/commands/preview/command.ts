import type { CommandSetup } from '../../program.js';
import type { PreviewFlags } from './run.js';

/** In the tool's own folder, which ignores itself in git (see report's DEFAULT_REPORT_FILE). */
export const DEFAULT_PREVIEW_DIR = '.jobs/preview';

export default function preview({ program, name, action }: CommandSetup): void {
  program
    .command('preview')
    .helpGroup('Adverts:')
    .description('write the page candidates see for an advert (one per place), with its JSON-LD; nothing is sent')
    .argument('<file>', 'an advert file (YAML or Markdown)')
    .option('--out <dir>', 'the folder to write the pages into', DEFAULT_PREVIEW_DIR)
    .option('--open', 'open the page in the browser (only where there is a desktop, never in CI)')
    .addHelpText(
      'after',
      `
One self-contained HTML page per advert and place, named after its reference: title, company,
place, pay, the description (Markdown rendered, or the text), the recruiter's contact and the
closing date. It fetches nothing and runs no script; the JobPosting JSON-LD that jobs export jsonld
writes is in its head. An advert not open yet is previewed too.

Examples:
  $ ${name} preview adverts/backend-engineer.md
  $ ${name} preview adverts/backend-engineer.yaml --open
  $ ${name} preview adverts/support.yaml --out /tmp/previews --json`,
    )
    .action(action(async (ctx, file: string, flags: PreviewFlags) => (await import('./run.js')).runPreview(ctx, file, flags)));
}
