/**
 * ExactlyOnce with the real journal on a real full tmpfs (mounted as root).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExactlyOnce } from '../../../src/core/events/exactly-once.js';
import { JournalWriter, readJournal, type JournalRecord, type JournalStatus } from '../../../src/core/events/journal.js';
import type { EntryResult } from '../../../src/core/events/outcomes.js';
import { mountTmpfs, type Tmpfs } from '../../support/tmpfs.js';
import { bootId } from '../../../src/core/util/boot-id.js';

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
const settle = () => new Promise((r) => setImmediate(r));

describe('ExactlyOnce with the real journal on a full disk', () => {
  let disk: Tmpfs | undefined;
  afterAll(() => disk?.unmount());

  it('a failed line that does not fit rewrites the planned line in place', async () => {
    disk = mountTmpfs(64);
    const path = join(disk.dir, 'events.journal');
    const writer = JournalWriter.open(path, 'events.journal', readJournal(path, 'events.journal'));
    const rule = new ExactlyOnce(writer, line, new AbortController().signal);
    // The two planned lines (each naming the boot) fill the file's first page to the byte: on a full
    // disk no line fits after them.
    const boot = bootId() ?? '';
    const idA = 'A'.repeat(1940 - `,"boot":"${boot}"`.length);
    const a = rule.begin(planned(idA));
    const b = rule.begin(planned('B'));
    expect(await rule.clearToPost(a)).toBe(true); // both planned lines are on disk (one flush); A's now says sending
    disk.fill();
    // A's outcome does not fit: the run stops; B, journaled ahead, is never posted.
    rule.answered(a, { ...a.planned, status: 'posted' });
    for (let i = 0; i < 200 && rule.going; i++) await settle();
    expect(rule.state).toBe('stopped');
    expect(await rule.clearToPost(b)).toBe(false);
    expect(b.stage).toBe('not-sent');
    await rule.close();
    expect(readFileSync(path, 'utf8')).toBe(
      [
        `{"v":1,"key":"key-${idA}","application_id":"${idA}","kind":"hired","status":"sending","at":"2026-11-26T00:00:00.000Z","boot":"${boot}"}`,
        `{"v":1,"key":"key-B","application_id":"B","kind":"hired","status":"failed", "at":"2026-11-26T00:00:00.000Z","boot":"${boot}"}`,
        '',
      ].join('\n'),
    );
    expect((rule.failure('events.journal') as Error).message).toContain('ENOSPC');
  });
});
