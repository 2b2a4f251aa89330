/**
 * The exactly-once rule (events/exactly-once.ts), called as postEvents' loops call it: an entry is
 * posted only once its `sending` line is on disk; one journaled ahead and not posted is marked
 * `failed`, in place of its `sending` line when a full disk leaves no room for a new line.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, PartialFailureError } from '../../../src/core/errors/failures.js';
import { ExactlyOnce, type JournalSink } from '../../../src/core/events/exactly-once.js';
import { type JournalRecord, type JournalStatus } from '../../../src/core/events/journal.js';
import type { EntryResult } from '../../../src/core/events/outcomes.js';

const planned = (id: string): EntryResult => ({
  entry: { index: 0, file: 'events.csv', position: { line: 2, column: 1 }, application_id: id, kind: 'hired', fieldPositions: new Map() },
  key: `key-${id}`,
  status: 'would_post',
});
const line = (p: EntryResult, status: JournalStatus): JournalRecord => ({
  v: 1,
  key: p.key,
  application_id: p.entry.application_id,
  kind: p.entry.kind,
  status,
  at: '2026-11-26T00:00:00.000Z',
});
const ENOSPC = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });

/** A journal whose lines settle when the test says: each append's promise is kept to be resolved or rejected. */
function fakeJournal() {
  const appended: { record: JournalRecord; resolve: () => void; reject: (e: unknown) => void }[] = [];
  const notSent: JournalRecord[] = [];
  const began: string[] = [];
  const sink: JournalSink = {
    append: (record) =>
      new Promise<void>((resolve, reject) => {
        appended.push({ record, resolve, reject });
      }),
    began: (key) => void began.push(key),
    notSent: (record) => void notSent.push(record),
    close: async () => undefined,
  };
  // As the file reads: a `planned` line marked as begun reads `sending`.
  const lines = () =>
    appended.map((a) => `${a.record.application_id} ${a.record.status === 'planned' && began.includes(a.record.key) ? 'sending' : a.record.status}`);
  return { sink, appended, notSent, began, lines };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('ExactlyOnce: stages and transitions', () => {
  it('an entry is cleared to post only once its planned line is on disk, marked sending, then answered', async () => {
    const journal = fakeJournal();
    const rule = new ExactlyOnce(journal.sink, line, new AbortController().signal);
    const ticket = rule.begin(planned('A'));
    expect(ticket.stage).toBe('journaling');
    expect(journal.lines()).toEqual(['A planned']);
    let cleared: boolean | undefined;
    void rule.clearToPost(ticket).then((c) => (cleared = c));
    await settle();
    expect(cleared).toBeUndefined(); // the line is not on disk yet: no post
    expect(journal.began).toEqual([]);
    journal.appended[0]!.resolve();
    await settle();
    expect(cleared).toBe(true);
    expect(journal.lines()).toEqual(['A sending']);
    expect(ticket.stage).toBe('posting');
    rule.answered(ticket, { ...ticket.planned, status: 'posted' });
    expect(ticket.stage).toBe('answered');
    expect(journal.lines()).toEqual(['A sending', 'A accepted']);
    expect(rule.state).toBe('running');
    expect(rule.failure('j')).toBeUndefined();
  });

  it('a sending line that cannot be written: not posted, the run stops and says why', async () => {
    const journal = fakeJournal();
    const rule = new ExactlyOnce(journal.sink, line, new AbortController().signal);
    const ticket = rule.begin(planned('A'));
    journal.appended[0]!.reject(ENOSPC);
    expect(await rule.clearToPost(ticket)).toBe(false);
    expect(ticket.stage).toBe('unjournaled');
    expect(rule.state).toBe('stopped');
    expect(journal.notSent).toEqual([]);
    const failure = rule.failure('events.journal') as PartialFailureError;
    expect(failure).toBeInstanceOf(PartialFailureError);
    expect(failure.message).toBe('cannot write the journal events.journal (the disk is full: ENOSPC); the run was stopped');
  });

  it('a planned line that cannot be rewritten to sending: not posted, marked not sent, the run stops and says why', async () => {
    const journal = fakeJournal();
    journal.sink.began = () => {
      throw Object.assign(new Error('input/output error'), { code: 'EIO' });
    };
    const rule = new ExactlyOnce(journal.sink, line, new AbortController().signal);
    const ticket = rule.begin(planned('A'));
    journal.appended[0]!.resolve();
    expect(await rule.clearToPost(ticket)).toBe(false);
    expect(ticket.stage).toBe('not-sent');
    expect(rule.state).toBe('stopped');
    expect(journal.notSent.map((r) => `${r.application_id} ${r.status}`)).toEqual(['A failed']);
    expect((rule.failure('events.journal') as Error).message).toMatch(/^cannot write the journal events\.journal \(.*EIO\); the run was stopped$/);
  });

  it('Ctrl-C while the planned line is flushed: not posted, marked failed (not sent) for a rerun', async () => {
    const journal = fakeJournal();
    const stop = new AbortController();
    const rule = new ExactlyOnce(journal.sink, line, stop.signal);
    const ticket = rule.begin(planned('A'));
    const cleared = rule.clearToPost(ticket);
    stop.abort();
    journal.appended[0]!.resolve();
    expect(await cleared).toBe(false);
    expect(ticket.stage).toBe('not-sent');
    expect(journal.notSent.map((r) => `${r.application_id} ${r.status}`)).toEqual(['A failed']);
    expect(rule.failure('j')).toBeUndefined(); // an interruption, not a failure
  });

  it('entries journaled ahead and never posted are marked not sent', () => {
    const journal = fakeJournal();
    const rule = new ExactlyOnce(journal.sink, line, new AbortController().signal);
    const ticket = rule.begin(planned('B'));
    rule.notPosted(ticket);
    expect(ticket.stage).toBe('not-sent');
    expect(journal.notSent.map((r) => `${r.application_id} ${r.status}`)).toEqual(['B failed']);
  });

  it('refused credentials stop the run; an outcome line lost names the event sent without it', async () => {
    const journal = fakeJournal();
    const rule = new ExactlyOnce(journal.sink, line, new AbortController().signal);
    const a = rule.begin(planned('A'));
    const b = rule.begin(planned('B'));
    journal.appended[0]!.resolve();
    journal.appended[1]!.resolve();
    expect(await rule.clearToPost(a)).toBe(true);
    expect(await rule.clearToPost(b)).toBe(true);
    rule.answered(a, { ...a.planned, status: 'posted' });
    journal.appended[2]!.reject(ENOSPC);
    await settle();
    expect(rule.state).toBe('stopped');
    rule.answered(b, { ...b.planned, status: 'failed', error: new ApiError('token refused', 'unauthorized', 401, undefined) });
    expect(journal.lines()).toEqual(['A sending', 'B sending', 'A accepted', 'B failed']);
    const failure = rule.failure('j') as PartialFailureError;
    expect(failure.details?.[0]).toBe(
      'hired A (events.csv:2) was sent (posted) but its outcome is not in the journal: a rerun holds it as uncertain and does not post it again',
    );
    expect(failure.details).toHaveLength(2);
  });

  it('refuses a step out of order (a bug in a loop would break exactly once)', async () => {
    const journal = fakeJournal();
    const rule = new ExactlyOnce(journal.sink, line, new AbortController().signal);
    const ticket = rule.begin(planned('A'));
    expect(() => rule.answered(ticket, { ...ticket.planned, status: 'posted' })).toThrow('an entry in stage journaling where posting was expected');
    journal.appended[0]!.resolve();
    await rule.clearToPost(ticket);
    expect(() => rule.notPosted(ticket)).toThrow('an entry in stage posting where journaling was expected');
  });

  it('stops on refused credentials', async () => {
    const journal = fakeJournal();
    const rule = new ExactlyOnce(journal.sink, line, new AbortController().signal);
    const ticket = rule.begin(planned('A'));
    journal.appended[0]!.resolve();
    await rule.clearToPost(ticket);
    rule.answered(ticket, { ...ticket.planned, status: 'failed', error: new ApiError('token refused', 'unauthorized', 401, undefined) });
    expect(rule.going).toBe(false);
    expect(rule.failure('j')).toBeUndefined();
  });
});
