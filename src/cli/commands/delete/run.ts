/** delete: ask (or take --yes), then DELETE each reference; the record of published adverts forgets them. */
import { canPrompt, type Context } from '../../context.js';
import * as errors from '../../../core/errors/failures.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { refuseUnusableReferences } from '../../../core/adverts/reference.js';
import { jsonText } from '../../output/json-output.js';
import { confirm } from '../../output/prompt.js';
import { paint } from '../../output/summary.js';
import { rememberPublished } from '../../published.js';
import { isJson } from '../../output/command-io.js';

export interface DeleteFlags {
  yes?: boolean;
}

export async function runDelete(ctx: Context, references: string[], flags: DeleteFlags): Promise<number> {
  if (references.some((r) => r.trim() === '')) throw new errors.UsageError('a reference must not be empty');
  const unique = [...new Set(refuseUnusableReferences(references))];
  if (!flags.yes) {
    if (!canPrompt(ctx))
      throw new errors.UsageError(
        `refusing to delete without confirmation: pass --yes to delete ${unique.length === 1 ? 'this advert' : `these ${unique.length} adverts`}`,
      );
    const list = unique.map((r) => sanitize(r)).join(', ');
    if (!(await confirm(ctx, `Delete ${unique.length === 1 ? 'advert' : `${unique.length} adverts`} ${list}? This cannot be undone.`))) {
      if (ctx.signal.aborted) return errors.ExitCode.interrupted;
      ctx.io.stderr.write('nothing was deleted\n');
      return errors.ExitCode.declined;
    }
  }
  const client = await ctx.client();
  const results: { reference: string; status: 'deleted' | 'failed'; error?: errors.JobsError }[] = [];
  for (const reference of unique) {
    if (ctx.signal.aborted) break;
    try {
      await client.delete(reference, { signal: ctx.signal });
      results.push({ reference, status: 'deleted' });
    } catch (error) {
      if (!(error instanceof errors.JobsError)) throw error;
      results.push({ reference, status: 'failed', error });
      if (error instanceof errors.ApiError && error.kind === 'unauthorized') break;
    }
  }
  // Deleted, or already gone (404): either way the advert leaves stats --all and the report.
  const gone = results.filter((r) => r.status === 'deleted' || (r.error instanceof errors.ApiError && r.error.kind === 'not_found'));
  await rememberPublished(
    ctx,
    gone.map((r) => ({ reference: r.reference, deleted: true, onlyIfRecorded: r.status !== 'deleted' })),
  );
  if (isJson(ctx)) {
    ctx.io.stdout.write(
      jsonText({
        results: results.map((r) => ({
          reference: r.reference,
          status: r.status,
          ...(r.error ? { error: { message: r.error.message, exit_code: r.error.exitCode } } : {}),
        })),
      }),
    );
  } else {
    const c = paint(ctx, ctx.io.stdout);
    for (const r of results) {
      if (r.error) ctx.io.stdout.write(`${c.red('✖')} failed ${c.bold(sanitize(r.reference))}: ${sanitize(r.error.message)}\n`);
      else if (!ctx.globals.quiet) ctx.io.stdout.write(`${c.green('✔')} deleted ${c.bold(sanitize(r.reference))}\n`);
    }
  }
  const codes = new Set(results.filter((r) => r.error).map((r) => r.error!.exitCode));
  if (ctx.signal.aborted) return errors.ExitCode.interrupted;
  return codes.size === 0 ? 0 : codes.size === 1 ? [...codes][0]! : errors.ExitCode.rejected;
}
