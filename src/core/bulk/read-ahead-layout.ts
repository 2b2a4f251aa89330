/**
 * The memory a read-ahead thread (read-ahead-worker.ts) and the thread checking the files
 * (read-ahead.ts) share: a ring of slots the reader fills with files' bytes in file order, and a
 * few counters. Neither thread ever waits for the other to read: a file whose bytes are not there
 * when they are needed is read by the checking thread itself, and the reader skips past it.
 */

/** Slots in the ring: files read ahead at most. */
export const SLOTS = 256;
/** Bytes per slot; a larger file is left to the checking thread. */
export const SLOT_BYTES = 64 * 1024;

/** Counters (an Int32Array of CONTROL_LENGTH). */
/** Entries the reader has written (entry n sits in slot n % SLOTS). */
export const PRODUCED = 0;
/** Entries the checking thread is done with: their slots may be written again. */
export const RELEASED = 1;
/** The file the checking thread needs next: the reader skips those before it. */
export const NEXT_FILE = 2;
/** While the reader waits for a slot: the RELEASED count at which to wake it (NO_WAKE otherwise). */
export const WAKE_AT = 3;
export const CONTROL_LENGTH = 4;
export const NO_WAKE = 0x7fffffff;

/** Per slot in the meta Int32Array: the file's index, and its length in bytes or NOT_READ. */
export const META_FIELDS = 2;
/** The reader did not read the file (not a regular file, too large for a slot, an error): the checking thread reads it and says why. */
export const NOT_READ = -1;

/** How the reader is set up (its workerData). */
export interface ReadAheadData {
  paths: string[];
  /** How long the reader waits for a wake-up before it looks at the ring again (a missed wake-up costs that long). */
  waitMs: number;
  control: SharedArrayBuffer;
  meta: SharedArrayBuffer;
  data: SharedArrayBuffer;
}
