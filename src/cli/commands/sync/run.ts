/** sync: make the service match a folder of adverts, through the state file; report each change. */
import type { Context } from '../../context.js';
import type { SyncFolderOptions } from '../../../core/sync/sync-folder.js';
import type { Plan } from '../../../core/sync/plan.js';
import type { Progress } from '../../output/progress.js';
import type { PublishedChange } from '../../../core/published/record.js';
import { syncFolder } from '../../../core/sync/sync-folder.js';
import { hasChanges } from '../../../core/sync/plan.js';
import { deletedByDate } from '../../../core/sync/dates-plan.js';
import * as errors from '../../../core/errors/failures.js';
import * as report from './report.js';
import { startProgress } from '../../output/progress.js';
import { invalidAdvertsReported } from '../../output/findings-report.js';
import { plural } from '../../../core/util/plural.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { confirmOwners, rememberPublished, sentAdvert } from '../../published.js';
import { recordedFileOf } from '../../../core/published/owners.js';
import { canPrompt } from '../../context.js';
import { confirm } from '../../output/prompt.js';
import { keepHeapNearLive } from '../../../core/util/heap.js';
import { formatEntry } from '../../output/format-registry.js';

export type SyncFlags = Pick<SyncFolderOptions, 'dryRun' | 'prune' | 'state' | 'force' | 'concurrency' | 'failFast' | 'unlock' | 'allowUnknownFields'> & {
  detailedExitcode?: boolean;
  yes?: boolean;
};

export async function runSync(ctx: Context, dir: string, flags: SyncFlags): Promise<number> {
  if (flags.detailedExitcode && !flags.dryRun) throw new errors.UsageError('--detailed-exitcode goes with --dry-run');
  let plan: Plan | undefined;
  let progress: Progress | undefined;
  // Besides the sync state, the record of published adverts that stats --all and report read.
  const published: PublishedChange[] = [];
  // A sync state outlives `jobs sandbox --reset`: it would find every advert "unchanged" on a
  // sandbox that has none. A sandbox holding no data forgot (or never had) them: all are sent again.
  const forgotten = ctx.globals.sandbox && !flags.force && !(await sandboxHoldsData(ctx));
  if (forgotten) flags = { ...flags, force: true };
  const result = await syncFolder(
    {
      ...flags,
      dir,
      cwd: ctx.cwd,
      env: ctx.env,
      signal: ctx.signal,
      sandbox: ctx.globals.sandbox,
      log: (text) => ctx.io.stderr.write(`${ctx.name}: ${text}\n`),
    },
    {
      config: await ctx.config(),
      connect: () => ctx.client(),
      onPlan: (planned, info) => {
        plan = planned;
        // Said only when the state knew adverts (a first sync creates them anyway).
        if (forgotten && !ctx.globals.quiet && planned.changes.some((c) => c.action === 'update'))
          ctx.io.stderr.write(`${ctx.name}: the embedded sandbox holds no adverts (it was reset): every advert the sync state records is sent again\n`);
        report.writePlan(ctx, planned, info);
      },
      confirmDeletions: (planned) => confirmDeletions(ctx, planned, flags),
      confirmOwners: (conflicts, info) => confirmOwners(ctx, conflicts, { yes: flags.yes, dryRun: info.dryRun, command: 'sync' }),
      onSend: async (total) => {
        // V8 lets its heap grow to several times what is live before collecting; a run that sends
        // thousands of adverts makes garbage fast and would peak at hundreds of megabytes for nothing.
        if (total >= 10_000) keepHeapNearLive();
        progress = await startProgress(ctx, total, 'syncing');
      },
      onResult: (r) => {
        if (r.status === 'deleted') published.push({ reference: r.change.reference, deleted: true });
        else if (r.status !== 'failed')
          published.push(
            sentAdvert(r.change.reference, r.advert?.payload, r.advert?.dates, {
              group: r.change.group,
              file: recordedFileOf(ctx.cwd, r.change.source),
            }),
          );
        progress!.tick(r.status === 'failed');
        report.writeResult(ctx, r, progress!.log);
      },
      onSent: () => progress?.stop(),
      onOutcome: (planned, outcome) => {
        // Dates edited alone send nothing: the record stats and report count days left from is brought up to date.
        if (planned.dates)
          for (const c of planned.changes)
            if (c.action === 'unchanged') published.push({ reference: c.reference, dates: planned.dates.get(c.reference), datesOnly: true });
        report.writeSummary(ctx, planned, outcome.results, outcome.notStarted);
      },
    },
  )
    .catch(invalidAdvertsReported(ctx))
    .finally(() => rememberPublished(ctx, published));
  if (flags.dryRun) return flags.detailedExitcode && hasChanges(plan!) ? errors.ExitCode.changesPending : 0;
  return result.exitCode;
}

/** A plan that deletes: asked at a terminal, refused without one unless --yes; nothing is sent before. */
async function confirmDeletions(ctx: Context, plan: Plan, flags: SyncFlags): Promise<void> {
  if (flags.yes) return;
  const adverts = plural(plan.counts.delete, 'advert');
  // With a document on stdout (JSON, SARIF, JUnit, ...) or --quiet the plan was not drawn: the adverts to delete are named here.
  const shown = !formatEntry(ctx.globals.output).document && !ctx.globals.quiet;
  const dated = plan.changes.filter(deletedByDate);
  const deletions = plan.changes
    .filter((c) => c.action === 'delete')
    .map(
      (c) =>
        `- ${sanitize(c.reference)}${c.closed !== undefined ? ` (closed ${c.closed})` : c.opens !== undefined ? ` (opens ${c.opens})` : ''}  (${sanitize(c.file)})`,
    );
  if (!canPrompt(ctx)) {
    const them = plan.counts.delete === 1 ? 'it' : 'them';
    // Deletions asked for by `jobs:` dates need no --prune: leaving it out keeps nothing then.
    const keep =
      dated.length === plan.counts.delete
        ? 'or change the dates in their jobs: block to keep them up'
        : dated.length > 0
          ? 'or leave out --prune and change the dates in their jobs: block to keep them'
          : 'or leave out --prune to keep them';
    const yes = `pass --yes to delete ${them} (${flags.prune ? 'sync --prune --yes' : 'sync --yes'}), ${keep}`;
    throw new errors.UsageError(`refusing to delete ${adverts} without confirmation; nothing was sent`, { details: [...(shown ? [] : deletions), yes] });
  }
  if (!shown) ctx.io.stderr.write(`${deletions.join('\n')}\n`);
  const yes = await confirm(ctx, `Delete ${adverts} from the service (marked - above)? This cannot be undone.`);
  if (ctx.signal.aborted) throw new errors.CancelledError('interrupted; nothing was sent');
  if (!yes) throw new errors.DeclinedError('nothing was sent: the plan was not carried out');
}

/** Whether the embedded sandbox has data (its file or its journal): loaded only with --sandbox. */
async function sandboxHoldsData(ctx: Context): Promise<boolean> {
  const { existsSync } = await import('node:fs');
  const { sandboxStatePath } = await import('../../../core/sandbox/embedded.js');
  const { journalPathFor } = await import('../../../core/sandbox/data-file.js');
  const file = sandboxStatePath(ctx.env);
  return existsSync(file) || existsSync(journalPathFor(file));
}
