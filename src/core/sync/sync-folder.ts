/**
 * `syncFolder`: `jobs sync <dir>` as a function, read top to bottom as its named steps: check the
 * arguments (settleRun), check the folder with the state read beside it (checkFolderBesideState),
 * lock and load (loadUnderLock), plan (planChanges), execute and record (executeAndRecord). The
 * no-op shortcut is unchanged-shortcut.ts. It draws nothing: what a terminal shows goes through the
 * hooks (the CLI draws the plan, progress and results from them), notices through `log`.
 */
import { relative, resolve } from 'node:path';
import { stateFileNamer } from './state-file-name.js';
import { existsSync, statSync } from 'node:fs';
import type { JobsClient } from '../api/client.js';
import type { ResolvedConfig } from '../config/types.js';
import { ApiError, ExitCode, PartialFailureError, UsageError } from '../errors/failures.js';
import type { ErrorTree } from '../errors/tree.js';
import { statRegularFile, whyUnreadable } from '../util/quick-fs.js';
import { sanitize } from '../util/sanitize.js';
import type { AdvertSettings } from '../validation/check.js';
import { checkFolder, type CheckedDigests as FolderDigests } from '../bulk/check-paths.js';
import { planFolder } from './plan-folder.js';
import { executePlan, type ChangeResult, type ExecuteOutcome } from './execute.js';
import { contentHashes, textHashBasis } from '../bulk/hash.js';
import { hasChanges, type Plan, type PlannedChange } from './plan.js';
import { advertReader, contentHashReader, type ReadAdvert } from '../bulk/reread.js';
import { serviceKey } from '../config/service-key.js';
import { applyDates, datesOf } from './dates-plan.js';
import { dayOf } from '../adverts/dates.js';
import { todayFor } from './today.js';
import { loweredNote, ruleSettingsFor } from '../rules/settings.js';
import { displayPath } from '../config/paths.js';
import { acquireLock, defaultStateOf, reasonOf, stateFiles, SyncState } from './state.js';
import { logPathOf } from './state/files.js';
import { NOTHING_DONE, UnchangedShortcut } from './unchanged-shortcut.js';
import { ownerConflicts, type OwnerConflict } from '../published/owners.js';
import { readPublished } from '../published/record.js';

export interface SyncFolderOptions {
  dryRun?: boolean;
  prune?: boolean;
  /** The state file (default: <dir>/.jobs-state, or a <dir>/.jobs-state.json already there). */
  state?: string;
  force?: boolean;
  concurrency?: number;
  failFast?: boolean;
  unlock?: boolean;
  allowUnknownFields?: boolean;
  /** The folder of advert files (searched recursively). */
  dir: string;
  /** The service's base URL; otherwise JOBS_BASE_URL or the config, as the CLI finds it. */
  baseUrl?: string;
  /** The token; otherwise JOBS_TOKEN, the config or the `jobs login` store, as the CLI finds it. */
  token?: string;
  /** A client to use instead of one built from baseUrl and token (its base URL keys the state). */
  client?: JobsClient;
  /** Run against the embedded local sandbox, like `--sandbox`. */
  sandbox?: boolean;
  /** Where `dir`, `state` and the project config are looked up from; default process.cwd(). */
  cwd?: string;
  /** The environment the config is resolved with; default process.env. */
  env?: Record<string, string | undefined>;
  /** Stops starting new requests (requests in flight get a few seconds to finish). */
  signal?: AbortSignal;
  /** Receives the human-oriented lines the command writes to stderr (plan summary, notices). */
  log?: (line: string) => void;
  /** The day adverts' `jobs:` dates are read against (YYYY-MM-DD, UTC); default today (see sync/today.ts). */
  today?: string;
}

export type PlanAction = 'create' | 'update' | 'delete' | 'orphan' | 'unchanged' | 'waiting' | 'closed';

export interface PlannedEntry {
  action: PlanAction;
  reference: string;
  /** The file, relative to the synced folder. */
  file: string;
  /** The file's reference, for an advert made from a `locations:` list (one advert per place). */
  group?: string;
  changed?: string[];
  removed?: string[];
  /** Its `jobs.opens`: why it waits (or is deleted, when on the service already). */
  opens?: string;
  /** Its `jobs.closes`, passed: why it is deleted (or not created). */
  closed?: string;
}

