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
  const limit = limitFor(input);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) return candidate;
    const other = candidate.toLowerCase();
    // Only a candidate within the limit, and closer than the best so far, can change the answer:
    // the edit distance is cut off there (a file of 40,000 unknown keys asks for 40,000 suggestions).
    const d = normalize(candidate) === norm ? 0.5 : distance(lower, other, Math.min(limit, Math.ceil(bestDistance) - 1));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= limit ? best : undefined;
}

/** The most edits a suggestion may be from what was typed. */
export function limitFor(input: string): number {
  return input.length <= 4 ? 1 : input.length <= 8 ? 2 : 3;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[-_]/g, '');
}

/**
 * Damerau-Levenshtein (optimal string alignment): a swapped pair of letters counts as one edit.
 * Past `max` edits the exact figure does not matter: any answer above `max` is returned as `max + 1`.
 */
export function distance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const cols = b.length + 1;
  // Three rows suffice: the swap looks two rows back.
  let before = new Uint32Array(cols);
  let previous = new Uint32Array(cols);
  let current = new Uint32Array(cols);
  for (let j = 0; j < cols; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2]! + 1);
      current[j] = v;
      if (v < rowMin) rowMin = v;
    }
    // Edits never decrease down the rows: once a whole row is past `max`, so is the answer.
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, max + 1);
}
