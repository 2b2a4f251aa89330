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
import { ExactlyOnce, type Ticket } from './exactly-once.js';
import { JournalWriter, readJournal, type JournalRecord, type JournalState, type JournalStatus } from './journal.js';
import { EntryKeys } from './key.js';
import { asJobsError, classifyFailure } from './outcome.js';
import { emptyCounts, requestOf, resultCode, type EntryResult, type EntryStatus } from './outcomes.js';
import { readItemGroups } from './source.js';
import type { EventEntry } from './types.js';
import { nextTurn } from '../util/next-turn.js';

/** Items between two turns of the event loop, where a Ctrl-C's handler runs: input read whole is iterated without one. */
const ITEMS_BETWEEN_YIELDS = 4096;

/**
 * At most this many entries are journaled ahead of the posts: enough that the lines of the next
 * group are on disk before the posts of this one are done, however slow the fsync (on a loaded ext4
 * disk, a flush took as long as 30 posts). A kill leaves them `planned`, and a rerun posts them
 * (journal.ts). The run starts with `concurrency` ahead and adds one with each post, so the first
 * post waits for a small group only, and a nearly full disk still takes the first groups.
 */
const JOURNAL_AHEAD = 1024;

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
  for await (const group of readItemGroups(input)) {
    for (const item of group) {
      if (await stopAsked(signal, ++items)) throw stopped();
      for (const p of item.problems) found.push(p);
      if (!item.entry) continue;
      const checked = checkEntry(input.display, item.entry, count);
      if (checked.entry) count++;
      for (const f of checked.findings) found.push(f);
    }
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
    for await (const group of validatedAgain(input, total))
      for (const entry of group) {
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
  const line = (planned: EntryResult, status: JournalStatus): JournalRecord => ({
    v: 1 as const,
    key: planned.key,
    application_id: planned.entry.application_id,
    kind: planned.entry.kind,
    status,
    service,
    at: isoNow(),
  });
  const rule = new ExactlyOnce(JournalWriter.open(journal!.path, journal!.display, state!), line, o.signal);
  const entries = toPost();

  /** The next entry to post, its `planned` line queued; undefined at the end or once the run stops. */
  const journalNext = async (): Promise<Ticket | undefined> => {
    let next: IteratorResult<EntryResult>;
    try {
      next = await entries.next();
    } catch (error) {
      // The entries read before the failure (journaled ahead, maybe) are still posted, as they
      // would be without reading ahead: the run ends there, in file order.
      rule.readFailed(error);
      return undefined;
    }
    // An entry read after the run was stopped is not started.
    if (next.done || !rule.going) return undefined;
    return rule.begin(next.value);
  };

  /**
   * The `planned` lines of the next groups are flushed while the current ones are in flight: the
   * disk's flush overlaps the network instead of coming between two posts. A post still starts
   * only once its own `planned` line is on disk (the rule, in exactly-once.ts). At most `window`
   * entries are journaled ahead (see JOURNAL_AHEAD).
   */
  const { concurrency } = o;
  const ahead: Promise<Ticket | undefined>[] = [];
  let window = concurrency;
  const topUp = () => {
    while (rule.going && ahead.length < window) ahead.push(journalNext());
  };
  const lane = async () => {
    while (rule.going) {
      const next = ahead.shift() ?? journalNext();
      if (window < JOURNAL_AHEAD) window++;
      topUp();
      const ticket = await next;
      if (!ticket || !(await rule.clearToPost(ticket))) return;
      const result = await post(client, ticket.planned);
      rule.answered(ticket, result);
      settle(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
    // Entries journaled ahead and never posted (the run stopped, or the file ended first).
    for (const next of ahead.splice(0)) {
      const ticket = await next;
      if (ticket) rule.notPosted(ticket);
    }
  } finally {
    await rule.close();
  }
  return outcome(o.signal.aborted, rule.failure(journal!.display));
}

/**
 * Second pass: the entries again, read afresh. A file that no longer reads as it did in the first
 * pass (edited during the run) stops the run: what was posted is journaled, so a rerun goes on.
 */
async function* validatedAgain(input: EventsInput, total: number): AsyncGenerator<EventEntry[]> {
  let index = 0;
  const changed = (why: string) =>
    new PartialFailureError(`${sanitize(input.display)} changed while its events were being sent (${why}); the run was stopped`, ExitCode.invalidInput);
  // The entries of a group before a changed line are given first, as they would be one by one.
  let entries: EventEntry[] = [];
  try {
    groups: for await (const group of readItemGroups(input)) {
      for (const item of group) {
        if (item.problems.length > 0) throw changed(`line ${item.problems[0]!.line} is no longer valid`);
        if (!item.entry) continue;
        const checked = checkEntry(input.display, item.entry, index);
        if (!checked.entry) throw changed(`line ${item.entry.position.line} is no longer valid`);
        if (++index > total) break groups;
        entries.push(checked.entry);
      }
      yield entries;
      entries = [];
    }
    if (entries.length > 0) yield entries;
  } catch (error) {
    if (entries.length > 0) yield entries;
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
