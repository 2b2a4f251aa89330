/**
 * `jobs events <file>`: read every entry, validate the whole file (nothing is sent when anything is
 * wrong), then read it again, skipping what the journal says is done and posting the rest with
 * bounded concurrency, journaling each outcome as it arrives. Two passes rather than one held in
 * memory: a run of a million events holds what is in flight, the journal's statuses and the keys.
 */
import { resolve } from 'node:path';
import type { JobsClient } from '../api/client.js';
import type { Context } from '../context.js';
import { ConfigError, ExitCode, JobsError, PartialFailureError, UsageError } from '../errors/failures.js';
import { whyUnreadable } from '../util/quick-fs.js';
import { invalidInput } from '../output/findings-report.js';
import { batchedStream } from '../output/batched-stream.js';
import { sanitize } from '../util/sanitize.js';
import { plural } from '../util/plural.js';
import { sortFindings, type Finding } from '../errors/findings.js';
import { checkEntry } from './entry.js';
import { fileProblem } from './findings.js';
import { readEventsInput, type EventsInput } from './input.js';
import { JournalWriter, readJournal, type JournalState, type JournalStatus } from './journal.js';
import { serviceKey } from '../sync/service-key.js';
import { acquireLock } from '../sync/lock.js';
import { EntryKeys } from './key.js';
import { asJobsError, classifyFailure, isUnauthorized } from './outcome.js';
import { emptyCounts, exitCodeOf, requestOf, resultCode, writeResult, writeSummary, type EntryResult } from '../output/events-report.js';
import { readItems } from './source.js';
import type { EventEntry, EventFormat } from './types.js';

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
  const total = await validate(ctx, input);

  const journal = journalLocation(ctx, input, flags);
  if (!journal && !flags.dryRun) {
    throw new UsageError('events read from stdin need a journal: pass --journal <file>', {
      details: ['the journal records which events were accepted, so that running the command again does not post them twice'],
    });
  }
  // One run per journal at a time: two runs reading the same journal would post the same events.
  const lock = journal && !flags.dryRun ? acquireLock(journal.path, { unlock: flags.unlock, notice: (t) => ctx.io.stderr.write(`${ctx.name}: ${t}\n`), what: 'events run', file: 'journal' }) : undefined;
  // One write per turn of the event loop rather than per result line; written out before returning.
  const stdout = batchedStream(ctx.io.stdout);
  try {
    return await runWithJournal({ ...ctx, io: { ...ctx.io, stdout } }, input, total, journal, flags);
  } finally {
    stdout.flush();
    lock?.release();
  }
}

