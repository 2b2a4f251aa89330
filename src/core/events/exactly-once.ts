/**
 * The exactly-once rule of posting events, in one place. The loops of postEvents (reading ahead,
 * posting with bounded concurrency) call it; it decides, and it writes the journal lines:
 *
 * - An entry is posted only once its `planned` line is on disk (journaled ahead, in groups), and
 *   that line has been rewritten to `sending` (a write, no fsync) right before the post: a crash
 *   after that leaves `sending`, or, after a crash of the machine, `planned` from another boot, and
 *   a rerun holds the event as uncertain instead of posting it twice. A process killed before the
 *   rewrite leaves `planned` from this boot, and a rerun posts the event (journal.ts).
 * - Once the line says `sending` the post goes out, even after Ctrl-C: the line says it began.
 * - An entry whose `planned` line was written (journaled ahead) but that is then not posted gets a
 *   `failed` line, so a rerun posts it even after a reboot; when even that line does not fit (a
 *   full disk), the journal rewrites the `planned` line in place (JournalWriter.notSent).
 * - A `planned` line that could not be written, or rewritten, stops the run, and that entry is not posted.
 * - An outcome line that could not be written stops the run; the events posted without their
 *   outcome on disk are named in the error (a rerun holds them as uncertain).
 * - Credentials the service refused stop the run: nothing else can succeed with them.
 *
 * Each entry moves through explicit stages (EntryStage); the run is `running` until something
 * stops it (Ctrl-C, a refused token, the journal, a read failure), after which nothing new starts.
 */
import { PartialFailureError } from '../errors/failures.js';
import { reasonInWords } from '../storage/errors.js';
import { sanitize } from '../util/sanitize.js';
import type { JournalRecord, JournalStatus, JournalWriter } from './journal.js';
import { isUnauthorized } from './outcome.js';
import type { EntryResult } from './outcomes.js';

/**
 * Where one entry is:
 * - `journaling`: its `planned` line is queued, not yet known to be on disk: it may not be posted;
 * - `posting`: its `planned` line is on disk, rewritten to `sending`, and the run goes on: the post goes out;
 * - `answered`: the post's outcome is known and its line queued;
 * - `not-sent`: journaled, then not posted because the run stopped: marked `failed` for a rerun;
 * - `unjournaled`: its `planned` line could not be written: not posted, nothing on disk says it began.
 */
export type EntryStage = 'journaling' | 'posting' | 'answered' | 'not-sent' | 'unjournaled';

/** One entry under the rule; its stage is only ever moved by ExactlyOnce. */
export interface Ticket {
  readonly planned: EntryResult;
  readonly stage: EntryStage;
}

interface MutableTicket extends Ticket {
  stage: EntryStage;
  /** Settles when the flush that carries the `planned` line ends. */
  durable: Promise<void>;
}

/** What the rule needs of the journal (JournalWriter). */
export type JournalSink = Pick<JournalWriter, 'append' | 'began' | 'notSent' | 'close'>;

export class ExactlyOnce {
  private stopped = false;
  private journalFailure: unknown;
  private readFailure: unknown;
  /** Posted (accepted or uncertain), but the outcome line could not be written. */
  private readonly unrecorded: EntryResult[] = [];

  constructor(
    private readonly journal: JournalSink,
    /** A journal line for an entry with this status. */
    private readonly line: (planned: EntryResult, status: JournalStatus) => JournalRecord,
    /** Ctrl-C: stops new posts; those in flight are not aborted, so their outcome is known and journaled. */
    private readonly signal: AbortSignal,
  ) {}

  /** `running` while new entries may start; `stopped` once anything stopped the run. */
  get state(): 'running' | 'stopped' {
    return this.stopped || this.signal.aborted ? 'stopped' : 'running';
  }

  get going(): boolean {
    return this.state === 'running';
  }

  /** Queues the entry's `planned` line (its flush overlaps posts in flight); the entry is `journaling`. */
  begin(planned: EntryResult): Ticket {
    const durable = this.journal.append(this.line(planned, 'planned'));
    // Rejections are handled where the line is awaited (clearToPost); this keeps an unawaited one quiet.
    durable.catch(() => undefined);
    const ticket: MutableTicket = { planned, stage: 'journaling', durable };
    return ticket;
  }