export interface SyncedEntry {
  reference: string;
  file: string;
  action: PlanAction;
  status: 'created' | 'updated' | 'adopted' | 'recreated' | 'deleted' | 'failed';
  error?: { message: string; exit_code: number; status?: number | null; errors?: ErrorTree | null };
}

export interface SyncFolderResult {
  /** What `jobs sync` would exit with: 0 in sync, 1 failures, 4 token refused, 130 interrupted, ... */
  exitCode: number;
  dryRun: boolean;
  /** With dryRun: what would change (unchanged adverts are only counted). */
  plan: PlannedEntry[];
  /** Without dryRun: one entry per request made. */
  results: SyncedEntry[];
  /** The plan's counts (dry run) or the outcome's counts: created, updated, failed, unchanged, ... */
  counts: Record<string, number>;
}

/** What a caller above the core (the CLI) sees of a run as it goes. */
export interface SyncHooks {
  /** The settings, resolved already (the CLI's); otherwise resolved as the CLI would from cwd and env. */
  config?: ResolvedConfig;
  /** The client, asked for only when something is to be sent; otherwise options.client or one built from the config. */
  connect?: () => Promise<JobsClient>;
  /** The plan, before anything is sent (without dryRun, once a client is at hand: missing credentials fail first). */
  onPlan?: (plan: Plan, info: { dryRun: boolean; statePath: string }) => void;
  /**
   * A plan that deletes adverts, after onPlan and before anything is sent: throw to send nothing
   * (the CLI asks at a terminal, and refuses without one unless --yes was given).
   */
  confirmDeletions?: (plan: Plan) => void | Promise<void>;
  /**
   * Adverts to create or update whose reference the record of published adverts says another file
   * published with another title (published/owners.ts), after onPlan and before anything is sent
   * (also on a dry run): throw to send nothing. Not called when there are none.
   */
  confirmOwners?: (conflicts: OwnerConflict[], info: { dryRun: boolean }) => void | Promise<void>;
  /** Sending starts: this many requests to make. */
  onSend?: (total: number) => void | Promise<void>;
  onResult?: (result: ChangeResult) => void;
  /** Sending ended (also on an error), before the state is saved. */
  onSent?: () => void;
  /** What was done, before an error recording it is thrown. */
  onOutcome?: (plan: Plan, outcome: ExecuteOutcome) => void;
}

/** A state file's size, time and inode, and whether a log is beside it: what tells that another run changed it. */
function stateIdentity(path: string): string {
  const info = statSync(path, { throwIfNoEntry: false });
  return `${info?.size}:${info?.mtimeMs}:${info?.ino}:${existsSync(logPathOf(path))}`;
}

/** Ctrl-C stops new requests at once; requests in flight get this long to finish. */
const DRAIN_MS = 8000;

/**
 * Runs a sync. Throws InvalidAdvertsError (exit 3, with every finding) when the folder has errors,
 * UsageError or ConfigError for a bad folder, state or setting, PartialFailureError when what was
 * done could not be recorded; failed requests are results, not errors.
 *
 * The steps, in order: check the arguments and settings; check the folder (reading the state
 * beside it); lock the state and load what changed meanwhile; plan; connect and show the plan;
 * execute and record.
 */
export async function syncFolder(options: SyncFolderOptions, hooks: SyncHooks = {}): Promise<SyncFolderResult> {
  const run = await settleRun(options, hooks);
  // The folder's digests are let go once planned: the requests of 100,000 adverts are sent without them.
  let checked: CheckedFolder | undefined = await checkFolderBesideState(run);
  const lock = run.dryRun ? undefined : acquireLock(run.statePath, { unlock: options.unlock, notice: run.notice });
  try {
    const atHand = loadUnderLock(run, checked);
    const { plan, state } = await planChanges(run, checked.folder, atHand);
    checked = undefined;
    // Credentials before the plan is shown: a run that cannot send should not print what it would send first.
    const client = run.dryRun ? undefined : await (hooks.connect ?? (() => clientFor(options, run.config, run.env)))();
    hooks.onPlan?.(plan, { dryRun: run.dryRun, statePath: run.statePath });
    if (hooks.confirmOwners) {
      const conflicts = await ownersOf(run, plan);
      if (conflicts.length > 0) await hooks.confirmOwners(conflicts, { dryRun: run.dryRun });
    }
    if (!client) return dryRunResult(plan);
    if (plan.counts.delete > 0) await hooks.confirmDeletions?.(plan);
    const { outcome, saveFailure } = await executeAndRecord(run, hooks, plan, client, state);
    hooks.onOutcome?.(plan, outcome);
    if (outcome.recordFailure !== undefined || saveFailure !== undefined) throw recordingError(state!, outcome, saveFailure);
    return {
      exitCode: run.signal.aborted ? ExitCode.interrupted : exitCodeFor(outcome.results),
      dryRun: false,
      plan: [],
      results: outcome.results.map(syncedEntry),
      counts: outcomeCounts(plan, outcome.results, outcome.notStarted),
    };
  } finally {
    lock?.release();
  }
}

