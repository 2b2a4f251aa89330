// The read-ahead thread (built: dist/read-ahead-worker.cjs) reads a run's files into a shared ring
// while the checking thread works: the bytes it hands over must be each file's, in file order,
// across more files than the ring holds; anything odd it must leave to the checking thread, and it
// must never block on a file.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadAhead } from '../../src/core/bulk/read-ahead.js';
import { SLOT_BYTES, SLOTS } from '../../src/core/bulk/read-ahead-layout.js';
import { ROOT } from '../e2e/helpers.js';

const script = join(ROOT, 'dist/read-ahead-worker.cjs');
// A missed wake-up would stall the reader this long: far beyond the tests' own waits.
const waitMs = 60_000;
let dir: string;
let reader: ReadAhead | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobs-read-ahead-'));
});
afterEach(async () => {
  await reader?.stop();
  reader = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Files whose bytes all differ. */
function makeFiles(count: number): { paths: string[]; texts: string[] } {
  const paths: string[] = [];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = `reference: F-${i}\ntitle: ${'é'.repeat(i % 50)}\n`;
    paths.push(join(dir, `f${i}.yaml`));
    texts.push(text);
    writeFileSync(paths[i]!, text);
  }
  return { paths, texts };
}

/** Waits until the reader has written `entries` entries (bounded: a stalled reader fails the test). */
async function produced(r: ReadAhead, entries: number): Promise<void> {
  for (const started = Date.now(); r.produced < entries; await new Promise((done) => setTimeout(done, 1))) {
    if (Date.now() - started > 5000) throw new Error(`the reader stopped at ${r.produced} entries, short of ${entries}`);
  }
}

async function start(paths: string[]): Promise<ReadAhead> {
  reader = await ReadAhead.start(paths, { script, waitMs });
  expect(reader).toBeDefined();
  return reader!;
}

describe('reading files ahead on another thread', () => {
  it('is built', () => {
    expect(existsSync(script)).toBe(true);
  });

  it("hands over each file's bytes in file order through a ring it fills, waits on, and is woken to fill again", async () => {
    const { paths, texts } = makeFiles(SLOTS * 3 + 17);
    const r = await start(paths);
    // The ring full, the reader waits: it goes on only when release() wakes it.
    await produced(r, SLOTS);
    await new Promise((done) => setTimeout(done, 50));
    expect(r.produced).toBe(SLOTS);
    for (let i = 0; i < paths.length; i++) {
      await produced(r, i + 1);
      expect(r.bytesOf(i)?.toString('utf8'), `file ${i}`).toBe(texts[i]);
      r.release();
    }
    expect(r.taken).toBe(paths.length);
  });

  it('leaves odd files to the checking thread and goes on past them, never waiting on a FIFO', async () => {
    const { paths, texts } = makeFiles(8);
    const fifo = join(dir, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    // A writer holds the FIFO open with bytes in it: a blocking open or read would return them as the file.
    const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    writeSync(writer, 'reference: FROM-A-FIFO\n');
    const large = join(dir, 'large.yaml');
    writeFileSync(large, `title: ${'x'.repeat(SLOT_BYTES)}\n`);
    const folder = join(dir, 'folder.yaml');
    mkdirSync(folder);
    const link = join(dir, 'link.yaml');
    symlinkSync(paths[0]!, link);
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, '');
    const odd = [fifo, large, folder, join(dir, 'missing.yaml'), link, empty];
    // Each odd file sits between two plain ones.
    const all = paths.slice(0, odd.length).flatMap((p, i) => [p, odd[i]!]).concat(paths.slice(odd.length));
    try {
      const r = await start(all);
      await produced(r, all.length);
      const got = all.map((_, i) => {
        const bytes = r.bytesOf(i)?.toString('utf8');
        r.release();
        return bytes;
      });
      expect(got).toEqual(all.map((p) => (p === link ? texts[0] : p === empty ? '' : odd.includes(p) ? undefined : texts[paths.indexOf(p)])));
      expect(r.taken).toBe(all.length - 4);
    } finally {
      closeSync(writer);
    }
  });

  it('skips the files the checking thread went past and read itself', async () => {
    const { paths, texts } = makeFiles(SLOTS * 2);
    const r = await start(paths);
    await produced(r, SLOTS);
    // The checking thread is at file 400 (it read the ones before itself): the ring holds none of it.
    expect(r.bytesOf(400)).toBeUndefined();
    r.release();
    // It reads 400 too; the reader goes on from 401.
    for (let i = 401; i < paths.length; i++) {
      await produced(r, SLOTS + i - 400);
      expect(r.bytesOf(i)?.toString('utf8'), `file ${i}`).toBe(texts[i]);
      r.release();
    }
    expect(r.taken).toBe(paths.length - 401);
  });

  it('does not read a file the checking thread asked for before it was there (that thread reads it)', async () => {
    const { paths, texts } = makeFiles(SLOTS + 100);
    const r = await start(paths);
    await produced(r, SLOTS);
    // The whole ring taken, none of it released yet: the reader waits, file SLOTS not read.
    for (let i = 0; i < SLOTS; i++) expect(r.bytesOf(i)?.toString('utf8')).toBe(texts[i]);
    expect(r.bytesOf(SLOTS)).toBeUndefined();
    r.release();
    for (let i = SLOTS + 1; i < paths.length; i++) {
      await produced(r, i);
      expect(r.bytesOf(i)?.toString('utf8'), `file ${i}`).toBe(texts[i]);
      r.release();
    }
    // One entry per file but the one read by the checking thread alone.
    expect([r.produced, r.taken]).toEqual([paths.length - 1, paths.length - 1]);
  });
});
