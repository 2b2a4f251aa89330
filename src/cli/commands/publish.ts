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
  const [{ checkAdvertsToSend }, { publishAdvert }, report, { runPool }, { sanitize }, { startProgress }, { invalidAdvertsReported }, { JobsError, CancelledError }, { plural }, { nextTurn }] = await Promise.all([
    import('../../core/publishing/adverts-to-send.js'),
    import('../../core/publishing/publish.js'),
    import('../output/publish-report.js'),
    import('../../core/util/pool.js'),
    import('../../core/util/sanitize.js'),
    import('../output/progress.js'),
    import('../output/findings-report.js'),
    import('../../core/errors/failures.js'),
    import('../../core/util/plural.js'),
    import('../../core/util/next-turn.js'),
  ]);
  const [{ rememberPublished, sentAdvert }, { expansionOf }] = await Promise.all([import('../published.js'), import('../../core/adverts/locations.js')]);
  const inputs = { cwd: ctx.cwd, env: ctx.env, stdin: () => ctx.io.stdin, settings: await ctx.config(), signal: ctx.signal };
  // Each advert is checked as it is read and read again as it is sent: a run of many files holds
  // only the adverts in flight.
  const { adverts, read } = await checkAdvertsToSend(inputs, paths, { allowUnknownFields: Boolean(flags.allowUnknownFields) }).catch(invalidAdvertsReported(ctx));

  // The check settles its promises at once: a Ctrl-C during it is heard here, before any request.
  await nextTurn();
  if (ctx.signal.aborted) throw new CancelledError('interrupted before the first request; nothing was sent');

  if (flags.dryRun) {
    const { encodeSegment } = await import('../../core/api/url.js');
    const json = ctx.globals.output === 'json';
    // A report format lists each advert as passed: it was checked, and nothing was sent.
    const cases: import('../output/format-registry.js').ReportCase[] | undefined = report.reportsCases(ctx) ? [] : undefined;
    const requests = [];
    for (const [i, a] of adverts.entries()) {
      if (i % 256 === 255) {
        await nextTurn();
        if (ctx.signal.aborted) throw new CancelledError(`interrupted: the dry run stopped after ${plural(i, 'advert')}; nothing was sent`);
      }
      const advert = await read(a);
      const r = { file: advert.source.file, reference: advert.reference ?? null, method: 'POST', path: '/jobs', body: advert.payload };
      if (json) requests.push(r);
      else if (cases) cases.push({ file: r.file, name: r.reference ?? '(no reference)', line: advert.source.locate([]).line, findings: [] });
      else {
        // The path as the client sends it: the reference is one encoded segment (`ACME 2026/1` is ACME%202026%2F1).
        const then = mode === 'upsert' && r.reference !== null ? ` (then PUT /jobs/${encodeSegment(r.reference)} if the reference is taken)` : '';
        ctx.io.stdout.write(`POST /jobs${then}  ${sanitize(r.file)}\n${JSON.stringify(r.body, null, 2).replace(/^/gm, '  ')}\n`);
      }
    }
    if (json) ctx.io.stdout.write((await import('../output/json-output.js')).jsonText({ dry_run: true, requests }));
    else if (cases) (await import('../output/findings-report.js')).writeReport(ctx, { cases });
    else ctx.io.stderr.write(`dry run: ${adverts.length} advert(s) valid; nothing was sent\n`);
    return 0;
  }

  const config = await ctx.config();
  const client = await ctx.client();
  const concurrency = flags.concurrency ?? config.concurrency.value;
  // A live line on a terminal for longer runs; a single advert needs none.
  const progress = await startProgress(ctx, adverts.length > 1 ? adverts.length : 0, mode === 'create' ? 'creating' : 'publishing');
  let results;
  // What the service took, for the record of published adverts (stats --all and report read it).
  const published: import('../../core/published/record.js').PublishedChange[] = [];
  try {
    results = await runPool(
      adverts,
      concurrency,
      async (toSend, _i, stop) => {
        let advert;
        try {
          advert = await read(toSend);
        } catch (error) {
          if (!(error instanceof JobsError)) throw error;
          progress.tick(true);
          return report.unreadRecord(ctx, { file: toSend.source, document: toSend.document, reference: toSend.reference }, error, progress.log);
        }
        const outcome = await publishAdvert(client, advert, mode, ctx.signal);
        if (!outcome.error && advert.reference !== undefined) published.push(sentAdvert(advert.reference, advert.payload, { group: expansionOf(advert.source)?.group }));
        // Nothing else can succeed with credentials the service refuses.
        if (outcome.error && 'kind' in outcome.error && outcome.error.kind === 'unauthorized') stop();
        progress.tick(Boolean(outcome.error));
        report.writeOutcome(ctx, outcome, progress.log);
        return report.sentRecord(ctx, outcome);
      },
      ctx.signal,
    );
  } finally {
    progress.stop();
    await rememberPublished(ctx, published);
  }
  const outcomes = results.filter((r) => r !== undefined);
  report.writeSummary(ctx, outcomes, adverts.length - outcomes.length);
  if (ctx.signal.aborted) return 130;
  return report.exitCodeFor(outcomes);
}