/** What every step of one run works with, settled before anything is read. */
interface SyncRun {
  options: SyncFolderOptions;
  cwd: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  notice: (text: string) => void;
  dryRun: boolean;
  statePath: string;
  config: ResolvedConfig;
  settings: AdvertSettings;
  checkOptions: { allowUnknownFields: boolean };
  /** What a file's text is hashed with (textHashBasis): the settings and options. */
  textBasis: string;
  /** The service's key in the state (see config/service-key.ts). */
  service: string;
  concurrency: number;
  /** The advert's file relative to the synced folder, with `/` on every system. */
  fileOf: (shown: string) => string;
  /** Reads an advert again as it is sent (or its fields planned). */
  readAdvert: ReadAdvert;
  /** The UTC day number adverts' `jobs:` dates are read against (see sync/today.ts). */
  today: number;
}

/** Step 1, check: the folder and the state path (by name: nothing is opened yet), the settings, the service. */
async function settleRun(options: SyncFolderOptions, hooks: SyncHooks): Promise<SyncRun> {
  const cwd = options.cwd ?? process.cwd();
  const env: Record<string, string | undefined> = { ...(options.env ?? process.env) };
  if (options.token !== undefined) env.JOBS_TOKEN = options.token;
  const notice = (text: string) => options.log?.(text);
  const root = resolve(cwd, options.dir);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`${options.dir}: not a folder; sync takes the folder that holds the adverts`);
  const byDefault = options.state === undefined ? defaultStateOf(options.dir, cwd) : undefined;
  if (byDefault?.moveHint) notice(byDefault.moveHint);
  const statePath = resolve(cwd, options.state ?? byDefault!.path);
  try {
    // Checked by name before the folder is read and before anything opens it: reading a FIFO or a
    // device would block or never end.
    statRegularFile(statePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new UsageError(`cannot read the sync state ${relative(cwd, statePath) || statePath}: ${whyUnreadable(error)}`);
  }
  const config = hooks.config ?? (await resolvedConfig(options, cwd, env, notice));
  const checkOptions = { allowUnknownFields: Boolean(options.allowUnknownFields) };
  const concurrency = options.concurrency ?? config.concurrency.value;
  const today = await todayOf(options, env);
  // The rules by place in force today: an advert that breaks one is invalid, and is not sent.
  const show = (file: string) => displayPath(file, cwd, env);
  const rules = await ruleSettingsFor(config, today, env, show);
  const lowered = loweredNote(config, show, rules);
  if (lowered) notice(`note: ${lowered}`);
  const settings = { defaults: config.defaults, constants: config.constants, rules };
  return {
    options,
    cwd,
    env,
    signal: options.signal ?? new AbortController().signal,
    notice,
    dryRun: Boolean(options.dryRun),
    statePath,
    config,
    settings,
    checkOptions,
    // Not the rules: they decide whether an advert is sent, not its payload, and today changes daily.
    textBasis: textHashBasis({ defaults: config.defaults, constants: config.constants }, checkOptions),
    service: serviceKey(Boolean(options.sandbox), config),
    concurrency,
    fileOf: stateFileNamer(root, cwd),
    readAdvert: advertReader(cwd, config, checkOptions, Math.max(8, concurrency)),
    today,
  };
}

/** What is at hand of the state: its records, or (the shortcut) only that its check line holds. */
type StateAtHand = { records: SyncState } | { shortcut: UnchangedShortcut };