  /**
   * Waits until the entry's `planned` line is on disk, then marks it `sending`. True: the entry is
   * `posting`, post it now. False: do not post it: its line could not be written (`unjournaled`, and
   * the run stops) or marked (`not-sent`, and the run stops), or the run stopped meanwhile (`not-sent`).
   */
  async clearToPost(ticket: Ticket): Promise<boolean> {
    const t = this.expect(ticket, 'journaling');
    try {
      await t.durable;
    } catch (error) {
      t.stage = 'unjournaled';
      this.journalFailure ??= error;
      this.stopped = true;
      return false;
    }
    if (!this.going) {
      this.markNotSent(t);
      return false;
    }
    try {
      this.journal.began(t.planned.key);
    } catch (error) {
      this.journalFailure ??= error;
      this.stopped = true;
      this.markNotSent(t);
      return false;
    }
    t.stage = 'posting';
    return true;
  }

  /**
   * The post's answer: its outcome line is queued, not waited for (it joins the flush of the next
   * `planned` lines, or the last one on close). A crash that loses it leaves the `sending` line, so a
   * rerun holds the event as uncertain: never posted twice, only less sure.
   */
  answered(ticket: Ticket, result: EntryResult): void {
    const t = this.expect(ticket, 'posting');
    t.stage = 'answered';
    if (result.error && isUnauthorized(result.error)) this.stopped = true;
    const status: JournalStatus = result.status === 'posted' ? 'accepted' : result.status === 'uncertain' ? 'uncertain' : 'failed';
    // Settled before `close` returns: the writer rejects a batch before it ends its flush.
    this.journal.append(this.line(result, status)).catch((error: unknown) => {
      // The `sending` line stands: a rerun holds this event as uncertain instead of repeating it.
      this.journalFailure ??= error;
      if (result.status === 'posted' || result.status === 'uncertain') this.unrecorded.push(result);
      this.stopped = true;
    });
  }

  /** An entry journaled ahead that the run never came to post (it stopped, or the input ended first). */
  notPosted(ticket: Ticket): void {
    this.markNotSent(this.expect(ticket, 'journaling'));
  }

  /** Reading the input failed: the entries read before are still posted, in file order; the run ends there. */
  readFailed(error: unknown): void {
    this.readFailure ??= error;
  }

  /** Flushes what is queued, marks what was not sent, closes the journal. */
  close(): Promise<void> {
    return this.journal.close();
  }

  /** What stopped the run, other than Ctrl-C or a refused token: thrown after the summary. */
  failure(display: string): unknown {
    return this.journalFailure !== undefined ? journalError(display, this.journalFailure, this.unrecorded) : this.readFailure;
  }

  private markNotSent(t: MutableTicket): void {
    t.stage = 'not-sent';
    this.journal.notSent(this.line(t.planned, 'failed'));
  }

  private expect(ticket: Ticket, stage: EntryStage): MutableTicket {
    // A bug in a loop, not a user's problem: the rule's order is what makes it exactly once.
    if (ticket.stage !== stage) throw new Error(`exactly-once: an entry in stage ${ticket.stage} where ${stage} was expected`);
    return ticket as MutableTicket;
  }
}

function journalError(display: string, cause: unknown, unrecorded: readonly EntryResult[]): PartialFailureError {
  const error = new PartialFailureError(`cannot write the journal ${sanitize(display)} (${reasonInWords(cause)}); the run was stopped`);
  error.details = [
    ...unrecorded.map(
      (r) =>
        `${r.entry.kind} ${sanitize(r.entry.application_id)} (${sanitize(r.entry.file)}:${r.entry.position.line}) was sent (${r.status}) but its outcome is not in the journal: a rerun holds it as uncertain and does not post it again`,
    ),
    'fix the journal file (space, permissions), then rerun: events posted with no outcome recorded are listed as uncertain; --retry-uncertain posts them again',
  ];
  return error;
}
