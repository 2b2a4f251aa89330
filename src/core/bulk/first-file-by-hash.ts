/**
 * Hash of a reference -> the number of the file where that hash came first, for the duplicate
 * reference check of a run of many files. The hash is two 30-bit hashes (60 bits): with one, a
 * million different references had some 500 pairs in common, and each such suspect made the run
 * walk its folders again at the end to tell (a second listing of a million names, the run's peak). Two Int32Arrays with open addressing instead of a Map:
 * a Map entry costs some 30 bytes of V8 heap (more while it grows), and a million adverts made the
 * heap, and with it the process's peak memory, grow with the count. Here an advert costs 12 to 24
 * bytes outside the heap, and nothing is left for the garbage collector to walk.
 */
export class FirstFileByHash {
  /** Hash + 1 per slot (0: empty); hashes are below 2^30, so hash + 1 never overflows. */
  private keys = new Int32Array(1024);
  /** The second hash of each slot. */
  private seconds = new Int32Array(1024);
  private files = new Int32Array(1024);
  private count = 0;

  /** The file recorded for `hash`, or undefined after recording `file` for it. */
  firstOrAdd(hash: number, second: number, file: number): number | undefined {
    const slot = this.slotOf(hash, second);
    if (this.keys[slot] !== 0) return this.files[slot];
    this.keys[slot] = hash + 1;
    this.seconds[slot] = second;
    this.files[slot] = file;
    // Kept at most half full, so a probe ends soon.
    if (++this.count * 2 > this.keys.length) this.grow();
    return undefined;
  }

  private slotOf(hash: number, second: number): number {
    const mask = this.keys.length - 1;
    // Hashes of similar references differ in their low bits too (FNV-1a), so linear probing spreads well.
    let slot = hash & mask;
    while (this.keys[slot] !== 0 && (this.keys[slot] !== hash + 1 || this.seconds[slot] !== second)) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, seconds, files } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.seconds = new Int32Array(keys.length * 2);
    this.files = new Int32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      const slot = this.slotOf(keys[i]! - 1, seconds[i]!);
      this.keys[slot] = keys[i]!;
      this.seconds[slot] = seconds[i]!;
      this.files[slot] = files[i]!;
    }
  }
}