interface CheckedFolder {
  folder: FolderDigests;
  state: StateAtHand;
  /** What the state file was when it was read (stateIdentity): another sync may change it before the lock is taken. */
  seen: string;
}

/**
 * Step 2, check the folder: every advert is checked as it is read (every error before anything is
 * sent); the plan is made from what is kept of it (its digest). The state is read meanwhile, on
 * this thread; when its check line holds, its records are not read at all (unchanged-shortcut.ts).
 * The state may live in the folder under any name (adverts/state.yaml): it is not an advert.
 */
async function checkFolderBesideState(run: SyncRun): Promise<CheckedFolder> {
  const { statePath, options } = run;
  const shortcut = UnchangedShortcut.offeredBy(statePath, run.service, Boolean(options.force));
  let read: { state: StateAtHand; seen: string } | undefined;
  // A state that cannot be read is said after the folder's own errors, as before the check read it.
  let stateError: unknown;
  const readState = () => {
    const seen = stateIdentity(statePath);
    try {
      read = { state: shortcut.holds() ? { shortcut } : { records: SyncState.load(statePath) }, seen };
    } catch (error) {
      stateError = error;
    }
  };
  // Reading a state takes about as long as checking one file per 2 KB of it, on one worker.
  const stateBytes = statSync(statePath, { throwIfNoEntry: false })?.size ?? 0;
  const beside = { run: readState, files: Math.min(65_536, Math.ceil(stateBytes / 2048)) };
  const texts = { basis: run.textBasis, textOnly: shortcut.textOnly };
  const folder = await checkFolder(options.dir, {
    cwd: run.cwd,
    env: run.env,
    settings: run.settings,
    options: run.checkOptions,
    exclude: stateFiles(statePath),
    texts,
    beside,
    signal: run.signal,
  });
  if (stateError !== undefined) throw stateError;
  return { folder, ...read! };
}

/** Step 3, lock and load (the lock is taken by the caller): a state another sync changed meanwhile is read again, in full. */
function loadUnderLock(run: SyncRun, checked: CheckedFolder): StateAtHand {
  return stateIdentity(run.statePath) === checked.seen ? checked.state : { records: SyncState.load(run.statePath) };
}

/** Step 4, plan: all unchanged by the shortcut when the folder sums to the state's sum; otherwise against the state's records. */
async function planChanges(run: SyncRun, folder: FolderDigests, atHand: StateAtHand): Promise<{ plan: Plan; state?: SyncState }> {
  if ('shortcut' in atHand) {
    const plan = atHand.shortcut.plan(folder, run.fileOf);
    if (plan) return withDates(run, folder, { plan });
  }
  const state = 'records' in atHand ? atHand.records : SyncState.load(run.statePath);
  const plan = await planFolder(folder, state.adverts(run.service), {
    prune: Boolean(run.options.prune),
    force: Boolean(run.options.force),
    fileOf: run.fileOf,
    fieldsOf: async (change) => contentHashes((await run.readAdvert(change)).payload).fields,
    hashOf: contentHashReader(run.cwd, run.settings, run.checkOptions, run.textBasis),
    concurrency: Math.max(8, run.concurrency),
  });
  return withDates(run, folder, { plan, state });
}

/**
 * Step 4 continued: adverts outside their `jobs:` dates today are not created, or are deleted
 * (dates-plan.ts). A plan found unchanged by the shortcut read no records: a date's deletion needs them.
 */
function withDates(run: SyncRun, folder: FolderDigests, planned: { plan: Plan; state?: SyncState }): { plan: Plan; state?: SyncState } {
  const plan = applyDates(planned.plan, datesOf(folder.adverts), run.today);
  if (plan === planned.plan) return planned;
  return { plan, state: planned.state ?? (hasChanges(plan) ? SyncState.load(run.statePath) : undefined) };
}

/** Step 5, before sending: the adverts to send whose reference another file published, by the record of published adverts. */
async function ownersOf(run: SyncRun, plan: Plan): Promise<OwnerConflict[]> {
  // Nothing to send (the run after run that changes nothing): the record is not even read.
  if (plan.counts.create + plan.counts.update === 0) return [];
  const { adverts: recorded } = readPublished(run.env, run.service);
  if (recorded.size === 0) return [];
  const sending = plan.changes.filter(
    (c): c is PlannedChange & { source: string } => (c.action === 'create' || c.action === 'update') && c.source !== undefined,
  );
  return ownerConflicts(recorded, sending, run.cwd, async (c) => {
    const title = (c.advert ?? (await run.readAdvert(c))).payload.title;
    return typeof title === 'string' ? title : undefined;
  });
}

