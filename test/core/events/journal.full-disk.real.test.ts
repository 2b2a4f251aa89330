/**
 * The journal when a group of lines cannot be written (a full disk): the group is undone, so the
 * file holds exactly the groups that succeeded; and events whose `planned` line is on disk but
 * that were never posted are marked `failed` (not sent): in new lines when they fit, else by
 * rewriting their `planned` lines in place (a real full tmpfs).
 */
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalWriter, readJournal, type JournalFileOps, type JournalRecord, type JournalStatus } from '../../../src/core/events/journal.js';
import { mountTmpfs, type Tmpfs } from '../../support/tmpfs.js';

let disk: Tmpfs;
beforeAll(() => {
  disk = mountTmpfs(64);
});
afterAll(() => disk.unmount());

const record = (key: string, status: JournalStatus): JournalRecord => ({
  v: 1,
  key,
  application_id: key,
  kind: 'recruiter_view',
  status,
  service: 'https://jobs.example.com',
  at: '2026-01-01T00:00:00.000Z',
});

describe('the journal on a full disk', () => {
  it('a group that fails is undone whole; events never posted are then marked failed in new lines', async () => {
    const path = join(disk.dir, 'a.journal');
    let fail = false;
    const ops: JournalFileOps = {
      // Half the group lands, then the disk is full.
      write: async (fd, bytes, offset) => {
        if (!fail) return writeSync(fd, bytes, offset);
        if (offset === 0) return writeSync(fd, bytes, 0, Math.floor(bytes.length / 2));
        throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      },
      fsync: async () => undefined,
    };
    const writer = JournalWriter.open(path, 'a.journal', readJournal(path, 'a.journal'), ops);
    await Promise.all(['k1', 'k2', 'k3'].map((k) => writer.append(record(k, 'sending'))));
    fail = true;
    await expect(Promise.all([writer.append(record('k1', 'accepted')), writer.append(record('k4', 'sending'))])).rejects.toThrow('no space');
    // k2 and k3 were journaled ahead and never posted.
    writer.notSent(record('k2', 'failed'));
    writer.notSent(record('k3', 'failed'));
    await writer.close();
    const state = readJournal(path, 'a.journal');
    expect(state.torn).toBe(false);
    // k1 was posted and its outcome lost: `sending`, held as uncertain. k2 and k3: not sent. k4: never journaled.
    expect([...state.statuses]).toEqual([['k1', 'sending']]);
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).status),
    ).toEqual(['sending', 'sending', 'sending', 'failed', 'failed']);
  });

  it('when not one more line fits, the planned lines of events never posted are rewritten in place as failed', async () => {
    const path = join(disk.dir, 'b.journal');
    const writer = JournalWriter.open(path, 'b.journal', readJournal(path, 'b.journal'));
    for (const k of ['k1', 'k2', 'k3']) await writer.append(record(k, 'planned'));
    disk.fill();
    // k1 is posted (its line rewritten in place, which needs no new space); k2 and k3 never are.
    writer.began('k1');
    // Lines one at a time until the disk takes no more: what is left is less than one line.
    let n = 0;
    for (;;) {
      try {
        await writer.append(record(`fill-${n++}`, 'accepted'));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
        break;
      }
      expect(n).toBeLessThan(1000);
    }
    writer.notSent(record('k2', 'failed'));
    writer.notSent(record('k3', 'failed'));
    await writer.close();
    disk.free();
    const state = readJournal(path, 'b.journal');
    expect(state.torn).toBe(false);
    expect(state.statuses.get('k1')).toBe('sending');
    expect(state.statuses.has('k2')).toBe(false);
    expect(state.statuses.has('k3')).toBe(false);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines[1]).toContain('"status":"failed", ');
    expect(JSON.parse(lines[2]!)).toMatchObject({ key: 'k3', status: 'failed' });
  });
});