async function runWithJournal(ctx: Context, input: EventsInput, total: number, journal: { path: string; display: string } | undefined, flags: EventsFlags): Promise<number> {
  // Journal lines count for the service they were posted to; a dry run without a service URL sees all.
  const service = journal ? await serviceOf(ctx, Boolean(flags.dryRun)) : undefined;
  const state: JournalState | undefined = journal ? readJournal(journal.path, journal.display, service) : undefined;

  // Only counts are kept: a result is written as it is known and then let go.
  const counts = emptyCounts();
  const codes = new Set<number>();
  const settle = (r: EntryResult) => {
    counts[r.status]++;
    const code = resultCode(r);
    if (code !== undefined) codes.add(code);
    writeResult(ctx, r, flags.dryRun);
  };
  const summary = { file: input.display, journal: journal?.display, dryRun: Boolean(flags.dryRun), total, interrupted: false };

  /** The entries to post, in file order; those the journal (or the dry run) settles are written on the way. */
  async function* toPost(): AsyncGenerator<EntryResult> {
    const keys = new EntryKeys();
    for await (const entry of validatedAgain(input, total)) {
      const key = keys.next(entry);
      const previous = state?.statuses.get(key);
      const planned: EntryResult = { entry, key, status: 'would_post', ...(previous ? { previous } : {}) };
      if (previous === 'accepted') settle({ ...planned, status: 'skipped' });
      // A post that began and was never answered (sending) is as uncertain as a lost answer.
      else if ((previous === 'uncertain' || previous === 'sending') && !flags.retryUncertain) settle({ ...planned, status: 'held', previous: 'uncertain' });
      else yield planned;
    }
  }

  if (flags.dryRun) {
    for await (const planned of toPost()) settle(planned);
    writeSummary(ctx, { ...summary, counts, notStarted: 0 });
    return ExitCode.ok;
  }

  // Settings and credentials are checked before the journal is touched.
  const config = await ctx.config();
  const client = await ctx.client();
  const writer = JournalWriter.open(journal!.path, journal!.display, state!);
  const unrecorded: EntryResult[] = [];
  let journalFailure: unknown;
  let readFailure: unknown;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  // Ctrl-C stops new posts; those in flight are not aborted, so their outcome is known and journaled.
  const going = () => !stopped && !ctx.signal.aborted;

  const line = (planned: EntryResult, status: JournalStatus) => ({
    v: 1 as const,
    key: planned.key,
    application_id: planned.entry.application_id,
    kind: planned.entry.kind,
    status,
    service,
    at: new Date().toISOString(),
  });

  const entries = toPost();
  /** An entry whose `sending` line is queued; `durable` settles when that line's flush ends. */
  interface Journaled {
    planned: EntryResult;
    durable: Promise<void>;
  }

  /** The next entry to post, its `sending` line queued; undefined at the end or once the run stops. */
  const journalNext = async (): Promise<Journaled | undefined> => {
    let next: IteratorResult<EntryResult>;
    try {
      next = await entries.next();
    } catch (error) {
      readFailure ??= error;
      stop();
      return undefined;
    }
    // An entry read after the run was stopped is not started.
    if (next.done || !going()) return undefined;
    const durable = writer.append(line(next.value, 'sending'));
    // Rejections are handled where the line is awaited; this keeps an unawaited one quiet.
    durable.catch(() => undefined);
    return { planned: next.value, durable };
  };

  /** A `sending` line was written for an entry that then was not posted: a rerun posts it. */
  const notSent = (journaled: Journaled) => {
    writer.append(line(journaled.planned, 'failed')).catch(() => undefined);
  };

  const postOne = async (planned: EntryResult) => {
    // Once its `sending` line is on disk the post goes out, even after Ctrl-C: that line says it began.
    const result = await post(client, planned);
    // Nothing else can succeed with credentials the service refuses.
    if (result.error && isUnauthorized(result.error)) stop();
    // The outcome line is not waited for: it joins the flush of the next posts' `sending` lines
    // (or the last flush, on close). A crash that loses it leaves the `sending` line, so a rerun
    // holds the event as uncertain: never posted twice, only less sure.
    const outcome = writer.append(line(planned, result.status === 'posted' ? 'accepted' : result.status === 'uncertain' ? 'uncertain' : 'failed'));
    // Settled before `close` returns: the writer rejects a batch before it ends its flush.
    outcome.catch((error: unknown) => {
      // The `sending` line stands: a rerun holds this event as uncertain instead of repeating it.
      journalFailure ??= error;
      if (result.status === 'posted' || result.status === 'uncertain') unrecorded.push(result);
      stop();
    });
    settle(result);
  };

  /**
   * The `sending` lines of one batch ahead are flushed while the current batch is in flight: the
   * disk's flush overlaps the network instead of coming between two posts (a flush takes as long
   * as a post). A post still starts only once its own `sending` line is on disk. At most
   * `concurrency` entries are journaled ahead; those the run stops before posting get a `failed`
   * line (not sent), so a rerun posts them. A kill leaves them `sending`: held as uncertain.
   */
  const concurrency = flags.concurrency ?? config.concurrency.value;
  const ahead: Promise<Journaled | undefined>[] = [];
  const topUp = () => {
    while (going() && ahead.length < concurrency) ahead.push(journalNext());
  };
  const lane = async () => {
    while (going()) {
      const next = ahead.shift() ?? journalNext();
      topUp();
      const current = await next;
      if (!current) return;
      try {
        // Waits for the flush that carries this line: nothing is sent that the journal cannot record.
        await current.durable;
      } catch (error) {
        journalFailure ??= error;
        stop();
        return;
      }
      if (!going()) return notSent(current);
      await postOne(current.planned);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
    // Entries journaled ahead and never posted (the run stopped, or the file ended first).
    for (const next of ahead.splice(0)) {
      const journaled = await next;
      if (journaled) notSent(journaled);
    }
  } finally {
    await writer.close();
  }
  const interrupted = ctx.signal.aborted;
  const settled = Object.values(counts).reduce((a, b) => a + b, 0);
  writeSummary(ctx, { ...summary, interrupted, counts, notStarted: total - settled });
  if (journalFailure !== undefined) throw journalError(journal!.display, journalFailure, unrecorded);
  if (readFailure !== undefined) throw readFailure;
  if (interrupted) return ExitCode.interrupted;
  return exitCodeOf(codes);
}

/**
 * First pass: reads and checks every entry; any problem is reported with its line and nothing is
 * sent (exit 3). Only the findings are kept; returns the number of entries.
 */
async function validate(ctx: Context, input: EventsInput): Promise<number> {
  const found: Finding[] = [];
  let count = 0;
  for await (const item of readItems(input)) {
    for (const p of item.problems) found.push(p);
    if (!item.entry) continue;
    const checked = checkEntry(input.display, item.entry, count);
    if (checked.entry) count++;
    for (const f of checked.findings) found.push(f);
  }
  const findings = sortFindings(found);
  if (findings.length === 0 && count === 0) {
    findings.push(fileProblem(input.display, { line: 1, column: 1 }, 'empty', 'the file holds no events'));
  }
  if (findings.length === 0) return count;
  const invalid = new Set(findings.map((f) => f.line)).size;
  throw invalidInput(ctx, findings, `${plural(findings.length, 'error')} in ${sanitize(input.display)} (on ${plural(invalid, 'line')}); nothing was sent`);
}

/**
 * Second pass: the entries again, read afresh. A file that no longer reads as it did in the first
 * pass (edited during the run) stops the run: what was posted is journaled, so a rerun goes on.
 */
async function* validatedAgain(input: EventsInput, total: number): AsyncGenerator<EventEntry> {
  let index = 0;
  const changed = (why: string) =>
    new PartialFailureError(`${sanitize(input.display)} changed while its events were being sent (${why}); the run was stopped`, ExitCode.invalidInput);
  try {
    for await (const item of readItems(input)) {
      if (item.problems.length > 0) throw changed(`line ${item.problems[0]!.line} is no longer valid`);
      if (!item.entry) continue;
      const checked = checkEntry(input.display, item.entry, index);
      if (!checked.entry) throw changed(`line ${item.entry.position.line} is no longer valid`);
      if (++index > total) break;
      yield checked.entry;
    }
  } catch (error) {
    if (error instanceof PartialFailureError) throw error;
    // A UsageError says why it cannot be read (gone, no permission); other reading errors say what changed.
    throw changed(error instanceof UsageError ? error.message : error instanceof JobsError ? 'it no longer reads as it did' : whyUnreadable(error));
  }
  if (index !== total) throw changed(`it holds ${plural(index, 'event')} now, ${total} before`);
}

function journalLocation(ctx: Context, input: EventsInput, flags: EventsFlags): { path: string; display: string } | undefined {
  if (flags.journal !== undefined) return { path: resolve(ctx.cwd, flags.journal), display: flags.journal };
  if (input.path === undefined) return undefined;
  return { path: `${input.path}.journal`, display: `${input.display}.journal` };
}

async function post(client: JobsClient, planned: EntryResult): Promise<EntryResult> {
  const { entry } = planned;
  try {
    await client.postEvent(entry.application_id, requestOf(entry).body);
    return { ...planned, status: 'posted' };
  } catch (error) {
    return { ...planned, status: classifyFailure(error), error: asJobsError(error) };
  }
}

function journalError(display: string, cause: unknown, unrecorded: readonly EntryResult[]): PartialFailureError {
  const code = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
  const error = new PartialFailureError(`cannot write the journal ${sanitize(display)} (${code}); the run was stopped`);
  error.details = [
    ...unrecorded.map((r) => `${r.entry.kind} ${sanitize(r.entry.application_id)} (${sanitize(r.entry.file)}:${r.entry.position.line}) was sent (${r.status}) but is not in the journal: a rerun would post it again`),
    'fix the journal file (space, permissions), then remove those entries from the events file or rerun knowing they will be posted again',
  ];
  return error;
}

async function serviceOf(ctx: Context, dryRun: boolean): Promise<string | undefined> {
  try {
    return serviceKey(ctx.globals.sandbox, await ctx.config());
  } catch (error) {
    if (dryRun && error instanceof ConfigError) return undefined;
    throw error;
  }
}
