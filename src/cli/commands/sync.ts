import type { CommandSetup } from '../program.js';
import type { Context } from '../context.js';
import { parseCount } from './parsers.js';
import type { SyncFolderOptions } from '../../core/sync/sync-folder.js';
import type { Plan } from '../../core/sync/plan.js';
import type { Progress } from '../output/progress.js';
import type { PublishedChange } from '../../core/published/record.js';

export type SyncFlags = Pick<SyncFolderOptions, 'dryRun' | 'prune' | 'state' | 'force' | 'concurrency' | 'failFast' | 'unlock' | 'allowUnknownFields'> & {
  detailedExitcode?: boolean;
  yes?: boolean;
};

export default function sync({ program, name, action }: CommandSetup): void {
  program
    .command('sync')
    .description('make the service match a folder of adverts: create, update and (with --prune) delete')
    .argument('<dir>', 'the folder of advert files (searched recursively)')
    .option('--dry-run', 'print the plan and send nothing')
    .option('--prune', 'delete adverts that were published from this folder and are gone from it')
    .option('-y, --yes', 'with --prune: delete without asking (required when not on a terminal)')
    .option('--state <file>', 'the state file (default: <dir>/.jobs-state.json)')
    .option('--force', 'republish every advert, changed or not')
    .option('--concurrency <n>', 'requests at once (default: config concurrency, 4)', parseCount(1, 64))
    .option('--detailed-exitcode', 'with --dry-run: exit 8 when there are changes, 0 when none')
    .option('--fail-fast', 'stop starting new requests after the first failure')
    .option('--unlock', 'remove a lock left by a sync that is no longer running')
    .option('--allow-unknown-fields', 'send fields the schema does not know instead of refusing them')
    .addHelpText(
      'after',
      `
The service cannot list adverts, so sync keeps a state file of what it published (per service URL),
as Terraform does. Every advert is validated first (exit 3, nothing sent); so is every file and
folder that cannot be read (symlinks are followed), so --prune never deletes an advert it could not
read. Plan: + create (not in
state), ~ update (content changed; the whole advert is sent), unchanged (no request), - delete
(gone from the folder; only with --prune, otherwise listed as orphans). A plan that deletes asks
first on a terminal (no: exit 9, nothing sent); in scripts and CI it needs --yes, or nothing is sent
(exit 2). A field removed from a file
cannot be cleared through the interface; the plan says so. Each success is recorded at once, so an
interrupted sync resumes where it stopped; a lost state is safe (taken references are adopted).

Examples:
  $ ${name} sync adverts/ --dry-run
  $ ${name} sync adverts/ --prune
  $ ${name} sync adverts/ --prune --yes                   # in CI: delete without asking
  $ ${name} sync adverts/ --dry-run --detailed-exitcode   # exit 8 when changes are pending`,
    )
    .action(action((ctx, dir: string, flags: SyncFlags) => runSync(ctx, dir, flags)));
}

export async function runSync(ctx: Context, dir: string, flags: SyncFlags): Promise<number> {
  const [{ syncFolder }, { hasChanges }, errors, report, { startProgress }, { invalidAdvertsReported }] = await Promise.all([
    import('../../core/sync/sync-folder.js'),
    import('../../core/sync/plan.js'),
    import('../../core/errors/failures.js'),
    import('../output/sync-report.js'),
    import('../output/progress.js'),
    import('../output/findings-report.js'),
  ]);
  if (flags.detailedExitcode && !flags.dryRun) throw new errors.UsageError('--detailed-exitcode goes with --dry-run');
  let plan: Plan | undefined;
  let progress: Progress | undefined;
  const { rememberPublished, sentAdvert } = await import('../published.js');
  // Besides the sync state, the record of published adverts that stats --all and report read.
  const published: PublishedChange[] = [];
  const result = await syncFolder(
    { ...flags, dir, cwd: ctx.cwd, env: ctx.env, signal: ctx.signal, sandbox: ctx.globals.sandbox, log: (text) => ctx.io.stderr.write(`${ctx.name}: ${text}\n`) },
    {
      config: await ctx.config(),
      connect: () => ctx.client(),
      onPlan: (planned, info) => {
        plan = planned;
        report.writePlan(ctx, planned, info);
      },
      confirmDeletions: (planned) => confirmDeletions(ctx, planned, flags),
      onSend: async (total) => {
        // V8 lets its heap grow to several times what is live before collecting; a run that sends
        // thousands of adverts makes garbage fast and would peak at hundreds of megabytes for nothing.
        if (total >= 10_000) (await import('../../core/util/heap.js')).keepHeapNearLive();
        progress = await startProgress(ctx, total, 'syncing');
      },
      onResult: (r) => {
        if (r.status === 'deleted') published.push({ reference: r.change.reference, deleted: true });
        else if (r.status !== 'failed') published.push(sentAdvert(r.change.reference, r.advert?.payload, { group: r.change.group }));
        progress!.tick(r.status === 'failed');
        report.writeResult(ctx, r, progress!.log);
      },
      onSent: () => progress?.stop(),
      onOutcome: (planned, outcome) => report.writeSummary(ctx, planned, outcome.results, outcome.notStarted),
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
  const [errors, { plural }, { sanitize }] = await Promise.all([import('../../core/errors/failures.js'), import('../../core/util/plural.js'), import('../../core/util/sanitize.js')]);
  const { canPrompt } = await import('../context.js');
  const adverts = plural(plan.counts.delete, 'advert');
  // With --json, SARIF or --quiet the plan was not drawn: the adverts to delete are named here.
  const shown = ctx.globals.output !== 'json' && ctx.globals.output !== 'sarif' && !ctx.globals.quiet;
  const deletions = plan.changes.filter((c) => c.action === 'delete').map((c) => `- ${sanitize(c.reference)}  (${sanitize(c.file)})`);
  if (!canPrompt(ctx)) {
    const yes = `pass --yes to delete ${plan.counts.delete === 1 ? 'it' : 'them'} (sync --prune --yes), or leave out --prune to keep them`;
    throw new errors.UsageError(`refusing to delete ${adverts} without confirmation; nothing was sent`, { details: [...(shown ? [] : deletions), yes] });
  }
  if (!shown) ctx.io.stderr.write(`${deletions.join('\n')}\n`);
  const { confirm } = await import('../output/prompt.js');
  const yes = await confirm(ctx, `Delete ${adverts} from the service (marked - above)? This cannot be undone.`);
  if (ctx.signal.aborted) throw new errors.CancelledError('interrupted; nothing was sent');
  if (!yes) throw new errors.DeclinedError('nothing was sent: the plan was not carried out');
}
