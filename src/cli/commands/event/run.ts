/** event: post one recruiter event (view, like, reject) for a job application. */
import type { Context } from '../../context.js';
import * as errors from '../../../core/errors/failures.js';
import { EVENT_KINDS } from '../../../core/events/types.js';
import { readEventData } from '../../../core/publishing/event-data.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { refuseUnusableArguments } from '../../../core/adverts/reference.js';
import { didYouMean } from '../../../core/util/did-you-mean.js';
import { jsonText } from '../../output/json-output.js';
import { paint } from '../../output/summary.js';
import { isJson } from '../../output/command-io.js';

export interface EventFlags {
  data?: string;
  dataFile?: string;
}

export async function runEvent(ctx: Context, id: string, kind: string, flags: EventFlags): Promise<number> {
  if (id.trim() === '') throw new errors.UsageError('the application id must not be empty');
  refuseUnusableArguments([id], 'application id');
  if (!(EVENT_KINDS as readonly string[]).includes(kind)) {
    const hint = didYouMean(kind, EVENT_KINDS) ?? didYouMean(`recruiter_${kind}`, EVENT_KINDS);
    throw new errors.UsageError(`unknown event kind "${sanitize(kind)}"${hint ? `; did you mean ${hint}?` : ''}`, {
      details: [`the kinds are ${EVENT_KINDS.join(', ')}`],
    });
  }
  if (flags.data !== undefined && flags.dataFile !== undefined) throw new errors.UsageError('give --data or --data-file, not both');
  const data = await readEventData(ctx, flags);
  const client = await ctx.client();
  try {
    await client.postEvent(id, data === undefined ? { kind } : { kind, data }, { signal: ctx.signal });
  } catch (error) {
    // Ids come from the service's callback; the embedded sandbox shows its own instead.
    if (ctx.globals.sandbox && error instanceof errors.ApiError && error.kind === 'not_found') {
      error.details.push("jobs --sandbox stats <reference> lists application ids of the sandbox's adverts");
    }
    throw error;
  }
  if (isJson(ctx)) ctx.io.stdout.write(jsonText({ application_id: id, kind, posted: true }));
  else if (!ctx.globals.quiet) ctx.io.stdout.write(`${paint(ctx, ctx.io.stdout).green('✔')} posted ${kind} for application ${sanitize(id)}\n`);
  return 0;
}
