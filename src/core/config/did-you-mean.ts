/**
 * "Did you mean" for mistyped keys: edit distance, tolerant of case, `-`/`_` and camelCase. The
 * distance is the one of validation/suggest.ts (the suggester of fields, commands and help topics);
 * the limit here is looser, as config keys and constant names are longer words.
 */
import { distance } from '../validation/suggest.js';

export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const norm = normalize(input);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = candidate === input ? 0 : normalize(candidate) === norm ? 0.5 : distance(input.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(input.length / 3));
  return best !== undefined && bestDistance <= limit ? best : undefined;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[-_]/g, '');
}
