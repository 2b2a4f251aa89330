// The read-ahead thread (built: dist/read-ahead-worker.cjs) reads a run's files into a shared ring
// while the checking thread works: the bytes it hands over must be each file's, in file order,
// across more files than the ring holds; anything odd it must leave to the checking thread, and it
// must never block on a file.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadAhead } from '../../src/core/adverts/read-ahead.js';
import { CONTROL_LENGTH, META_FIELDS, NO_WAKE, PRODUCED, RELEASED, SLOT_BYTES, SLOTS, WAKE_AT } from '../../src/core/adverts/read-ahead-layout.js';
import { ROOT } from '../e2e/helpers.js';

const SCRIPT = join(ROOT, 'dist/read-ahead-worker.cjs');
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

/** Files whose bytes all differ (name and a body of a size that varies). */
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

/** The bytes of file `index` once the reader has them (it reads on its own thread), or undefined after `ms`. */
async function waitFor(r: ReadAhead, index: number, ms = 5000): Promise<Buffer | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const bytes = r.bytesOf(index);
    if (bytes || Date.now() > until) return bytes;
    await new Promise((done) => setTimeout(done, 2));
  }
}

describe('reading files ahead on another thread', () => {
  it('is built', () => {
    expect(existsSync(SCRIPT)).toBe(true);
  });

  it("hands over each file's bytes in file order, through more files than the ring holds", async () => {
    const { paths, texts } = makeFiles(SLOTS * 3 + 17);
    reader = await ReadAhead.start(paths, SCRIPT);
    for (let i = 0; i < paths.length; i++) {
      const bytes = await waitFor(reader!, i);
      expect(bytes?.toString('utf8'), `file ${i}`).toBe(texts[i]);
      reader!.release();
    }
  });

  it('leaves odd files to the checking thread and goes on past them, never waiting on a FIFO', async () => {
    const { paths, texts } = makeFiles(12);
    const fifo = join(dir, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    // A writer holds the FIFO open with bytes in it: a plain blocking read would return them as the file.
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
      reader = await ReadAhead.start(all, SCRIPT);
      // The last file's bytes arrive only after every file before it was dealt with.
      const last = all.length - 1;
      expect((await waitFor(reader!, last))?.toString('utf8')).toBe(texts[texts.length - 1]);
    } finally {
      closeSync(writer);
    }
    // Taken in order from a fresh reader, as the checking thread takes them.
    await reader!.stop();
    reader = await ReadAhead.start(all, SCRIPT);
    const got: (string | undefined)[] = [];
    for (let i = 0; i < all.length; i++) {
      const path = all[i]!;
      // A file the reader leaves is never handed over, however long one waits.
      got.push((await waitFor(reader!, i, [fifo, large, folder].includes(path) || path.endsWith('missing.yaml') ? 300 : 5000))?.toString('utf8'));
      reader!.release();
    }
    expect(got).toEqual(all.map((p) => (p === link ? texts[0] : p === empty ? '' : odd.includes(p) ? undefined : texts[paths.indexOf(p)])));
  });

  it('skips the files the checking thread went past and read itself', async () => {
    const { paths, texts } = makeFiles(SLOTS * 2);
    reader = await ReadAhead.start(paths, SCRIPT);
    // The checking thread took the first 400 itself (the reader was not there yet, say).
    for (let i = 400; i < paths.length; i++) {
      expect((await waitFor(reader!, i))?.toString('utf8'), `file ${i}`).toBe(texts[i]);
      reader!.release();
    }
  });

  it('waits while the ring is full and goes on when half of it is free again', async () => {
    const { paths } = makeFiles(SLOTS * 2);
    const control = new SharedArrayBuffer(CONTROL_LENGTH * 4);
    const counters = new Int32Array(control);
    counters[WAKE_AT] = NO_WAKE;
    const meta = new SharedArrayBuffer(SLOTS * META_FIELDS * 4);
    const worker = new Worker(SCRIPT, { workerData: { paths, control, meta, data: new SharedArrayBuffer(SLOTS * SLOT_BYTES) } });
    try {
      const until = async (what: string, test: () => boolean) => {
        for (const started = Date.now(); !test(); await new Promise((done) => setTimeout(done, 2))) if (Date.now() - started > 5000) throw new Error(`timed out waiting: ${what}`);
      };
      await until('a full ring', () => Atomics.load(counters, WAKE_AT) !== NO_WAKE);
      expect(Atomics.load(counters, PRODUCED)).toBe(SLOTS);
      expect(Atomics.load(counters, WAKE_AT)).toBe(SLOTS / 2);
      // Nothing freed: the reader stays put.
      await new Promise((done) => setTimeout(done, 100));
      expect(Atomics.load(counters, PRODUCED)).toBe(SLOTS);
      // Half the ring freed, and the wake-up the checking thread sends then.
      Atomics.store(counters, RELEASED, SLOTS / 2);
      Atomics.notify(counters, RELEASED);
      await until('the reader filling the freed half', () => Atomics.load(counters, PRODUCED) === SLOTS + SLOTS / 2);
      const slots = new Int32Array(meta);
      expect(slots[(SLOTS + SLOTS / 2 - 1) % SLOTS * META_FIELDS]).toBe(SLOTS + SLOTS / 2 - 1);
    } finally {
      await worker.terminate();
    }
  });
});
