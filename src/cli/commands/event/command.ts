import type { CommandSetup } from '../../program.js';
import { EVENT_KINDS } from '../../../core/events/types.js';

import type { EventFlags } from './run.js';

export default function event({ program, name, action }: CommandSetup): void {
  program
    .command('event')
    .helpGroup('Statistics and applications:')
    .description('report what the recruiter did with a job application (view, like or reject)')
    .argument('<application-id>', 'the job application id received in the job application callback')
    .argument('<kind>', `one of ${EVENT_KINDS.join(', ')}`)
    .option('--data <json>', 'additional details, as a JSON object')
    .option('--data-file <file>', 'additional details from a JSON or YAML file holding an object (- for stdin)')
    .addHelpText(
      'after',
      `
Kinds: recruiter_view (the recruiter opened the application; only the first view counts),
recruiter_like (moved to the next step of triage; not an offer), recruiter_reject.
An event is never repeated automatically after an unclear failure: a like posted twice would
notify the applicant twice.

With --sandbox, jobs --sandbox stats <reference> lists application ids to try.

Examples:
  $ ${name} event app_8f2c recruiter_view
  $ ${name} event app_8f2c recruiter_reject --data '{"reason": "position filled"}'`,
    )
    .action(action(async (ctx, id: string, kind: string, flags: EventFlags) => (await import('./run.js')).runEvent(ctx, id, kind, flags)));
}
