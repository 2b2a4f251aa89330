/**
 * "Did you mean ...?" for every mistyped name: fields, config keys, constant names, event kinds,
 * commands and help topics. One suggester, one threshold.
 *
 * Candidates are compared ignoring case, `-` and `_` (`base-url`, `BaseUrl` and `base_url` are one
 * name), then by edit distance. The threshold grows with the word typed: at most 1 edit up to 4
 * characters, 2 up to 8, 3 beyond. A short word two edits from a candidate is usually another word
 * (`tag` is two edits from `tab`, `id` and `it`), and 3 edits is enough for the longest keys.
 */
export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const norm = normalize(input);
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) return candidate;
    const d = normalize(candidate) === norm ? 0.5 : distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= limitFor(input) ? best : undefined;
}

/** The most edits a suggestion may be from what was typed. */
export function limitFor(input: string): number {
  return input.length <= 4 ? 1 : input.length <= 8 ? 2 : 3;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[-_]/g, '');
}

/** Damerau-Levenshtein (optimal string alignment): a swapped pair of letters counts as one edit. */
export function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
