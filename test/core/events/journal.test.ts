import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalWriter, readJournal, type JournalFileOps, type JournalRecord } from '../../../src/core/events/journal.js';
import { canonicalJson, contentHash, entryKeys } from '../../../src/core/events/key.js';
import type { EventEntry } from '../../../src/core/events/types.js';
import { UsageError } from '../../../src/core/errors/failures.js';
import { tempDir } from '../../support/temp-dirs.js';
import { bootId } from '../../../src/core/util/boot-id.js';

const record = (key: string, status: JournalRecord['status']): JournalRecord => ({
  v: 1,
  key,
  application_id: 'a',
  kind: 'recruiter_like',
  status,
  at: '2025-01-01T00:00:00.000Z',
});
const line = (r: JournalRecord) => `${JSON.stringify(r)}\n`;
const tempJournal = (text?: string) => {
  const path = join(tempDir('jobs-journal-'), 'e.csv.journal');
  if (text !== undefined) writeFileSync(path, text);
  return path;
};

describe('journal', () => {
  it('reads a missing journal as empty and keeps the latest status of each key', () => {
    expect(readJournal(tempJournal(), 'j').statuses.size).toBe(0);
    const path = tempJournal(line(record('k1', 'uncertain')) + line(record('k2', 'accepted')) + line(record('k1', 'accepted')));
    expect([...readJournal(path, 'j').statuses]).toEqual([
      ['k1', 'accepted'],
      ['k2', 'accepted'],
    ]);
  });

  it('ignores a torn last line and cuts it off before appending', async () => {
    const whole = line(record('k1', 'accepted'));
    const path = tempJournal(`${whole}{"v":1,"key":"k2","applica`);
    const state = readJournal(path, 'j');
    expect([...state.statuses.keys()]).toEqual(['k1']);
    expect(state.torn).toBe(true);
    const writer = JournalWriter.open(path, 'j', state);
    await writer.append(record('k3', 'uncertain'));
    await writer.close();
    expect(readFileSync(path, 'utf8')).toBe(whole + line(record('k3', 'uncertain')));
  });

  it('reads a journal of several MiB in pieces: lines across piece boundaries, the latest status, a torn tail', () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => line(record(`key-${i}`, i % 2 ? 'accepted' : 'sending')));
    const whole = lines.join('') + line(record('key-0', 'accepted'));
    const path = tempJournal(`${whole}{"v":1,"key":"key-1","stat`);
    expect(whole.length).toBeGreaterThan(3 * 1024 * 1024);
    const state = readJournal(path, 'j');
    expect(state.statuses.size).toBe(30_000);
    expect([...state.statuses.values()].filter((s) => s === 'accepted')).toHaveLength(15_001);
    expect(state.statuses.get('key-29999')).toBe('accepted');
    expect(state).toMatchObject({ exists: true, torn: true, completeBytes: whole.length, missingNewline: false });
  });

  it('keeps a whole last line that lacks its newline, adding the newline before appending', async () => {
    const path = tempJournal(JSON.stringify(record('k1', 'accepted')));
    const state = readJournal(path, 'j');
    expect(state.statuses.get('k1')).toBe('accepted');
    const writer = JournalWriter.open(path, 'j', state);
    await writer.append(record('k2', 'accepted'));
    await writer.close();
    expect(readFileSync(path, 'utf8')).toBe(line(record('k1', 'accepted')) + line(record('k2', 'accepted')));
  });

  it('refuses a damaged line in the middle and a newer version, rather than guessing', () => {
    const damaged = tempJournal(`${line(record('k1', 'accepted'))}garbage\n${line(record('k2', 'accepted'))}`);
    expect(() => readJournal(damaged, 'e.csv.journal')).toThrow(UsageError);
    expect(() => readJournal(damaged, 'e.csv.journal')).toThrow('e.csv.journal:2: this line is not a journal entry; nothing was sent');
    const newer = tempJournal(`${JSON.stringify({ v: 2, key: 'k1' })}\n`);
    expect(() => readJournal(newer, 'j')).toThrow('j:1: journal version 2 is not supported by this version of jobs; nothing was sent');
  });

  it('writes the lines queued in one turn with one write and one fsync; after a failure refuses every later line', async () => {
    const path = tempJournal();
    const calls: string[] = [];
    let fail = false;
    const ops: JournalFileOps = {
      write: async (fd, bytes, offset) => {
        calls.push(`write ${bytes.subarray(offset).toString().split('\n').length - 1} lines`);
        if (fail) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
        return writeSync(fd, bytes, offset);
      },
      fsync: async () => void calls.push('fsync'),
    };
    const writer = JournalWriter.open(path, 'j', readJournal(path, 'j'), ops);
    await Promise.all([writer.append(record('k1', 'sending')), writer.append(record('k2', 'sending')), writer.append(record('k3', 'sending'))]);
    expect(calls).toEqual(['write 3 lines', 'fsync']);
    fail = true;
    const lost = writer.append(record('k1', 'accepted'));
    await expect(lost).rejects.toThrow('no space');
    fail = false;
    await expect(writer.append(record('k2', 'accepted'))).rejects.toThrow('no space');
    await writer.close();
    expect(calls).toEqual(['write 3 lines', 'fsync', 'write 1 lines']);
    expect(readFileSync(path, 'utf8')).toBe(['k1', 'k2', 'k3'].map((k) => line(record(k, 'sending'))).join(''));
  });

  it('a write that takes no bytes fails the line (EIO) instead of looping for ever; a short write is finished', async () => {
    const path = tempJournal();
    let mode: 'short' | 'none' = 'short';
    const ops: JournalFileOps = {
      // A short write: at most 10 bytes at a time, then nothing at all.
      write: async (fd, bytes, offset) => (mode === 'none' ? 0 : writeSync(fd, bytes, offset, Math.min(10, bytes.length - offset))),
      fsync: async () => undefined,
    };
    const writer = JournalWriter.open(path, 'j', readJournal(path, 'j'), ops);
    await writer.append(record('k1', 'sending'));
    expect(readFileSync(path, 'utf8')).toBe(line(record('k1', 'sending')));
    mode = 'none';
    await expect(writer.append(record('k2', 'sending'))).rejects.toMatchObject({ code: 'EIO' });
    await writer.close();
  });

  it('a planned line is written with the boot and rewritten to sending in place, with no fsync', async () => {
    const path = tempJournal();
    const calls: string[] = [];
    const ops: JournalFileOps = {
      write: async (fd, bytes, offset) => writeSync(fd, bytes, offset),
      fsync: async () => void calls.push('fsync'),
    };
    const writer = JournalWriter.open(path, 'j', readJournal(path, 'j'), ops);
    await Promise.all([writer.append(record('k1', 'planned')), writer.append(record('k2', 'planned'))]);
    const boot = bootId() ?? '';
    const planned = (k: string) => line({ ...record(k, 'planned'), boot });
    expect(readFileSync(path, 'utf8')).toBe(planned('k1') + planned('k2'));
    writer.began('k2');
    expect(calls).toEqual(['fsync']);
    expect(readFileSync(path, 'utf8')).toBe(planned('k1') + planned('k2').replace('"status":"planned"', '"status":"sending"'));
    // Only a line on disk, and only once.
    expect(() => writer.began('k2')).toThrow('no planned line on disk');
    expect(() => writer.began('k3')).toThrow('no planned line on disk');
    await writer.close();
  });

  it('a planned line with no later line: not posted when written in this boot; uncertain from another boot or an unknown one', () => {
    const here = bootId();
    expect(here).toMatch(/^[0-9a-f-]{36}$/); // Linux: the tests run there
    const planned = (key: string, boot: string | undefined) => line({ ...record(key, 'planned'), ...(boot === undefined ? {} : { boot }) });
    const path = tempJournal(
      [
        planned('fresh', here),
        line(record('held', 'uncertain')),
        planned('held', here), // retried with --retry-uncertain, killed before the post: still uncertain
        planned('done', here),
        line(record('done', 'accepted')),
        planned('rebooted', '00000000-0000-4000-8000-000000000000'),
        planned('unknown', ''),
        planned('unnamed', undefined),
      ].join(''),
    );
    expect(Object.fromEntries(readJournal(path, 'j').statuses)).toEqual({
      held: 'uncertain',
      done: 'accepted',
      rebooted: 'sending',
      unknown: 'sending',
      unnamed: 'sending',
    });
  });

  it('far ahead of the posts, flushes once per few hundred lines rather than once per turn; every line is on disk at close', async () => {
    const path = tempJournal();
    let fsyncs = 0;
    const ops: JournalFileOps = { write: async (fd, bytes, offset) => writeSync(fd, bytes, offset), fsync: async () => void fsyncs++ };
    const writer = JournalWriter.open(path, 'j', readJournal(path, 'j'), ops);
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // 512 events journaled ahead (on disk, waited for), then a run's steady state: each turn an
    // event begins, its outcome and the next event's planned line are queued.
    const ahead = 512;
    const planned = Array.from({ length: ahead }, (_, i) => writer.append(record(`k${i}`, 'planned')));
    await Promise.all(planned);
    const before = fsyncs;
    const posts = 1000;
    for (let i = 0; i < posts; i++) {
      // A post waits for its own planned line, queued `ahead` posts earlier: on disk before began (which throws otherwise).
      await planned[i];
      writer.began(`k${i}`);
      void writer.append(record(`k${i}`, 'accepted')).catch(() => undefined);
      planned.push(writer.append(record(`k${i + ahead}`, 'planned')));
      await turn();
    }
    // One flush per turn was 1,000 here; one per 256 lines written makes 8.
    expect(fsyncs - before).toBeGreaterThan(0);
    expect(fsyncs - before).toBeLessThanOrEqual(posts / 100);
    // A line with nothing written after it is flushed within a second all the same.
    const flushed = fsyncs;
    const last = writer.append(record('k0', 'failed'));
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(fsyncs).toBe(flushed + 1);
    await last;
    await writer.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(ahead + 2 * posts + 1);
    expect(lines.filter((l) => l.includes('"status":"sending"'))).toHaveLength(posts);
  });

  it('fails to open where it cannot write, before anything is sent', () => {
    const path = join(tempJournal(), 'missing-folder', 'x.journal');
    expect(() => JournalWriter.open(path, 'x.journal', readJournal(path, 'x.journal'))).toThrow(
      'cannot write the journal x.journal (ENOENT); nothing was sent',
    );
  });
});

