/**
 * Errors already shown in full by this run. The embedded sandbox's storage failure (sandbox/embedded.ts)
 * is one error object that every request in flight meets; after the first advert's line, the others
 * say "the same error as above" instead of repeating its file and reason.
 */
const shown = new WeakSet<object>();

/** True when `error` was shown before; marks it shown. */
export function shownBefore(error: object): boolean {
  if (shown.has(error)) return true;
  shown.add(error);
  return false;
}

export const SAME_ERROR = 'the same error as above';
