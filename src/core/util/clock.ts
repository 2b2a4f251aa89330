/**
 * Milliseconds from a monotonic clock, for intervals (a yield to the event loop, a request's
 * deadline). Not `performance.now()`: the first read of the `performance` global loads Node's
 * perf_hooks internals, about 0.7 ms of a start, where process.hrtime is already there.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
