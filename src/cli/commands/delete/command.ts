import type { CommandSetup } from '../../program.js';
import type { Context } from '../../context.js';

interface DeleteFlags {
  yes?: boolean;
}

export default function del({ program, name, action }: CommandSetup): void {
  program
    .command('delete')
    .description('delete published adverts (DELETE /jobs/<reference>)')
    .argument('<reference...>', 'references of the adverts to delete')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText(
      'after',
      `
Asks for confirmation on a terminal (answering no exits 9); in scripts and CI pass --yes, or nothing
is sent (exit 2).
A reference that does not exist, or belongs to another client, is reported as not found (exit 5).

Examples:
  $ ${name} delete ACME-0042
  $ ${name} delete ACME-0042 ACME-0043 --yes`,
    )
    .action(action((ctx, references: string[], flags: DeleteFlags) => runDelete(ctx, references, flags)));
}

async function runDelete(ctx: Context, references: string[], flags: DeleteFlags): Promise<number> {
  const [{ canPrompt }, errors, { sanitize }, { paint }] = await Promise.all([
    import('../../context.js'),
    import('../../../core/errors/failures.js'),
    import('../../../core/util/sanitize.js'),
    import('../../output/summary.js'),
  ]);
  if (references.some((r) => r.trim() === '')) throw new errors.UsageError('a reference must not be empty');
  const unique = [...new Set((await import('../../../core/validation/reference.js')).refuseUnusableReferences(references))];
  if (!flags.yes) {
    if (!canPrompt(ctx)) throw new errors.UsageError(`refusing to delete without confirmation: pass --yes to delete ${unique.length === 1 ? 'this advert' : `these ${unique.length} adverts`}`);
    const { confirm } = await import('../../output/prompt.js');
    const list = unique.map((r) => sanitize(r)).join(', ');
    if (!(await confirm(ctx, `Delete ${unique.length === 1 ? 'advert' : `${unique.length} adverts`} ${list}? This cannot be undone.`))) {
      if (ctx.signal.aborted) return errors.ExitCode.interrupted;
      ctx.io.stderr.write('nothing was deleted\n');
      return errors.ExitCode.declined;
    }
  }
  const client = await ctx.client();
  const results: { reference: string; status: 'deleted' | 'failed'; error?: import('../../../core/errors/failures.js').JobsError }[] = [];
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
  await (await import('../../published.js')).rememberPublished(ctx, gone.map((r) => ({ reference: r.reference, deleted: true, onlyIfRecorded: r.status !== 'deleted' })));
  if (ctx.globals.output === 'json') {
    const { jsonText } = await import('../../output/json-output.js');
    ctx.io.stdout.write(
      jsonText({
        results: results.map((r) => ({ reference: r.reference, status: r.status, ...(r.error ? { error: { message: r.error.message, exit_code: r.error.exitCode } } : {}) })),
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
