import type { CommandSetup } from '../program.js';
import type { Context } from '../context.js';

export default function stats({ program, name, action }: CommandSetup): void {
  program
    .command('stats')
    .description('show views, likes, applications and unviewed applications of adverts')
    .argument('[reference...]', 'references of published adverts')
    .option('--all', 'every advert recorded in a sync state (see --state)')
    .option('--state <file>', 'the sync state to read with --all (default: ./.jobs-state.json)')
    .option('--since <duration>', 'show the change over this window (7d, 12h) instead of since the last snapshot')
    .option('--sort <column>', `sort by ${SORT_COLUMNS}`)
    .option('--needs-attention', 'only adverts with unviewed applications, or views but no new applications for a week')
    .option('--history', 'draw a chart of each counter over time (from the recorded snapshots)')
    .option('--history-dir <dir>', 'where snapshots are kept (default: $XDG_STATE_HOME/jobs/history)')
    .option('--no-record', 'compare with the history but do not add this run to it')
    .addHelpText(
      'after',
      `
The table adds the like rate (likes / views), the application rate (applications / views) and, from
the local history, the change since the last snapshot (or over --since). Each run records one
snapshot per advert in the history (one folder per service), which jobs report turns into a page.
With --json: {"stats": [{"reference", "views", "likes", "applications", "applications_unviewed",
"like_rate", "application_rate", "change", "needs_attention"}], "history"?: [...]} (see README).

Examples:
  $ ${name} stats ACME-0042
  $ ${name} stats ACME-0042 --history
  $ ${name} stats ACME-0042 ACME-0043 --json
  $ ${name} stats --all --since 7d --sort new_applications
  $ ${name} stats --all --needs-attention --state adverts/.jobs-state.json
  $ ${name} --sandbox stats ACME-0042   # also lists application ids to try ${name} event with`,
    )
    .action(action((ctx, references: string[], flags: StatsFlags) => runStats(ctx, references, flags)));
}

const SORT_COLUMNS = 'reference, views, likes, applications, unviewed, like_rate, apply_rate, new_views, new_likes or new_applications';

interface StatsFlags {
  all?: boolean;
  state?: string;
  since?: string;
  sort?: string;
  needsAttention?: boolean;
  history?: boolean;
  historyDir?: string;
  record?: boolean;
}

export async function runStats(ctx: Context, references: string[], flags: StatsFlags = {}): Promise<number> {
  const [errors, { runPool }, { renderStats }] = await Promise.all([import('../../core/errors/failures.js'), import('../../core/util/pool.js'), import('../output/stats-table.js')]);
  if (flags.all && references.length > 0) throw new errors.UsageError('give references or --all, not both');
  if (!flags.all && flags.state) throw new errors.UsageError('--state goes with --all');
  if (!flags.all && references.length === 0) throw new errors.UsageError('which adverts? give their references, or --all for every advert in a sync state');
  const { parseHistoryFlags } = await import('../../core/history/flags.js');
  const options = parseHistoryFlags(flags);
  const { refuseUnusableReferences } = await import('../../core/validation/reference.js');
  // Given on the command line, each is refused or put in NFC before anything is asked.
  if (!flags.all && references.some((r) => r.trim() === '')) throw new errors.UsageError('a reference must not be empty');
  const unique = flags.all ? await referencesFromState(ctx, flags.state) : [...new Set(refuseUnusableReferences(references))];
  if (unique.length === 0) {
    ctx.io.stderr.write('the sync state records no advert for this service\n');
    if (ctx.globals.output === 'json') ctx.io.stdout.write(`${JSON.stringify({ stats: [] })}\n`);
    return 0;
  }
  if (unique.some((r) => r.trim() === '')) throw new errors.UsageError('a reference must not be empty');
  const client = await ctx.client();
  const config = await ctx.config();
  const results = await runPool(
    unique,
    config.concurrency.value,
    async (reference, _i, stop) => {
      try {
        const { stats, at } = await client.statsAt(reference, { signal: ctx.signal });
        return { reference, stats, at: at ?? Date.now() };
      } catch (error) {
        if (!(error instanceof errors.JobsError)) throw error;
        if (error instanceof errors.ApiError && error.kind === 'unauthorized') stop();
        return { reference, error };
      }
    },
    ctx.signal,
  );
  const done = results.filter((r) => r !== undefined);
  const { statsView } = await import('../output/stats-view.js');
  const history = await historyOf(ctx, flags.historyDir);
  const { sanitize } = await import('../../core/util/sanitize.js');
  renderStats(ctx, done, statsView(history, done, options, (line) => ctx.io.stderr.write(`${ctx.name}: warning: ${sanitize(line)}\n`)));
  if (ctx.globals.sandbox && ctx.globals.output === 'human' && !ctx.globals.quiet) {
    // The embedded sandbox is the only place a new user can get application ids to try `event` with.
    const { writeApplicationHints } = await import('../output/sandbox-hints.js');
    writeApplicationHints(ctx, done.flatMap((r) => ('stats' in r ? [r.reference] : [])));
  }
  if (ctx.signal.aborted) return errors.ExitCode.interrupted;
  const codes = new Set(done.flatMap((r) => ('error' in r && r.error ? [r.error.exitCode] : [])));
  return codes.size === 0 ? 0 : codes.size === 1 ? [...codes][0]! : errors.ExitCode.rejected;
}

async function historyOf(ctx: Context, dirFlag: string | undefined) {
  const [{ resolve }, { History, defaultHistoryDir }, { serviceKey }] = await Promise.all([import('node:path'), import('../../core/history/store.js'), import('../../core/sync/service-key.js')]);
  const dir = dirFlag === undefined ? defaultHistoryDir(ctx.env) : resolve(ctx.cwd, dirFlag);
  return new History(dir, serviceKey(ctx.globals.sandbox, await ctx.config()));
}

async function referencesFromState(ctx: Context, stateFlag: string | undefined): Promise<string[]> {
  const [{ resolve }, { existsSync }, { SyncState, DEFAULT_STATE_FILE }, { serviceKey }, { UsageError }] = await Promise.all([
    import('node:path'),
    import('node:fs'),
    import('../../core/sync/state.js'),
    import('../../core/sync/service-key.js'),
    import('../../core/errors/failures.js'),
  ]);
  const path = resolve(ctx.cwd, stateFlag ?? DEFAULT_STATE_FILE);
  if (!existsSync(path)) throw new UsageError(`no sync state at ${path}: pass --state <file> (it is written by ${ctx.name} sync, inside the synced folder by default)`);
  const service = serviceKey(ctx.globals.sandbox, await ctx.config());
  return [...SyncState.load(path).adverts(service).keys()].sort();
}
