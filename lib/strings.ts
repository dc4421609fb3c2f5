/** String basics both sides use. */

/**
 * A string that holds its own characters only. V8 makes a substring of 13 characters or more (a
 * split word, an attribute value, a stem) a slice that keeps the whole string it came from, such
 * as a page, alive: a string kept in a long-lived memory (a cache of words, stems or links) is
 * copied first. The copy flattens " " + s and slices the space off.
 */
export const ownCopy = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));

/** Levenshtein distance (insertions, deletions, substitutions), with one row of memory. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/**
 * The closest of `known` to a mistyped `word`, as " (did you mean X?)", or '' when none is close:
 * at most a third of the word's letters apart (and 3), case ignored (so a case-only typo finds
 * its word), as git and npm suggest.
 */
export function didYouMean(word: string, known: readonly string[]): string {
  let best = '';
  let bestD = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  for (const k of known) {
    // a word that differs in case alone (Budget for budget) is the closest of all
    const d = editDistance(word.toLowerCase(), k.toLowerCase());
    if ((d > 0 || word !== k) && d <= bestD && (!best || d < bestD)) [best, bestD] = [k, d];
  }
  return best ? ` (did you mean ${best}?)` : '';
}
