/**
 * One 'abort' listener per signal, fanning out to whoever is waiting on it. Every request in flight
 * (and every retry pause) waits on the run's signal; a listener each made Node warn of a leak
 * (MaxListenersExceededWarning) as soon as --concurrency went above 10, though none leaked.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts (not if it already has: check `aborted` first, as with
 * addEventListener). Returns the function that stops listening.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let listeners = waiting.get(signal);
  if (listeners === undefined) {
    const all = new Set<() => void>();
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const each of [...all]) each();
      },
      { once: true },
    );
    waiting.set(signal, all);
    listeners = all;
  }
  const own = () => listener();
  listeners.add(own);
  return () => void listeners.delete(own);
}
