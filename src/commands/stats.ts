import type { CommandSetup } from '../program.js';
import type { Context } from '../context.js';

export default function stats({ program, action }: CommandSetup): void {
  program
    .command('stats')
    .description('show views, likes, applications and unviewed applications of adverts')
    .argument('<reference...>', 'references of published adverts')
    .addHelpText(
      'after',
      `
The table adds the like rate (likes / views) and the application rate (applications / views).
With --json: {"stats": [{"reference", "views", "likes", "applications", "applications_unviewed"}]}.

Examples:
  $ jobs stats ACME-0042
  $ jobs stats ACME-0042 ACME-0043 --json`,
    )
    .action(action((ctx, references: string[]) => runStats(ctx, references)));
}

export async function runStats(ctx: Context, references: string[]): Promise<number> {
  const [errors, { runPool }, { renderStats }] = await Promise.all([import('../errors/failures.js'), import('../util/pool.js'), import('../output/stats-table.js')]);
  const unique = [...new Set(references)];
  if (unique.some((r) => r.trim() === '')) throw new errors.UsageError('a reference must not be empty');
  const client = await ctx.client();
  const config = await ctx.config();
  const results = await runPool(
    unique,
    config.concurrency.value,
    async (reference, _i, stop) => {
      try {
        return { reference, stats: await client.stats(reference, { signal: ctx.signal }) };
      } catch (error) {
        if (!(error instanceof errors.JobsError)) throw error;
        if (error instanceof errors.ApiError && error.kind === 'unauthorized') stop();
        return { reference, error };
      }
    },
    ctx.signal,
  );
  const done = results.filter((r) => r !== undefined);
  renderStats(ctx, done);
  if (ctx.signal.aborted) return errors.ExitCode.interrupted;
  const codes = new Set(done.flatMap((r) => ('error' in r && r.error ? [r.error.exitCode] : [])));
  return codes.size === 0 ? 0 : codes.size === 1 ? [...codes][0]! : errors.ExitCode.rejected;
}
