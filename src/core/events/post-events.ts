/**
 * The two passes of an events run, without a terminal. First pass: read and check every entry
 * (`checkEventsFile`: the findings, nothing sent). Second pass (`postEvents`): read the file again,
 * skip what the journal says is done and post the rest with bounded concurrency, journaling each
 * outcome as it arrives. Two passes rather than one held in memory: a run of a million events
 * holds what is in flight, the journal's statuses and the keys. Each result goes to `onResult` as
 * it is known and is then let go.
 */
import type { JobsClient } from '../api/client.js';
import { CancelledError, ExitCode, JobsError, PartialFailureError, UsageError } from '../errors/failures.js';
import { sortFindings, type Finding } from '../errors/findings.js';
import { whyUnreadable } from '../util/quick-fs.js';
import { sanitize } from '../util/sanitize.js';
import { plural } from '../util/plural.js';
import { checkEntry } from './entry.js';
import { fileProblem } from './findings.js';
import type { EventsInput } from './input.js';
import { reasonInWords } from '../storage/errors.js';
import { JournalWriter, readJournal, type JournalState, type JournalStatus } from './journal.js';
import { EntryKeys } from './key.js';
import { asJobsError, classifyFailure, isUnauthorized } from './outcome.js';
import { emptyCounts, requestOf, resultCode, type EntryResult, type EntryStatus } from './outcomes.js';
import { readItems } from './source.js';
import type { EventEntry } from './types.js';
import { nextTurn } from '../util/next-turn.js';

/** Items between two turns of the event loop, where a Ctrl-C's handler runs: input read whole is iterated without one. */
const ITEMS_BETWEEN_YIELDS = 4096;

/** Lets the event loop turn every ITEMS_BETWEEN_YIELDS calls; true once `signal` is aborted. */
async function stopAsked(signal: AbortSignal | undefined, items: number): Promise<boolean> {
  if (!signal || items % ITEMS_BETWEEN_YIELDS !== 0) return signal?.aborted ?? false;
  await nextTurn();
  return signal.aborted;
}

/**
 * The first pass: every problem with its line (sorted), and the number of valid entries. `signal`
 * (Ctrl-C) stops it with a CancelledError: nothing is sent then.
 */
export async function checkEventsFile(input: EventsInput, signal?: AbortSignal): Promise<{ total: number; findings: Finding[] }> {
  const found: Finding[] = [];
  let count = 0;
  let items = 0;
  const stopped = () => new CancelledError(`interrupted while checking ${sanitize(input.display)}; nothing was sent`);
  for await (const item of readItems(input)) {
    if (await stopAsked(signal, ++items)) throw stopped();
    for (const p of item.problems) found.push(p);
    if (!item.entry) continue;
    const checked = checkEntry(input.display, item.entry, count);
    if (checked.entry) count++;
    for (const f of checked.findings) found.push(f);
  }
  if (await stopAsked(signal, 0)) throw stopped();
  const findings = sortFindings(found);
  if (findings.length === 0 && count === 0) {
    findings.push(fileProblem(input.display, { line: 1, column: 1 }, 'empty', 'the file holds no events'));
  }
  return { total: count, findings };
}

export interface PostEventsOptions {
  input: EventsInput;
  /** The number of entries the first pass found. */
  total: number;
  /** Where outcomes are recorded; required unless dryRun. */
  journal?: { path: string; display: string };
  /** The service the journal's lines count for (canonicalServiceKey); undefined: all of them. */
  service?: string;
  /** The journal as read already (readJournal), so a bad journal is reported before anything else is set up. */
  journalState?: JournalState;
  /** Required unless dryRun. */
  client?: JobsClient;
  concurrency: number;
  retryUncertain?: boolean;
  /** Settle every entry as `would_post` (or skipped/held by the journal); send nothing. */
  dryRun?: boolean;
  /** Stops new posts; those in flight are not aborted, so their outcome is known and journaled. */
  signal: AbortSignal;
  onResult(result: EntryResult): void;
}

