/**
 * `jobs events <file>`: read every entry, validate the whole file (nothing is sent when anything is
 * wrong), skip what the journal says is done, post the rest with bounded concurrency, and journal
 * each outcome as it arrives.
 */
import { resolve } from 'node:path';
import type { JobsClient } from '../api/client.js';
import type { Context } from '../context.js';
import { ConfigError, ExitCode, PartialFailureError, UsageError } from '../errors/failures.js';
import { invalidInput, sortFindings } from '../output/findings-report.js';
import { sanitize } from '../output/sanitize.js';
import { plural } from '../output/summary.js';
import { runPool } from '../util/pool.js';
import { readCsv } from './csv.js';
import { checkEntries } from './entry.js';
import { fileProblem } from './findings.js';
import { readEventsInput, type EventsInput } from './input.js';
import { JournalWriter, readJournal, type JournalState, type JournalStatus } from './journal.js';
import { serviceKey } from '../sync/service-key.js';
import { acquireLock } from '../sync/lock.js';
import { entryKeys } from './key.js';
import { readNdjson } from './ndjson.js';
import { asJobsError, classifyFailure, isUnauthorized } from './outcome.js';
import { emptyCounts, exitCodeFor, requestOf, writeResult, writeSummary, type EntryResult } from './report.js';
import type { EventEntry, EventFormat, ReadResult } from './types.js';
import { readYaml } from './yaml.js';

export interface EventsFlags {
  format?: EventFormat;
  journal?: string;
  retryUncertain?: boolean;
  dryRun?: boolean;
  concurrency?: number;
  unlock?: boolean;
}

const READERS: Record<EventFormat, (file: string, text: string) => ReadResult> = { ndjson: readNdjson, csv: readCsv, yaml: readYaml };

export async function runEvents(ctx: Context, fileArg: string, flags: EventsFlags): Promise<number> {
  const input = await readEventsInput(ctx, fileArg, flags.format);
  const entries = validEntries(ctx, input);
  const keys = entryKeys(entries);

  const journal = journalLocation(ctx, input, flags);
  if (!journal && !flags.dryRun) {
    throw new UsageError('events read from stdin need a journal: pass --journal <file>', {
      details: ['the journal records which events were accepted, so that running the command again does not post them twice'],
    });
  }
  // One run per journal at a time: two runs reading the same journal would post the same events.
  const lock = journal && !flags.dryRun ? acquireLock(journal.path, { unlock: flags.unlock, notice: (t) => ctx.io.stderr.write(`${ctx.name}: ${t}\n`), what: 'events run', file: 'journal' }) : undefined;
  try {
    return await runWithJournal(ctx, input, entries, keys, journal, flags);
  } finally {
    lock?.release();
  }
}

