/**
 * "Did you mean" suggestions for misspelt field names and filter keys (and, through the module's
 * index, for policy tests' property names, catalog fields and rule names): the closest candidate
 * by edit distance, if it is close enough to be a typo rather than a different word.
 */

/**
 * Edit distance with adjacent transpositions counted as one edit (`owsap` is one edit from `owasp`,
 * the typo people make most), bounded: stops early once every path exceeds `limit`.
 */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], before[j - 2] + 1);
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > limit) return limit + 1;
    before = prev;
    prev = cur;
  }
  return prev[b.length];
}

/** The candidate closest to `word` (at most 2 edits, or a third of its length), if any. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.min(2, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase(), limit);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