describe('entry keys', () => {
  const entry = (application_id: string, kind: string, data?: Record<string, unknown>) => ({ application_id, kind, ...(data ? { data } : {}) }) as EventEntry;

  it('hash content with data in canonical JSON', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":2,"d":1}]}');
    // The keys of journals written before: what JSON.stringify would drop, turn or order otherwise.
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"a":null,"b":1}');
    expect(canonicalJson({ '9': 1, '10': 2, a: 3 })).toBe('{"10":2,"9":1,"a":3}');
    expect(canonicalJson([1, undefined, 3])).toBe('[1,null,3]');
    expect(canonicalJson({ a: new Date(0), b: NaN, c: { toJSON: () => 'x' } })).toBe('{"a":{},"b":null,"c":{"toJSON":null}}');
    expect(canonicalJson(['id', 'recruiter_reject', { reason: 'é"\n', step: 2, tags: [true, null, 1.5] }])).toBe(
      '["id","recruiter_reject",{"reason":"é\\"\\n","step":2,"tags":[true,null,1.5]}]',
    );
    expect(contentHash(entry('a', 'recruiter_like', { x: 1, y: 2 }))).toBe(contentHash(entry('a', 'recruiter_like', { y: 2, x: 1 })));
    expect(contentHash(entry('a', 'recruiter_like'))).not.toBe(contentHash(entry('a', 'recruiter_like', {})));
    expect(contentHash(entry('a', 'recruiter_like'))).not.toBe(contentHash(entry('a', 'recruiter_view')));
  });

  it('count occurrences exactly over many entries, while the table grows (as a Map of hashes would)', () => {
    // 5,000 entries over 1,700 distinct contents: every content occurs 2 to 3 times, in a mixed order.
    const entries = Array.from({ length: 5000 }, (_, i) => entry(`app-${(i * 7919) % 1700}`, i % 2 ? 'recruiter_like' : 'recruiter_view'));
    const seen = new Map<string, number>();
    const expected = entries.map((e) => {
      const hash = contentHash(e);
      seen.set(hash, (seen.get(hash) ?? 0) + 1);
      return `${hash}:${seen.get(hash)}`;
    });
    expect(entryKeys(entries)).toEqual(expected);
    expect(Math.max(...seen.values())).toBeGreaterThan(1);
  });

  it('number identical entries by occurrence, so other lines do not shift them', () => {
    const like = entry('a', 'recruiter_like');
    const [first, other, second] = entryKeys([like, entry('b', 'recruiter_like'), like]);
    expect(first).toBe(`${contentHash(like)}:1`);
    expect(second).toBe(`${contentHash(like)}:2`);
    expect(entryKeys([entry('new', 'recruiter_view'), like, like])).toEqual([expect.any(String), first, second]);
    expect(other).not.toBe(first);
  });
});
