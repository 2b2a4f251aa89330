/**
 * Reading files ahead on another thread (read-ahead-worker.ts) for a run checked on this one: the
 * open, stat, read and close of each file take about a third of this thread's time per file, and
 * they run there instead, while this thread parses and checks. Only bytes cross over: what a file
 * is, and why it cannot be read, this thread still finds out by reading that file itself.
 */
import type { Worker } from 'node:worker_threads';
import { builtScript, builtScriptOptions } from '../util/built-script.js';
import { CONTROL_LENGTH, META_FIELDS, NEXT_FILE, NO_WAKE, NOT_READ, PRODUCED, RELEASED, SLOT_BYTES, SLOTS, WAKE_AT, type ReadAheadData } from './read-ahead-layout.js';

export class ReadAhead {
  private readonly counters: Int32Array;
  private readonly slots: Int32Array;
  private readonly data: SharedArrayBuffer;
  /** The next entry of the ring to look at. */
  private entry = 0;
  /** Files whose bytes came from the ring. */
  taken = 0;

  private constructor(
    private readonly worker: Worker,
    shared: ReadAheadData,
  ) {
    this.counters = new Int32Array(shared.control);
    this.slots = new Int32Array(shared.meta);
    this.data = shared.data;
  }

  /**
   * Starts reading `paths` ahead; undefined when the reader is not built (running from sources).
   * Take the files in order with bytesOf, releasing each, and stop it when done.
   */
  static async start(paths: string[], { script = builtScript('read-ahead-worker.cjs'), waitMs = 1000 }: { script?: string | undefined; waitMs?: number } = {}): Promise<ReadAhead | undefined> {
    if (!script) return undefined;
    const { Worker } = await import('node:worker_threads');
    const control = new SharedArrayBuffer(CONTROL_LENGTH * 4);
    new Int32Array(control)[WAKE_AT] = NO_WAKE;
    const shared: ReadAheadData = { paths, waitMs, control, meta: new SharedArrayBuffer(SLOTS * META_FIELDS * 4), data: new SharedArrayBuffer(SLOTS * SLOT_BYTES) };
    // The reader only ever speeds a run up: should it fail to start or stop early, every file is read here.
    let worker: Worker;
    try {
      worker = new Worker(script, { ...builtScriptOptions(), workerData: shared });
    } catch {
      return undefined;
    }
    worker.on('error', () => {});
    // It never keeps the process alive: a run that ends, or is interrupted, does not wait for it.
    worker.unref();
    return new ReadAhead(worker, shared);
  }

  /**
   * The bytes of file `index` (as numbered in the paths given), when read ahead; valid until
   * release(). Undefined: read the file here.
   */
  bytesOf(index: number): Buffer | undefined {
    const counters = this.counters;
    Atomics.store(counters, NEXT_FILE, index);
    const produced = Atomics.load(counters, PRODUCED);
    for (; this.entry < produced; this.entry++) {
      const slot = this.entry % SLOTS;
      const file = this.slots[slot * META_FIELDS]!;
      // Entries of files this thread read itself meanwhile are passed over.
      if (file < index) continue;
      if (file > index) break;
      const length = this.slots[slot * META_FIELDS + 1]!;
      this.entry++;
      if (length === NOT_READ) return undefined;
      this.taken++;
      return Buffer.from(this.data, slot * SLOT_BYTES, length);
    }
    // Not there yet: this thread reads it, and the reader need not.
    Atomics.store(counters, NEXT_FILE, index + 1);
    return undefined;
  }

  /** Entries the reader has written so far, one per file it came to (read, or left to this thread). */
  get produced(): number {
    return Atomics.load(this.counters, PRODUCED);
  }

  /** Done with the bytes bytesOf gave: their slots may be filled again. */
  release(): void {
    const counters = this.counters;
    Atomics.store(counters, RELEASED, this.entry);
    if (this.entry >= Atomics.load(counters, WAKE_AT)) Atomics.notify(counters, RELEASED);
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

