/** stats: read the counters of adverts, compare them with the local history and record a snapshot. */
import type { Context } from '../../context.js';
import * as errors from '../../../core/errors/failures.js';
import { UsageError } from '../../../core/errors/failures.js';
import { renderStats } from './report.js';
import { runPool } from '../../../core/util/pool.js';
import { resolve } from 'node:path';
import { History, defaultHistoryDir } from '../../../core/history/store.js';
import { serviceKey } from '../../../core/config/service-key.js';
import { existsSync } from 'node:fs';
import { defaultStateOf, DEFAULT_STATE_FILE, SyncState } from '../../../core/sync/state.js';
import { liveReferences, readPublished } from '../../../core/published/record.js';
import { closingDates } from '../../../core/published/closing.js';
import { todayFor } from '../../../core/sync/today.js';
import { displayPath } from '../../../core/config/paths.js';
import { parseHistoryFlags } from '../../../core/history/flags.js';
import { refuseUnusableReferences } from '../../../core/adverts/reference.js';
import { statsView } from './view.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { writeApplicationHints } from '../../output/sandbox-hints.js';
import { jsonText } from '../../output/json-output.js';
import { isJson } from '../../output/command-io.js';
import { placesByGroup } from '../../../core/adverts/locations.js';

export interface StatsFlags {
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
  if (flags.all && references.length > 0) throw new errors.UsageError('give references or --all, not both');
  if (!flags.all && references.length === 0)
    throw new errors.UsageError('which adverts? give their references, or --all for every advert published to this service');
  const options = parseHistoryFlags(flags);
  // Given on the command line, each is refused or put in NFC before anything is asked.
  if (!flags.all && references.some((r) => r.trim() === '')) throw new errors.UsageError('a reference must not be empty');
  const all = flags.all ? await referencesOfAll(ctx, flags.state) : undefined;
  const groups = all ? new Map<string, string[]>() : await groupsAsked(ctx, refuseUnusableReferences(references), flags.state);
  // A group's reference stands for its places.
  const unique = all ? all.references : [...new Set(refuseUnusableReferences(references).flatMap((r) => groups.get(r) ?? [r]))];
  if (unique.length === 0) {
    ctx.io.stderr.write(
      flags.state === undefined
        ? `no advert to read: ${ctx.name} has published none to this service yet (publish, create or sync records them), and there is no ${DEFAULT_STATE_FILE} here; give references, or --state <dir>/${DEFAULT_STATE_FILE}\n`
        : `${all!.source} records no advert for this service\n`,
    );
    if (isJson(ctx)) ctx.io.stdout.write(jsonText({ stats: [] }));
    return 0;
  }
  if (unique.some((r) => r.trim() === '')) throw new errors.UsageError('a reference must not be empty');
  const done = await readStats(ctx, unique);
  const history = await historyOf(ctx, flags.historyDir);
  const view = statsView(history, done, options, (line) => ctx.io.stderr.write(`${ctx.name}: warning: ${sanitize(line)}\n`));
  view.closing = closingOf(
    ctx,
    view.insights.map((i) => i.reference),
    await todayFor({ sandbox: ctx.globals.sandbox, env: ctx.env, warn: (text) => ctx.io.stderr.write(`${ctx.name}: warning: ${text}\n`) }),
    await ctx.config(),
  );
  renderStats(ctx, done, { ...view, ...(groups.size > 0 ? { groups } : {}) });
  if (ctx.globals.sandbox && ctx.globals.output === 'human' && !ctx.globals.quiet) {
    // The embedded sandbox is the only place a new user can get application ids to try `event` with.
    writeApplicationHints(
      ctx,
      done.flatMap((r) => ('stats' in r ? [r.reference] : [])),
    );
  }
  if (all && ctx.globals.output === 'human') {
    // Deleted some other way (the service's own pages, another tool): say how to leave --all.
    const gone = done.flatMap((r) => ('error' in r && r.error instanceof errors.ApiError && r.error.kind === 'not_found' ? [sanitize(r.reference)] : []));
    if (gone.length > 0)
      ctx.io.stderr.write(
        `${gone.length === 1 ? 'this advert is' : 'these adverts are'} not on the service any more; ${ctx.name} delete ${gone.join(' ')} --yes takes ${gone.length === 1 ? 'it' : 'them'} out of --all\n`,
      );
  }
  if (ctx.signal.aborted) return errors.ExitCode.interrupted;
  const codes = new Set(done.flatMap((r) => ('error' in r && r.error ? [r.error.exitCode] : [])));
  return codes.size === 0 ? 0 : codes.size === 1 ? [...codes][0]! : errors.ExitCode.rejected;
}

