/**
 * Hash of a reference -> the number of the file where that hash came first, for the duplicate
 * reference check of a run of many files. Two Int32Arrays with open addressing instead of a Map:
 * a Map entry costs some 30 bytes of V8 heap (more while it grows), and a million adverts made the
 * heap, and with it the process's peak memory, grow with the count. Here an advert costs 8 to 16
 * bytes outside the heap, and nothing is left for the garbage collector to walk.
 */
export class FirstFileByHash {
  /** Hash + 1 per slot (0: empty); hashes are below 2^30, so hash + 1 never overflows. */
  private keys = new Int32Array(1024);
  private files = new Int32Array(1024);
  private count = 0;

  /** The file recorded for `hash`, or undefined after recording `file` for it. */
  firstOrAdd(hash: number, file: number): number | undefined {
    const slot = this.slotOf(hash);
    if (this.keys[slot] !== 0) return this.files[slot];
    this.keys[slot] = hash + 1;
    this.files[slot] = file;
    // Kept at most half full, so a probe ends soon.
    if (++this.count * 2 > this.keys.length) this.grow();
    return undefined;
  }

  private slotOf(hash: number): number {
    const mask = this.keys.length - 1;
    // Hashes of similar references differ in their low bits too (FNV-1a), so linear probing spreads well.
    let slot = hash & mask;
    while (this.keys[slot] !== 0 && this.keys[slot] !== hash + 1) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, files } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.files = new Int32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      const slot = this.slotOf(keys[i]! - 1);
      this.keys[slot] = keys[i]!;
      this.files[slot] = files[i]!;
    }
  }
}
