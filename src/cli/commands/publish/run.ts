/** publish and create: check every advert, then send them (POST, and PUT where the reference is taken). */
import type { Context } from '../../context.js';
import { checkAdvertsToSend } from '../../../core/publishing/adverts-to-send.js';
import { publishAdvert, stopsTheRun, type PublishMode } from '../../../core/publishing/publish.js';
import type { PublishedChange } from '../../../core/published/record.js';
import { encodeSegment } from '../../../core/config/base-url.js';
import { runPool } from '../../../core/util/pool.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { plural } from '../../../core/util/plural.js';
import { nextTurn } from '../../../core/util/next-turn.js';
import { CancelledError, JobsError } from '../../../core/errors/failures.js';
import type { ReportCase } from '../../output/format-registry.js';
import { invalidAdvertsReported, writeReport } from '../../output/findings-report.js';
import { jsonText } from '../../output/json-output.js';
import { startProgress } from '../../output/progress.js';
import { confirmOwners, rememberPublished, sentAdvert } from '../../published.js';
import type { AdvertToSend } from '../../../core/publishing/adverts-to-send.js';
import type { CheckedAdvert } from '../../../core/validation/check.js';
import { expansionOf } from '../../../core/adverts/locations.js';
import { ownerConflicts, recordedFileOf } from '../../../core/published/owners.js';
import { readPublished } from '../../../core/published/record.js';
import { serviceKey } from '../../../core/config/service-key.js';
import * as report from './report.js';
import { isJson } from '../../output/command-io.js';
import { advertRules } from '../../rules.js';

export interface PublishFlags {
  concurrency?: number;
  dryRun?: boolean;
  allowUnknownFields?: boolean;
  /** Replace adverts published from another file without asking (see core/published/owners.ts). */
  yes?: boolean;
}

export async function runPublish(ctx: Context, paths: string[], flags: PublishFlags, mode: PublishMode): Promise<number> {
  const settings = await ctx.config();
  // The rules by place in force today are checked with the rest: a breach stops the run before anything is sent.
  const inputs = {
    cwd: ctx.cwd,
    env: ctx.env,
    stdin: () => ctx.io.stdin,
    settings: { ...settings, rules: await advertRules(ctx, settings) },
    signal: ctx.signal,
  };
  // Each advert is checked as it is read and read again as it is sent: a run of many files holds
  // only the adverts in flight.
  const { adverts, read } = await checkAdvertsToSend(inputs, paths, { allowUnknownFields: Boolean(flags.allowUnknownFields) }).catch(
    invalidAdvertsReported(ctx),
  );

  // The check settles its promises at once: a Ctrl-C during it is heard here, before any request.
  await nextTurn();
  if (ctx.signal.aborted) throw new CancelledError('interrupted before the first request; nothing was sent');

  // An upsert replaces what holds the reference: an advert another file published is named first.
  if (mode === 'upsert') await confirmOwnersOf(ctx, adverts, read, flags);

  if (flags.dryRun) {
    const json = isJson(ctx);
    // A report format lists each advert as passed: it was checked, and nothing was sent.
    const cases: ReportCase[] | undefined = report.reportsCases(ctx) ? [] : undefined;
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
    if (json) ctx.io.stdout.write(jsonText({ dry_run: true, requests }));
    else if (cases) writeReport(ctx, { cases });
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
  const published: PublishedChange[] = [];
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
        if (!outcome.error && advert.reference !== undefined)
          published.push(
            sentAdvert(advert.reference, advert.payload, advert.dates, {
              group: expansionOf(advert.source)?.group,
              file: recordedFileOf(ctx.cwd, advert.source.file),
            }),
          );
        // Nothing else can succeed with credentials the service refuses, or a sandbox that cannot keep a change.
        if (stopsTheRun(outcome.error)) stop();
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

/** The adverts whose reference the record says another file published with another title: warned, then asked or refused. */
async function confirmOwnersOf(ctx: Context, adverts: AdvertToSend[], read: (a: AdvertToSend) => Promise<CheckedAdvert>, flags: PublishFlags): Promise<void> {
  const config = await ctx.config();
  // No service named (a dry run needs none): nothing is recorded for it. A real run fails later, as before.
  if (!ctx.globals.sandbox && !config.baseUrl.value?.trim()) return;
  const { adverts: recorded } = readPublished(ctx.env, serviceKey(ctx.globals.sandbox, config));
  if (recorded.size === 0) return;
  const conflicts = await ownerConflicts(recorded, adverts, ctx.cwd, async (a) => {
    const title = (await read(a)).payload.title;
    return typeof title === 'string' ? title : undefined;
  });
  await confirmOwners(ctx, conflicts, { yes: flags.yes, dryRun: flags.dryRun, command: 'publish' });
}
