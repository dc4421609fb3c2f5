/**
 * The topic and the crawler's own relevance judgement.
 *
 * Topic vector q: every stem of the keyword list (data/vocab/computing.txt, ~13,000 computing
 * terms standing in for FOLDOC), weighted tf x idf, where tf = 1 + ln(occurrences of the stem in
 * the list) and idf = ln((N + 1) / (df + 1)) + 1 is learnt online from the documents fetched so far
 * (the crawler knows nothing else about the web).
 *
 * Immediate value (the paper's formula (1)): cos(q, d) = sum_w q_w d_w / (|q| |d|), with d the
 * tf-idf vector of the text judged (a page, or a link's words).
 *
 * Relevance judgement of a fetched document, in [0, 1]: 0.5 x [looks like a research paper: a
 * .pdf/.ps whose text has an abstract and a reference list] + 0.5 x min(1, cos(q, text) / 0.5).
 */
import { readFileSync } from 'node:fs';
import { resource, shipped } from '../../lib/paths.ts';
import { counts, readKeywords, tokenize } from '../../lib/text.ts';

const DEFAULT_KEYWORDS = shipped('data/vocab/computing.txt');

export function loadKeywords(file: string | URL = DEFAULT_KEYWORDS): string[] {
  return readKeywords(readFileSync(typeof file === 'string' ? resource(file) : file, 'utf8'));
}

/**
 * Keyword term frequencies (1 + ln count) by stem, for the last few keyword lists: every
 * strategy of a run and every calibration builds a Topic of the same ~13,000 keywords, and
 * stemming them took 11-15 ms each time. The maps are never changed after they are made.
 */
const weights = new Map<string, ReadonlyMap<string, number>>();

function keywordWeights(keywords: readonly string[]): ReadonlyMap<string, number> {
  const key = keywords.join('\u0000');
  let kw = weights.get(key);
  if (!kw) {
    const m = new Map<string, number>();
    for (const [w, n] of counts(keywords.flatMap((k) => tokenize(k)))) m.set(w, 1 + Math.log(n));
    if (weights.size >= 4) weights.delete(weights.keys().next().value!);
    weights.set(key, m);
    kw = m;
  }
  return kw;
}

/**
 * Term counts of a token array, kept with the array: a judged page is counted for idf and then
 * scored with the same tokens, and the strategies of one job share its tokens (judgedTokens).
 */
const termCountsMemo = new WeakMap<readonly string[], ReadonlyMap<string, number>>();
function termCounts(tokens: readonly string[]): ReadonlyMap<string, number> {
  let c = termCountsMemo.get(tokens);
  if (!c) termCountsMemo.set(tokens, (c = counts(tokens)));
  return c;
}

/** How many of a set of documents hold each term, and how many documents the set has. */
export interface DocumentFrequencies {
  docs: number;
  df: ReadonlyMap<string, number>;
}

/** The document frequencies of token lists (as addDocument() of each would count them). */
export function documentFrequencies(docs: readonly (readonly string[])[]): DocumentFrequencies {
  const df = new Map<string, number>();
  for (const tokens of docs) for (const w of termCounts(tokens).keys()) df.set(w, (df.get(w) ?? 0) + 1);
  return { docs: docs.length, df };
}

export class Topic {
  /** Keyword term frequencies (1 + ln count) by stem. */
  private readonly kw: ReadonlyMap<string, number>;
  private readonly df = new Map<string, number>();
  private docs = 0;
  private qNorm = 0;
  private qNormAt = -1;

  constructor(keywords: readonly string[]) {
    this.kw = keywordWeights(keywords);
  }

  get keywordStems(): number {
    return this.kw.size;
  }

  idf(w: string): number {
    return Math.log((this.docs + 1) / ((this.df.get(w) ?? 0) + 1)) + 1;
  }

  /** Counts a fetched document for idf. */
  addDocument(tokens: readonly string[]): void {
    this.docs++;
    for (const w of termCounts(tokens).keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
  }

  /**
   * Counts a set of documents at once, by their document frequencies (documentFrequencies()):
   * the same as addDocument() of each of them. Training adds the same sites' pages for every
   * model it calibrates; their frequencies are counted once per site and added here.
   */
  addDocuments(set: DocumentFrequencies): void {
    this.docs += set.docs;
    const df = this.df;
    set.df.forEach((n, w) => df.set(w, (df.get(w) ?? 0) + n));
  }

  private norm(): number {
    // |q| changes with idf, i.e. with every document: recomputed after each of the first 100
    // documents, then whenever the document count has grown by 1% (idf moves less than that)
    if (this.qNormAt < 0 || this.docs - this.qNormAt >= Math.max(1, Math.floor(this.qNormAt / 100))) {
      let s = 0;
      this.kw.forEach((tf, w) => {
        const x = tf * this.idf(w);
        s += x * x;
      });
      this.qNorm = Math.sqrt(s);
      this.qNormAt = this.docs;
    }
    return this.qNorm;
  }

  /** cos(q, tf-idf(tokens)), in [0, 1]. */
  similarity(tokens: readonly string[]): number {
    if (!tokens.length) return 0;
    let dot = 0;
    let dn = 0;
    // forEach, not for-of over entries: an entry array per term was a fifth of training's garbage
    termCounts(tokens).forEach((n, w) => {
      const idf = this.idf(w);
      const x = (1 + Math.log(n)) * idf;
      dn += x * x;
      const q = this.kw.get(w);
      if (q !== undefined) dot += q * idf * x;
    });
    return dn === 0 ? 0 : dot / (this.norm() * Math.sqrt(dn));
  }

  /** The crawler's own judgement; see the module comment. */
  judge(
    kind: string,
    text: string,
    tokens: readonly string[],
  ): { relevance: number; paper: boolean; similarity: number } {
    const similarity = this.similarity(tokens);
    const paper = looksLikePaper(kind, text);
    return { relevance: 0.5 * (paper ? 1 : 0) + 0.5 * Math.min(1, similarity / 0.5), paper, similarity };
  }
}

/** A research paper, judged from content: a PDF/PS with an abstract and a reference list. */
export function looksLikePaper(kind: string, text: string): boolean {
  return (kind === 'pdf' || kind === 'ps') && /\babstract\b/i.test(text) && /\breferences\b/i.test(text);
}
