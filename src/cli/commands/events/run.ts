/**
 * `jobs events <file>`, the run: read the input, check every entry (nothing is sent when anything
 * is wrong: the findings, exit 3), take the journal's lock, post through the core
 * (events/post-events.ts) while each result is written as it is known, then the summary.
 */
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { CancelledError, ConfigError, ExitCode, UsageError } from '../../../core/errors/failures.js';
import { invalidInput } from '../../output/findings-report.js';
import { batchedStream } from '../../output/batched-stream.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { plural } from '../../../core/util/plural.js';
import { readEventsInput, type EventsInput } from '../../../core/events/input.js';
import { checkEventsFile, postEvents } from '../../../core/events/post-events.js';
import { readJournal } from '../../../core/events/journal.js';
import { serviceKey } from '../../../core/config/service-key.js';
import { acquireLock } from '../../../core/storage/lock.js';
import { exitCodeOf, failureClass, writeResult, writeSummary } from './report.js';
import type { EventFormat } from '../../../core/events/types.js';

export interface EventsFlags {
  format?: EventFormat;
  journal?: string;
  retryUncertain?: boolean;
  dryRun?: boolean;
  concurrency?: number;
  unlock?: boolean;
}

export async function runEvents(ctx: Context, fileArg: string, flags: EventsFlags): Promise<number> {
  const input = await readEventsInput(ctx, fileArg, flags.format);
  const { total, findings } = await checkEventsFile(input, ctx.signal);
  if (findings.length > 0) {
    const invalid = new Set(findings.map((f) => f.line)).size;
    throw invalidInput(ctx, findings, `${plural(findings.length, 'error')} in ${sanitize(input.display)} (on ${plural(invalid, 'line')}); nothing was sent`);
  }

  const journal = journalLocation(ctx, input, flags);
  if (!journal && !flags.dryRun) {
    throw new UsageError('events read from stdin need a journal: pass --journal <file>', {
      details: ['the journal records which events were accepted, so that running the command again does not post them twice'],
    });
  }
  if (ctx.signal.aborted) throw new CancelledError('interrupted before the first post; nothing was sent');
  // One run per journal at a time: two runs reading the same journal would post the same events.
  const lock =
    journal && !flags.dryRun
      ? acquireLock(journal.path, { unlock: flags.unlock, notice: (t) => ctx.io.stderr.write(`${ctx.name}: ${t}\n`), what: 'events run', file: 'journal' })
      : undefined;
  // One write per turn of the event loop rather than per result line; written out before returning.
  const stdout = batchedStream(ctx.io.stdout);
  try {
    return await post({ ...ctx, io: { ...ctx.io, stdout } }, input, total, journal, flags);
  } finally {
    stdout.flush();
    lock?.release();
  }
}

async function post(
  ctx: Context,
  input: EventsInput,
  total: number,
  journal: { path: string; display: string } | undefined,
  flags: EventsFlags,
): Promise<number> {
  // Journal lines count for the service they were posted to; a dry run without a service URL sees all.
  const service = journal ? await serviceOf(ctx, Boolean(flags.dryRun)) : undefined;
  const journalState = journal ? readJournal(journal.path, journal.display, service) : undefined;
  // Settings and credentials are checked before the journal is written to.
  const config = flags.dryRun ? undefined : await ctx.config();
  const client = flags.dryRun ? undefined : await ctx.client();
  const failures = { transient: 0, not_found: 0, rejected: 0, unauthorized: 0 };
  const outcome = await postEvents({
    input,
    total,
    ...(journal ? { journal } : {}),
    ...(service !== undefined ? { service } : {}),
    ...(journalState ? { journalState } : {}),
    ...(client ? { client } : {}),
    concurrency: flags.concurrency ?? config?.concurrency.value ?? 1,
    retryUncertain: Boolean(flags.retryUncertain),
    dryRun: Boolean(flags.dryRun),
    signal: ctx.signal,
    onResult: (r) => {
      if (r.status === 'failed') failures[failureClass(r.error)]++;
      writeResult(ctx, r, flags.dryRun);
    },
  });
  const { counts, notStarted, interrupted } = outcome;
  writeSummary(ctx, { file: input.display, journal: journal?.display, dryRun: Boolean(flags.dryRun), total, counts, notStarted, interrupted, failures });
  if (outcome.failure !== undefined) throw outcome.failure;
  if (interrupted) return ExitCode.interrupted;
  if (flags.dryRun) return ExitCode.ok;
  return exitCodeOf(outcome.codes);
}

function journalLocation(ctx: Context, input: EventsInput, flags: EventsFlags): { path: string; display: string } | undefined {
  if (flags.journal !== undefined) return { path: resolve(ctx.cwd, flags.journal), display: flags.journal };
  if (input.path === undefined) return undefined;
  return { path: `${input.path}.journal`, display: `${input.display}.journal` };
}

async function serviceOf(ctx: Context, dryRun: boolean): Promise<string | undefined> {
  try {
    return serviceKey(ctx.globals.sandbox, await ctx.config());
  } catch (error) {
    if (dryRun && error instanceof ConfigError) return undefined;
    throw error;
  }
}
