import type { CommandSetup } from '../../program.js';
import type { Context } from '../../context.js';
import { EVENT_KINDS } from '../../../core/events/types.js';

interface EventFlags {
  data?: string;
  dataFile?: string;
}

export default function event({ program, name, action }: CommandSetup): void {
  program
    .command('event')
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
    .action(action((ctx, id: string, kind: string, flags: EventFlags) => runEvent(ctx, id, kind, flags)));
}

async function runEvent(ctx: Context, id: string, kind: string, flags: EventFlags): Promise<number> {
  const [errors, { suggest }, { readEventData }, { sanitize }, { paint }] = await Promise.all([
    import('../../../core/errors/failures.js'),
    import('../../../core/validation/suggest.js'),
    import('../../../core/publishing/event-data.js'),
    import('../../../core/util/sanitize.js'),
    import('../../output/summary.js'),
  ]);
  if (id.trim() === '') throw new errors.UsageError('the application id must not be empty');
  (await import('../../../core/validation/reference.js')).refuseUnusableArguments([id], 'application id');
  if (!(EVENT_KINDS as readonly string[]).includes(kind)) {
    const hint = suggest(kind, EVENT_KINDS) ?? suggest(`recruiter_${kind}`, EVENT_KINDS);
    throw new errors.UsageError(`unknown event kind "${sanitize(kind)}"${hint ? `; did you mean ${hint}?` : ''}`, { details: [`the kinds are ${EVENT_KINDS.join(', ')}`] });
  }
  if (flags.data !== undefined && flags.dataFile !== undefined) throw new errors.UsageError('give --data or --data-file, not both');
  const data = await readEventData(ctx, flags);
  const client = await ctx.client();
  try {
    await client.postEvent(id, data === undefined ? { kind } : { kind, data }, { signal: ctx.signal });
  } catch (error) {
    // Ids come from the service's callback; the embedded sandbox shows its own instead.
    if (ctx.globals.sandbox && error instanceof errors.ApiError && error.kind === 'not_found') {
      error.details.push('jobs --sandbox stats <reference> lists application ids of the sandbox\'s adverts');
    }
    throw error;
  }
  if (ctx.globals.output === 'json') ctx.io.stdout.write((await import('../../output/json-output.js')).jsonText({ application_id: id, kind, posted: true }));
  else if (!ctx.globals.quiet) ctx.io.stdout.write(`${paint(ctx, ctx.io.stdout).green('✔')} posted ${kind} for application ${sanitize(id)}\n`);
  return 0;
}
