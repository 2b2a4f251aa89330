/**
 * Runs `work` over items with at most `concurrency` in flight, in input order of start. Stops
 * starting new items once `signal` is aborted or `stop()` is called; items already running finish.
 * Returns the results by index; items never started are `undefined`.
 */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number, stop: () => void) => Promise<R>,
  signal?: AbortSignal,
): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(items.length).fill(undefined);
  let next = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  const lane = async () => {
    while (!stopped && !signal?.aborted && next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i, stop);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
  return results;
}