async function runWithJournal(ctx: Context, input: EventsInput, entries: EventEntry[], keys: string[], journal: { path: string; display: string } | undefined, flags: EventsFlags): Promise<number> {
  // Journal lines count for the service they were posted to; a dry run without a service URL sees all.
  const service = journal ? await serviceOf(ctx, Boolean(flags.dryRun)) : undefined;
  const state: JournalState | undefined = journal ? readJournal(journal.path, journal.display, service) : undefined;

  const results: EntryResult[] = [];
  const toPost: EntryResult[] = [];
  for (const [i, entry] of entries.entries()) {
    const key = keys[i]!;
    const previous = state?.statuses.get(key);
    // The status is settled below: by the journal, by the dry run, or by the post itself.
    const planned: EntryResult = { entry, key, status: 'would_post', ...(previous ? { previous } : {}) };
    if (previous === 'accepted') results.push({ ...planned, status: 'skipped' });
    // A post that began and was never answered (sending) is as uncertain as a lost answer.
    else if ((previous === 'uncertain' || previous === 'sending') && !flags.retryUncertain) results.push({ ...planned, status: 'held', previous: 'uncertain' });
    else toPost.push(planned);
  }
  for (const r of results) writeResult(ctx, r, flags.dryRun);
  const summary = { file: input.display, journal: journal?.display, dryRun: Boolean(flags.dryRun), total: entries.length, interrupted: false };

  if (flags.dryRun) {
    for (const r of toPost) writeResult(ctx, r, true);
    for (const r of toPost) results.push(r);
    writeSummary(ctx, { ...summary, counts: countsOf(results), notStarted: 0 });
    return ExitCode.ok;
  }

  // Settings and credentials are checked before the journal is touched.
  const config = await ctx.config();
  const client = await ctx.client();
  const writer = JournalWriter.open(journal!.path, journal!.display, state!);
  const unrecorded: EntryResult[] = [];
  let journalFailure: unknown;
  let posted: (EntryResult | undefined)[];
  try {
    posted = await runPool(
      toPost,
      flags.concurrency ?? config.concurrency.value,
      async (planned, _i, stop) => {
        const line = (status: JournalStatus) => ({
          v: 1 as const,
          key: planned.key,
          application_id: planned.entry.application_id,
          kind: planned.entry.kind,
          status,
          service,
          at: new Date().toISOString(),
        });
        try {
          // Waits for the flush that carries this line: nothing is sent that the journal cannot record.
          await writer.append(line('sending'));
        } catch (error) {
          journalFailure ??= error;
          stop();
          return undefined;
        }
        // Once its `sending` line is on disk the post goes out, even after Ctrl-C: that line says it began.
        const result = await post(client, planned);
        // Nothing else can succeed with credentials the service refuses.
        if (result.error && isUnauthorized(result.error)) stop();
        // The outcome line is not waited for: it joins the flush of the next posts' `sending` lines
        // (or the last flush, on close). A crash that loses it leaves the `sending` line, so a rerun
        // holds the event as uncertain: never posted twice, only less sure.
        const outcome = writer.append(line(result.status === 'posted' ? 'accepted' : result.status === 'uncertain' ? 'uncertain' : 'failed'));
        // Settled before `close` returns: the writer rejects a batch before it ends its flush.
        outcome.catch((error: unknown) => {
          // The `sending` line stands: a rerun holds this event as uncertain instead of repeating it.
          journalFailure ??= error;
          if (result.status === 'posted' || result.status === 'uncertain') unrecorded.push(result);
          stop();
        });
        writeResult(ctx, result);
        return result;
      },
      // Ctrl-C stops new posts; those in flight are not aborted, so their outcome is known and journaled.
      ctx.signal,
    );
  } finally {
    await writer.close();
  }
  const done = posted.filter((r): r is EntryResult => r !== undefined);
  // One by one: push(...done) passes each result as an argument and overflows the stack on large files.
  for (const r of done) results.push(r);
  const interrupted = ctx.signal.aborted;
  writeSummary(ctx, { ...summary, interrupted, counts: countsOf(results), notStarted: toPost.length - done.length });
  if (journalFailure !== undefined) throw journalError(journal!.display, journalFailure, unrecorded);
  if (interrupted) return ExitCode.interrupted;
  return exitCodeFor(results);
}

/** Reads and checks every entry; any problem is reported with its line and nothing is sent (exit 3). */
function validEntries(ctx: Context, input: EventsInput): EventEntry[] {
  const read = READERS[input.format](input.display, input.text);
  const checked = checkEntries(input.display, read.entries);
  const findings = sortFindings([...read.problems, ...checked.findings]);
  if (findings.length === 0 && checked.entries.length === 0) {
    findings.push(fileProblem(input.display, { line: 1, column: 1 }, 'empty', 'the file holds no events'));
  }
  if (findings.length === 0) return checked.entries;
  const invalid = new Set(findings.map((f) => f.line)).size;
  throw invalidInput(ctx, findings, `${plural(findings.length, 'error')} in ${sanitize(input.display)} (on ${plural(invalid, 'line')}); nothing was sent`);
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

function countsOf(results: readonly EntryResult[]) {
  const counts = emptyCounts();
  for (const r of results) counts[r.status]++;
  return counts;
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
    return serviceKey(ctx, await ctx.config());
  } catch (error) {
    if (dryRun && error instanceof ConfigError) return undefined;
    throw error;
  }
}