export interface PostEventsOutcome {
  counts: Record<EntryStatus, number>;
  /** The exit codes the results add (see exitCodeOf). */
  codes: Set<number>;
  /** Entries neither settled nor posted (the run stopped first). */
  notStarted: number;
  /** The run was stopped by its signal. */
  interrupted: boolean;
  /** What stopped the run otherwise (the journal could not be written, the file changed): thrown after the summary. */
  failure?: unknown;
}

export async function postEvents(o: PostEventsOptions): Promise<PostEventsOutcome> {
  const { input, total, journal, service } = o;
  const flags = o;
  if (!o.dryRun && (!o.client || !journal)) throw new UsageError('postEvents needs a client and a journal unless dryRun is set');
  const state = o.journalState ?? (journal ? readJournal(journal.path, journal.display, service) : undefined);

  const counts = emptyCounts();
  const codes = new Set<number>();
  const settle = (r: EntryResult) => {
    counts[r.status]++;
    const code = resultCode(r);
    if (code !== undefined) codes.add(code);
    o.onResult(r);
  };
  const outcome = (interrupted: boolean, failure?: unknown): PostEventsOutcome => ({
    counts,
    codes,
    notStarted: total - Object.values(counts).reduce((a, b) => a + b, 0),
    interrupted,
    ...(failure !== undefined ? { failure } : {}),
  });

  /** The entries to post, in file order; those the journal (or the dry run) settles are settled on the way. */
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
    let items = 0;
    for await (const planned of toPost()) {
      settle(planned);
      if (await stopAsked(o.signal, ++items)) return outcome(true);
    }
    return { ...outcome(false), notStarted: 0 };
  }

  const client = o.client!;
  // Heard while the journal was read or the client set up: no journal is started for nothing.
  if (o.signal.aborted) throw new CancelledError('interrupted before the first post; nothing was sent');
  const writer = JournalWriter.open(journal!.path, journal!.display, state!);
  const unrecorded: EntryResult[] = [];
  let journalFailure: unknown;
  let readFailure: unknown;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  // Ctrl-C stops new posts; those in flight are not aborted, so their outcome is known and journaled.
  const going = () => !stopped && !o.signal.aborted;

  const line = (planned: EntryResult, status: JournalStatus) => ({
    v: 1 as const,
    key: planned.key,
    application_id: planned.entry.application_id,
    kind: planned.entry.kind,
    status,
    service,
    at: isoNow(),
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
      // The entries read before the failure (journaled ahead, maybe) are still posted, as they
      // would be without reading ahead: the run ends there, in file order.
      readFailure ??= error;
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
    writer.notSent(line(journaled.planned, 'failed'));
  };

  const postOne = async (planned: EntryResult) => {
    // Once its `sending` line is on disk the post goes out, even after Ctrl-C: that line says it began.
    const result = await post(client, planned);
    // Nothing else can succeed with credentials the service refuses.
    if (result.error && isUnauthorized(result.error)) stop();
    // The outcome line is not waited for: it joins the flush of the next posts' `sending` lines
    // (or the last flush, on close). A crash that loses it leaves the `sending` line, so a rerun
    // holds the event as uncertain: never posted twice, only less sure.
    const written = writer.append(line(planned, result.status === 'posted' ? 'accepted' : result.status === 'uncertain' ? 'uncertain' : 'failed'));
    // Settled before `close` returns: the writer rejects a batch before it ends its flush.
    written.catch((error: unknown) => {
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
  const { concurrency } = o;
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
  const failure = journalFailure !== undefined ? journalError(journal!.display, journalFailure, unrecorded) : readFailure;
  return outcome(o.signal.aborted, failure);
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

/** The time as ISO 8601, formatted once per millisecond: two journal lines per event asked for it. */
let lastMs = -1;
let lastIso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
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
  const error = new PartialFailureError(`cannot write the journal ${sanitize(display)} (${reasonInWords(cause)}); the run was stopped`);
  error.details = [
    ...unrecorded.map((r) => `${r.entry.kind} ${sanitize(r.entry.application_id)} (${sanitize(r.entry.file)}:${r.entry.position.line}) was sent (${r.status}) but its outcome is not in the journal: a rerun holds it as uncertain and does not post it again`),
    'fix the journal file (space, permissions), then rerun: events posted with no outcome recorded are listed as uncertain; --retry-uncertain posts them again',
  ];
  return error;
}
