/**
 * Read-ahead thread (built as dist/read-ahead-worker.cjs): reads the files of a run in order into
 * the shared ring (see read-ahead-layout.ts), so that the system calls of reading them run on the
 * other core while the checking thread parses and checks. It reads bytes only: anything unusual
 * about a file is left to the checking thread, which reads that file itself and reports it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { workerData } from 'node:worker_threads';
import { META_FIELDS, NEXT_FILE, NO_WAKE, NOT_READ, PRODUCED, RELEASED, SLOT_BYTES, SLOTS, WAKE_AT, type ReadAheadData } from './read-ahead-layout.js';

// As the checking thread opens them (files.ts): a file swapped for a FIFO since the walk does not block the open.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const { paths, control, meta, data, waitMs } = workerData as ReadAheadData;
const counters = new Int32Array(control);
const slots = new Int32Array(meta);
const bytes = new Uint8Array(data);

/** The file's length once read into the slot at `at`, or NOT_READ. */
function readInto(path: string, at: number): number {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch {
    return NOT_READ;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > SLOT_BYTES) return NOT_READ;
    let read = 0;
    for (let n = -1; n !== 0 && read < info.size; read += n) n = readSync(fd, bytes, at + read, info.size - read, null);
    return read;
  } catch {
    return NOT_READ;
  } finally {
    closeSync(fd);
  }
}

/**
 * Waits until a slot is free. The checking thread stops this thread when it is done, so the wait
 * has no end of its own; it looks again every `waitMs` should a wake-up be missed.
 */
function waitForSlot(produced: number): void {
  for (;;) {
    const released = Atomics.load(counters, RELEASED);
    if (produced - released < SLOTS) return;
    // Woken when half the ring is free again: one wake-up per many files, not one per file.
    Atomics.store(counters, WAKE_AT, produced - SLOTS / 2);
    Atomics.wait(counters, RELEASED, released, waitMs);
    Atomics.store(counters, WAKE_AT, NO_WAKE);
  }
}

let produced = 0;
for (let file = 0; file < paths.length; file++) {
  waitForSlot(produced);
  // The checking thread has read the files before NEXT_FILE itself (also while this one waited).
  file = Math.max(file, Atomics.load(counters, NEXT_FILE));
  if (file >= paths.length) break;
  const slot = produced % SLOTS;
  slots[slot * META_FIELDS] = file;
  slots[slot * META_FIELDS + 1] = readInto(paths[file]!, slot * SLOT_BYTES);
  // Published after the bytes: the checking thread reads PRODUCED first, then the slot.
  Atomics.store(counters, PRODUCED, ++produced);
}