/** A dry run's result: what would change (unchanged adverts are only counted). */
function dryRunResult(plan: Plan): SyncFolderResult {
  return {
    exitCode: ExitCode.ok,
    dryRun: true,
    plan: plan.changes.filter((c) => c.action !== 'unchanged').map(plannedEntry),
    results: [],
    counts: { ...plan.counts },
  };
}

/**
 * Steps 5 and 6, execute and record: each success is logged as it comes (execute.ts); at the end,
 * also after an error, the state is written. A state without records at hand (the shortcut) has
 * nothing to send or record.
 */
async function executeAndRecord(
  run: SyncRun,
  hooks: SyncHooks,
  plan: Plan,
  client: JobsClient,
  state: SyncState | undefined,
): Promise<{ outcome: ExecuteOutcome; saveFailure?: unknown }> {
  // A success that could not be recorded would be sent again: refuse before sending anything.
  if (hasChanges(plan)) state!.openLog();
  const { signal } = run;
  const drain = new AbortController();
  const onStop = () => setTimeout(() => drain.abort(), DRAIN_MS).unref();
  signal.addEventListener('abort', onStop, { once: true });
  let outcome: ExecuteOutcome;
  let saveFailure: unknown;
  try {
    await hooks.onSend?.(plan.counts.create + plan.counts.update + plan.counts.delete);
    outcome = state
      ? await executePlan(plan, {
          client,
          state,
          service: run.service,
          concurrency: run.concurrency,
          readAdvert: run.readAdvert,
          failFast: Boolean(run.options.failFast),
          stop: signal,
          abort: drain.signal,
          onResult: (result) => hooks.onResult?.(result),
        })
      : NOTHING_DONE;
  } finally {
    hooks.onSent?.();
    signal.removeEventListener('abort', onStop);
    saveFailure = state && record(run, plan, state);
  }
  return { outcome, ...(saveFailure !== undefined ? { saveFailure } : {}) };
}

