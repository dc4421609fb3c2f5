/**
 * Tokens for scoring: lower-case words split on anything but letters and digits, English
 * stopwords removed (natural's list), Porter-stemmed (natural's PorterStemmer) with a cache,
 * since crawl text repeats a bounded vocabulary.
 */
import { createRequire } from 'node:module';
import { ownCopy } from './strings.ts';

const require = createRequire(import.meta.url);
// submodules, not natural's index: the index takes a second to load and prints to stdout
const porter = require('natural/lib/natural/stemmers/porter_stemmer') as { stem(w: string): string };
const STOP = new Set<string>((require('natural/lib/natural/util/stopwords') as { words: string[] }).words);

/** Words and stems are kept as copies (lib/strings.ts): slices would keep their pages alive. */
const stems = new Map<string, string>();

export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = ownCopy(porter.stem(word));
    if (stems.size > 500_000) stems.clear();
    stems.set(ownCopy(word), s);
  }
  return s;
}

/** What a word becomes as a token: its stem, or null when it is dropped; remembered per word. */
const tokenOf = new Map<string, string | null>();

const isDigits = (w: string): boolean => {
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
};

/** Stemmed content words of a text. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  // ASCII text (most of it) splits with a plain character class, far faster than \p{L}
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL
  const parts = /[^\x00-\x7f]/.test(lower) ? lower.split(/[^\p{L}\p{N}]+/u) : lower.split(/[^a-z0-9]+/);
  for (const raw of parts) {
    if (raw.length < 2 || raw.length > 40) continue;
    // one look-up per word on the common path: the stopword test, the digits test and the stem
    // are remembered with the word (the vocabulary of crawl text is bounded; a fifth of training)
    let t = tokenOf.get(raw);
    if (t === undefined) {
      t = STOP.has(raw) || isDigits(raw) ? null : stem(raw);
      if (tokenOf.size > 500_000) tokenOf.clear();
      tokenOf.set(ownCopy(raw), t);
    }
    if (t !== null) out.push(t);
  }
  return out;
}

/**
 * What each word becomes as tokens, remembered: a word here has no whitespace, so tokens of a
 * text split at its whitespace are the tokens of its words in turn (lower-casing never looks
 * across a space, and a space always separates tokens). Empty results share one array.
 */
const wordTokens = new Map<string, readonly string[]>();
const NO_TOKENS: readonly string[] = Object.freeze([]);

/** tokenize(words.join(' ')), appended to `out`, without making the joined text. */
export function tokenizeWords(words: readonly string[], out: string[] = []): string[] {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    let ts = wordTokens.get(w);
    if (ts === undefined) {
      const t = tokenize(w);
      ts = t.length ? t : NO_TOKENS;
      if (wordTokens.size > 500_000) wordTokens.clear();
      wordTokens.set(ownCopy(w), ts);
    }
    for (let k = 0; k < ts.length; k++) out.push(ts[k]);
  }
  return out;
}

/** Term counts of a token list. */
export function counts(tokens: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** The terms of a keyword file: one per line, "term<TAB>anything", "#" lines are comments. */
export function readKeywords(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t')[0]);
}
