/**
 * Keeps V8's heap near what is live in a run over many files.
 *
 * After each full collection V8 lets the old generation grow to up to four times what survived
 * before it collects again. Listing a folder of a million files leaves some 70 MB alive for a
 * moment, and when the collector also decides, while the first files are held for the workers, to
 * allocate some objects straight into the old generation, those objects (dead at once) pile up to
 * that fourfold limit: the same `validate` of a million files peaked at 247 MiB in some runs and
 * 427 MiB in others. Growth of half the live size bounds every such case at a few collections
 * more, each of a few milliseconds.
 *
 * The setting is process-wide (a V8 flag), so it is made only once a run is known to be large.
 * node:v8 is loaded then, not at start-up (and node:module, which loads Node's ESM loader, never).
 */

let kept = false;

export function keepHeapNearLive(): void {
  if (kept) return;
  kept = true;
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  setFlagsFromString('--heap-growing-percent=50');
}