/** Each advert's statistics, read a few at a time (config concurrency); a failure is kept with its reference. */
export async function readStats(ctx: Context, references: readonly string[]) {
  const client = await ctx.client();
  const config = await ctx.config();
  const results = await runPool(
    references,
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
  return results.filter((r) => r !== undefined);
}

/** Days left of the adverts with a `jobs.closes` date, from the record of published adverts; today by the sandbox's clock with --sandbox. */
function closingOf(ctx: Context, references: readonly string[], today: number, config: Awaited<ReturnType<Context['config']>>) {
  const record = readPublished(ctx.env, serviceKey(ctx.globals.sandbox, config));
  return closingDates(record.adverts, references, today);
}

/**
 * The groups among the references asked (the file's reference of an advert for several places), with
 * their places: from the sync state (--state, or ./.jobs-state, or ./.jobs-state.json of before) and the record of what this tool
 * published. A reference recorded as an advert of its own is that advert, not a group.
 */
async function groupsAsked(ctx: Context, references: readonly string[], stateFlag: string | undefined): Promise<Map<string, string[]>> {
  const path = resolve(ctx.cwd, stateFlag ?? defaultStateOf('.', ctx.cwd).path);
  if (stateFlag !== undefined && !existsSync(path))
    throw new UsageError(`no sync state at ${path}: --state names the state file that ${ctx.name} sync writes (<dir>/${DEFAULT_STATE_FILE} by default)`);
  const service = serviceKey(ctx.globals.sandbox, await ctx.config());
  const published = [...readPublished(ctx.env, service).adverts].filter(([, a]) => a.deleted_at === undefined);
  const records = [...(existsSync(path) ? SyncState.load(path).adverts(service) : new Map())].concat(stateFlag === undefined ? published : []);
  const own = new Set(records.map(([reference]) => reference));
  const all = placesByGroup(records);
  return new Map(references.flatMap((r) => (!own.has(r) && all.has(r) ? [[r, [...new Set(all.get(r))]] as [string, string[]]] : [])));
}

async function historyOf(ctx: Context, dirFlag: string | undefined) {
  const dir = dirFlag === undefined ? defaultHistoryDir(ctx.env) : resolve(ctx.cwd, dirFlag);
  return new History(dir, serviceKey(ctx.globals.sandbox, await ctx.config()));
}

/**
 * The adverts of `--all`: with --state, that sync state's; otherwise every live advert this tool
 * published to the service (publish, create, sync), plus those of a sync state in the current
 * folder (one written before the record existed).
 */
async function referencesOfAll(ctx: Context, stateFlag: string | undefined): Promise<{ references: string[]; source: string }> {
  const service = serviceKey(ctx.globals.sandbox, await ctx.config());
  const fromState = (path: string) => [...SyncState.load(path).adverts(service).keys()];
  if (stateFlag !== undefined) {
    const path = resolve(ctx.cwd, stateFlag);
    if (!existsSync(path))
      throw new UsageError(`no sync state at ${path}: --state names the state file that ${ctx.name} sync writes (<dir>/${DEFAULT_STATE_FILE} by default)`);
    return { references: fromState(path).sort(), source: `the sync state ${displayPath(path, ctx.cwd, ctx.env)}` };
  }
  const record = readPublished(ctx.env, service);
  if (record.damaged)
    ctx.io.stderr.write(
      `${ctx.name}: warning: the record of published adverts ${displayPath(record.file, ctx.cwd, ctx.env)} could not be read (${record.damaged}); it is written again at the next publish\n`,
    );
  const references = new Set(liveReferences(record.adverts));
  const local = resolve(ctx.cwd, defaultStateOf('.', ctx.cwd).path);
  if (existsSync(local)) {
    // A deletion recorded since the state was written wins.
    for (const reference of fromState(local)) if (record.adverts.get(reference)?.deleted_at === undefined) references.add(reference);
  }
  return { references: [...references].sort(), source: `what ${ctx.name} published to ${service}` };
}
