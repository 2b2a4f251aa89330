import type { Command } from 'commander';
import type { CommandSetup } from '../program.js';
import type { Context } from '../context.js';
import type { PublishMode } from '../../core/publishing/publish.js';
import { parseCount } from './parsers.js';

export interface PublishFlags {
  concurrency?: number;
  dryRun?: boolean;
  allowUnknownFields?: boolean;
}

/** The arguments and options publish and create share. */
export function withSendOptions(command: Command): Command {
  return command
    .argument('<paths...>', 'advert files, folders (recursive) or - for stdin')
    .option('--concurrency <n>', 'adverts sent at once (default: config concurrency, 4)', parseCount(1, 64))
    .option('--dry-run', 'validate and show what would be sent; send nothing')
    .option('--allow-unknown-fields', 'send fields the schema does not know instead of refusing them');
}

export default function publish({ program, name, action }: CommandSetup): void {
  withSendOptions(program.command('publish').description('create or update each advert (upsert): POST, and PUT where the reference is taken'))
    .addHelpText(
      'after',
      `
Every advert is validated first; if any is invalid nothing is sent (exit 3). Then each advert is
created with POST /jobs; when the service answers that its reference is taken, it is updated with
PUT /jobs/<reference> (without the reference, which is immutable).

Examples:
  $ ${name} publish adverts/backend-engineer.yaml
  $ ${name} publish adverts/ --concurrency 8
  $ ${name} publish adverts/ --dry-run --json`,
    )
    .action(action((ctx, paths: string[], flags: PublishFlags) => runPublish(ctx, paths, flags, 'upsert')));
}

export async function runPublish(ctx: Context, paths: string[], flags: PublishFlags, mode: PublishMode): Promise<number> {
  const [{ loadValidAdverts }, { publishAdvert }, report, { runPool }, { sanitize }, { startProgress }, { invalidAdvertsReported }] = await Promise.all([
    import('../../core/validation/gate.js'),
    import('../../core/publishing/publish.js'),
    import('../output/publish-report.js'),
    import('../../core/util/pool.js'),
    import('../../core/util/sanitize.js'),
    import('../output/progress.js'),
    import('../output/findings-report.js'),
  ]);
  const inputs = { cwd: ctx.cwd, stdin: () => ctx.io.stdin, settings: await ctx.config() };
  const adverts = await loadValidAdverts(inputs, paths, 'create', { allowUnknownFields: Boolean(flags.allowUnknownFields) }).catch(invalidAdvertsReported(ctx));

  if (flags.dryRun) {
    const requests = adverts.map((a) => ({ file: a.source.file, reference: a.reference ?? null, method: 'POST', path: '/jobs', body: a.payload }));
    if (ctx.globals.output === 'json') ctx.io.stdout.write(`${JSON.stringify({ dry_run: true, requests })}\n`);
    else {
      for (const r of requests) {
        const then = mode === 'upsert' ? ` (then PUT /jobs/${sanitize(r.reference ?? '')} if the reference is taken)` : '';
        ctx.io.stdout.write(`POST /jobs${then}  ${sanitize(r.file)}\n${JSON.stringify(r.body, null, 2).replace(/^/gm, '  ')}\n`);
      }
      ctx.io.stderr.write(`dry run: ${adverts.length} advert(s) valid; nothing was sent\n`);
    }
    return 0;
  }

  const config = await ctx.config();
  const client = await ctx.client();
  const concurrency = flags.concurrency ?? config.concurrency.value;
  // A live line on a terminal for longer runs; a single advert needs none.
  const progress = await startProgress(ctx, adverts.length > 1 ? adverts.length : 0, mode === 'create' ? 'creating' : 'publishing');
  let results;
  try {
    results = await runPool(
      adverts,
      concurrency,
      async (advert, _i, stop) => {
        const outcome = await publishAdvert(client, advert, mode, ctx.signal);
        // Nothing else can succeed with credentials the service refuses.
        if (outcome.error && 'kind' in outcome.error && outcome.error.kind === 'unauthorized') stop();
        progress.tick(Boolean(outcome.error));
        report.writeOutcome(ctx, outcome, progress.log);
        return outcome;
      },
      ctx.signal,
    );
  } finally {
    progress.stop();
  }
  const outcomes = results.filter((r) => r !== undefined);
  report.writeSummary(ctx, outcomes, adverts.length - outcomes.length);
  if (ctx.signal.aborted) return 130;
  return report.exitCodeFor(outcomes);
}
