import type { CommandSetup } from '../program.js';
import type { Context } from '../context.js';
import { parseCount } from './parsers.js';
import type { FolderDigests } from '../sync/check-folder.js';

export interface SyncFlags {
  dryRun?: boolean;
  prune?: boolean;
  state?: string;
  force?: boolean;
  concurrency?: number;
  detailedExitcode?: boolean;
  failFast?: boolean;
  unlock?: boolean;
  allowUnknownFields?: boolean;
}

/** Ctrl-C stops new requests at once; requests in flight get this long to finish. */
const DRAIN_MS = 8000;

export default function sync({ program, name, action }: CommandSetup): void {
  program
    .command('sync')
    .description('make the service match a folder of adverts: create, update and (with --prune) delete')
    .argument('<dir>', 'the folder of advert files (searched recursively)')
    .option('--dry-run', 'print the plan and send nothing')
    .option('--prune', 'delete adverts that were published from this folder and are gone from it')
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
(gone from the folder; only with --prune, otherwise listed as orphans). A field removed from a file
cannot be cleared through the interface; the plan says so. Each success is recorded at once, so an
interrupted sync resumes where it stopped; a lost state is safe (taken references are adopted).

Examples:
  $ ${name} sync adverts/ --dry-run
  $ ${name} sync adverts/ --prune
  $ ${name} sync adverts/ --dry-run --detailed-exitcode   # exit 8 when changes are pending`,
    )
    .action(action((ctx, dir: string, flags: SyncFlags) => runSync(ctx, dir, flags)));
}

export async function runSync(ctx: Context, dir: string, flags: SyncFlags): Promise<number> {
  const [{ resolve, relative, join, sep }, { statSync }, errors, { checkFolder, planFolder }, { SyncState, acquireLock, DEFAULT_STATE_FILE, stateFiles }, { hasChanges, contentHashes }, { executePlan }, report, { startProgress }, { serviceKey }, { statRegularFile, whyUnreadable }, { advertReader }, { InvalidAdvertsError }, { invalidInput }] =
    await Promise.all([
      import('node:path'),
      import('node:fs'),
      import('../errors/failures.js'),
      import('../sync/check-folder.js'),
      import('../sync/state.js'),
      Promise.all([import('../sync/plan.js'), import('../sync/hash.js')]).then(([plan, hash]) => ({ ...plan, ...hash })),
      import('../sync/execute.js'),
      import('../sync/report.js'),
      import('../output/progress.js'),
      import('../sync/service-key.js'),
      import('../util/quick-fs.js'),
      import('../sync/reread.js'),
      import('../validation/invalid-adverts.js'),
      import('../output/findings-report.js'),
    ]);
  const root = resolve(ctx.cwd, dir);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new errors.UsageError(`${dir}: not a folder; sync takes the folder that holds the adverts`);
  if (flags.detailedExitcode && !flags.dryRun) throw new errors.UsageError('--detailed-exitcode goes with --dry-run');

  const statePath = resolve(ctx.cwd, flags.state ?? join(dir, DEFAULT_STATE_FILE));
  try {
    // Checked by name before the folder is read and before anything opens it: reading a FIFO or a
    // device would block or never end.
    statRegularFile(statePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new errors.UsageError(`cannot read the sync state ${relative(ctx.cwd, statePath) || statePath}: ${whyUnreadable(error)}`);
  }
  const checkOptions = { allowUnknownFields: Boolean(flags.allowUnknownFields) };
  const config = await ctx.config();
  // The state may live in the folder under any name (adverts/state.yaml): it is not an advert.
  // Each advert is checked as it is read; the plan is made from what is kept of it (its digest).
  let folder: FolderDigests | undefined = await checkFolder(dir, { cwd: ctx.cwd, env: ctx.env, settings: { defaults: config.defaults, constants: config.constants }, options: checkOptions, exclude: stateFiles(statePath) }).catch((error: unknown) => {
    throw error instanceof InvalidAdvertsError ? invalidInput(ctx, error.findings, error.message) : error;
  });
  const service = serviceKey(ctx, config);
  const lock = flags.dryRun ? undefined : acquireLock(statePath, { unlock: flags.unlock, notice: (t) => ctx.io.stderr.write(`${ctx.name}: ${t}\n`) });
  try {
    const state = SyncState.load(statePath);
    // The advert's file relative to the synced folder: path arithmetic once per folder, not per advert.
    const folders = new Map<string, string>();
    const fileOf = (shown: string): string => {
      const cut = shown.lastIndexOf(sep);
      const folder = cut < 0 ? '.' : shown.slice(0, cut + 1);
      let rel = folders.get(folder);
      if (rel === undefined) folders.set(folder, (rel = relative(root, resolve(ctx.cwd, folder))));
      return rel === '' ? shown.slice(cut + 1) : `${rel}${sep}${shown.slice(cut + 1)}`;
    };
    const concurrency = flags.concurrency ?? config.concurrency.value;
    const readAdvert = advertReader(ctx.cwd, config, checkOptions, Math.max(8, concurrency));
    const plan = await planFolder(folder!, state.adverts(service), {
      prune: Boolean(flags.prune),
      force: Boolean(flags.force),
      fileOf,
      fieldsOf: async (change) => contentHashes((await readAdvert(change)).payload).fields,
      concurrency: Math.max(8, concurrency),
    });
    folder = undefined;
    report.writePlan(ctx, plan, { dryRun: Boolean(flags.dryRun), statePath });
    if (flags.dryRun) return flags.detailedExitcode && hasChanges(plan) ? errors.ExitCode.changesPending : 0;

    // V8 lets its heap grow to several times what is live before collecting; a run that sends
    // thousands of adverts makes garbage fast and would peak at hundreds of megabytes for nothing.
    if (plan.changes.length >= 10_000) (await import('node:v8')).setFlagsFromString('--heap-growing-percent=50');
    const client = await ctx.client();
    // A success that could not be recorded would be sent again: refuse before sending anything.
    if (hasChanges(plan)) state.openLog();
    const drain = new AbortController();
    const onStop = () => setTimeout(() => drain.abort(), DRAIN_MS).unref();
    ctx.signal.addEventListener('abort', onStop, { once: true });
    const total = plan.counts.create + plan.counts.update + plan.counts.delete;
    const progress = await startProgress(ctx, total, 'syncing');
    let outcome;
    let saveFailure: unknown;
    try {
      outcome = await executePlan(plan, {
        client,
        state,
        service,
        concurrency,
        readAdvert,
        failFast: Boolean(flags.failFast),
        stop: ctx.signal,
        abort: drain.signal,
        onResult: (result) => {
          progress.tick(result.status === 'failed');
          report.writeResult(ctx, result, progress.log);
        },
      });
    } finally {
      progress.stop();
      ctx.signal.removeEventListener('abort', onStop);
      try {
        state.save();
      } catch (error) {
        saveFailure = error;
      }
    }
    report.writeSummary(ctx, plan, outcome.results, outcome.notStarted);
    if (outcome.recordFailure !== undefined || saveFailure !== undefined) throw report.recordingError(state, outcome, saveFailure);
    if (ctx.signal.aborted) return errors.ExitCode.interrupted;
    return report.exitCodeFor(outcome.results);
  } finally {
    lock?.release();
  }
}