/** Writes the state (see SyncState.save); the file system's error is returned, to be said with what the run did. */
function record(run: SyncRun, plan: Plan, state: SyncState): unknown {
  // Unchanged adverts whose file changed (a comment) or whose record has no text hash yet: recorded without a request.
  for (const c of plan.changes) if (c.action === 'unchanged' && c.textHash !== undefined) state.refreshTextHash(run.service, c.reference, c.textHash);
  try {
    state.save();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A planned change as the API and `--json` show it. */
export function plannedEntry(c: PlannedChange): PlannedEntry {
  return {
    action: c.action,
    reference: c.reference,
    file: c.file,
    ...(c.group === undefined ? {} : { group: c.group }),
    ...(c.changed ? { changed: c.changed } : {}),
    ...(c.removed?.length ? { removed: c.removed } : {}),
    ...(c.opens !== undefined ? { opens: c.opens } : {}),
    ...(c.closed !== undefined ? { closed: c.closed } : {}),
  };
}

/** A result as the API and `--json` show it. */
export function syncedEntry(result: ChangeResult): SyncedEntry {
  const { change, error } = result;
  return {
    reference: change.reference,
    file: change.file,
    action: change.action,
    status: result.status,
    ...(error
      ? {
          error: {
            message: error.message,
            exit_code: error.exitCode,
            ...(error instanceof ApiError ? { status: error.status ?? null, errors: error.tree ?? null } : {}),
          },
        }
      : {}),
  };
}

/** The counts of a run: each result status, then unchanged, orphans and what was not started. */
export function outcomeCounts(plan: Plan, results: readonly ChangeResult[], notStarted: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return {
    ...counts,
    unchanged: plan.counts.unchanged,
    orphan: plan.counts.orphan,
    // Adverts outside their jobs: dates, not on the service: counted only when there are any.
    ...(plan.counts.waiting ? { waiting: plan.counts.waiting } : {}),
    ...(plan.counts.closed ? { closed: plan.counts.closed } : {}),
    not_started: notStarted,
  };
}

/** 0 when everything succeeded; 4 when the credentials were refused; 1 for any other failure. */
export function exitCodeFor(results: readonly ChangeResult[]): number {
  const failures = results.filter((r) => r.error);
  if (failures.length === 0) return ExitCode.ok;
  if (failures.some((r) => r.error instanceof ApiError && r.error.kind === 'unauthorized')) return ExitCode.unauthorized;
  const codes = new Set(failures.map((r) => r.error!.exitCode));
  return codes.size === 1 ? [...codes][0]! : ExitCode.rejected;
}

/**
 * What to say when the state could not record the run (disk full, an unwritable file). The run
 * stopped at the first success the log could not take; whatever is still recorded somewhere (the
 * state, or the log the next run folds in) is said, and so is what is not.
 */
export function recordingError(state: SyncState, outcome: ExecuteOutcome, saveFailure: unknown): PartialFailureError {
  const { logPath, path } = state;
  if (saveFailure === undefined) {
    const error = new PartialFailureError(
      `cannot write the sync log ${logPath} (${reasonOf(outcome.recordFailure)}); the run was stopped: everything this run did is recorded in the state ${path}`,
    );
    error.details = ['free some space or make the log writable, then run again to finish'];
    return error;
  }
  if (outcome.recordFailure === undefined) {
    const error = new PartialFailureError(
      `cannot write the sync state ${path} (${reasonOf(saveFailure)}); what this run did is kept in the log ${logPath}, which the next run folds in`,
    );
    error.details = ['free some space or make the folder writable, then run again'];
    return error;
  }
  const error = new PartialFailureError(
    `cannot record this run: neither the sync log ${logPath} (${reasonOf(outcome.recordFailure)}) nor the state ${path} (${reasonOf(saveFailure)}) can be written`,
  );
  error.details = [
    ...outcome.unlogged.map((r) => `${r.status} ${sanitize(r.change.reference)} (${sanitize(r.change.file)}) is not recorded`),
    'what is not recorded is safe to repeat: a rerun adopts adverts that exist (their reference is taken), sends updates again and finds deleted adverts gone',
    'free some space, then run again',
  ];
  return error;
}

/** The UTC day number the adverts' dates are read against: options.today, else today's (the sandbox's clock with --sandbox). */
async function todayOf(options: SyncFolderOptions, env: Record<string, string | undefined>): Promise<number> {
  if (options.today === undefined) return todayFor({ sandbox: Boolean(options.sandbox), env, warn: (text) => options.log?.(`warning: ${text}`) });
  const day = dayOf(options.today);
  if (day === undefined) throw new UsageError(`today: ${JSON.stringify(options.today)} is not a date; write it as YYYY-MM-DD`);
  return day;
}

/** The settings as the CLI resolves them (flags > env > project config > user config), for a caller without them. */
async function resolvedConfig(
  options: SyncFolderOptions,
  cwd: string,
  env: Record<string, string | undefined>,
  notice: (text: string) => void,
): Promise<ResolvedConfig> {
  const { resolveConfig } = await import('../config/resolve.js');
  const config = await resolveConfig({ cwd, env, globals: globalsFor(options) });
  for (const warning of config.warnings) notice(`warning: ${warning}`);
  return config;
}

const globalsFor = (options: SyncFolderOptions) => ({
  output: 'json' as const,
  quiet: true,
  verbose: false,
  color: false,
  input: false,
  sandbox: Boolean(options.sandbox),
  ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : options.client ? { baseUrl: options.client.baseUrl } : {}),
});

/** The client a caller without one gets: the one the CLI would build for these settings, never prompting. */
async function clientFor(options: SyncFolderOptions, config: ResolvedConfig, env: Record<string, string | undefined>): Promise<JobsClient> {
  if (options.client) return options.client;
  if (options.sandbox) {
    // Loaded only for the sandbox: the emulator is not part of a normal run.
    const [{ startEmbeddedSandbox }, { JobsClient: Client }] = await Promise.all([import('../sandbox/embedded.js'), import('../api/client.js')]);
    const sandbox = await startEmbeddedSandbox({ env });
    return new Client({ timeoutMs: config.timeoutMs.value, retries: config.retries.value, baseUrl: sandbox.baseUrl, token: sandbox.token });
  }
  const { clientFromConfig } = await import('../api/from-config.js');
  return clientFromConfig(config);
}
