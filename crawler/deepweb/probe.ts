/**
 * Iterative keyword probing of a text input (Ntoulas, Zerfos & Cho, JCDL 2005; Madhavan et al.
 * for growing keywords from result pages). Start with the user's seed keywords; then pick each
 * next keyword by a policy:
 *  - random:   a random word of a dictionary;
 *  - generic:  the next most frequent word of a generic corpus;
 *  - adaptive: among the words mined from the results so far (top by tf-idf against the generic
 *              corpus), the one with the most expected new records per cost.
 * Queries go in rounds; probing stops when a whole round brings no new record, when no keyword
 * is left, or when the budget runs out.
 *
 * Adaptive estimate (Ntoulas et al., section 3): a keyword's matches are predicted from its rank
 * by document frequency among the records downloaded so far, through Zipf's law fitted to the
 * totals the site reported for the keywords already queried; expected new records are the
 * returned ones (the site shows at most its top k) not already held; cost is result pages.
 */
import type { SurfaceSession } from './session.ts';
import { words } from './results.ts';
import { isKeywordBox } from './forms.ts';
import { SeededRandom } from './random.ts';

export type ProbePolicy = 'random' | 'generic' | 'adaptive';
export const PROBE_POLICIES: readonly ProbePolicy[] = ['random', 'generic', 'adaptive'];

export interface ProbeOptions {
  policy: ProbePolicy;
  /** Name of the text input to probe (default: the form's first keyword box). */
  input?: string;
  /** The user's hint: keywords tried first, in order. */
  seeds: string[];
  /** Word list for the random policy. */
  dictionary: string[];
  /** Words of a generic corpus, most frequent first (the generic policy, and idf for mining). */
  generic: string[];
  /** Queries per round; a round without a new record ends probing. */
  roundSize: number;
  /** Candidate keywords kept from mining (top by tf-idf). */
  candidates: number;
  seed: number;
  /** Other inputs bound in every probe (e.g. a required select); default none. */
  fixed?: Record<string, string>;
}

export const DEFAULT_PROBE: Omit<ProbeOptions, 'policy' | 'seeds' | 'dictionary' | 'generic'> = {
  roundSize: 10,
  candidates: 300,
  seed: 1,
};

export interface ProbeStep {
  keyword: string;
  /** Total matches the site reported (null: it did not say). */
  reported: number | null;
  returned: number;
  newRecords: number;
  pages: number;
  /** Adaptive: predicted matches and new records for the chosen keyword. */
  predicted?: { matches: number; fresh: number };
}

export interface ProbeResult {
  steps: ProbeStep[];
  stopped: 'no-new-records' | 'budget' | 'no-keywords';
}

/** Least-squares line through (log x, log y): log y = a + slope log x; null with fewer than two distinct x. */
export function logLogFit(points: readonly { x: number; y: number }[]): { a: number; slope: number } | null {
  const p = points.filter((q) => q.x > 0 && q.y > 0);
  if (new Set(p.map((q) => q.x)).size < 2) return null;
  const xs = p.map((q) => Math.log(q.x));
  const ys = p.map((q) => Math.log(q.y));
  const mx = xs.reduce((s, v) => s + v, 0) / xs.length;
  const my = ys.reduce((s, v) => s + v, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  const slope = sxy / sxx;
  return { a: my - slope * mx, slope };
}

/** Where w goes in a list sorted by < (after any equal word). */
function insertionPoint(sorted: readonly string[], w: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= w) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Zipf's law count = e^a rank^-b fitted to (rank, count) points. */
export function fitZipf(points: readonly { rank: number; count: number }[]): { a: number; b: number } | null {
  const f = logLogFit(points.map((q) => ({ x: q.rank, y: q.count })));
  return f && { a: f.a, b: -f.slope };
}

/**
 * Document frequency of each word among the records surfaced so far, kept up to date: the
 * session only ever appends records (in insertion order, text fixed), so only the ones added
 * since the last call are read (recounting every record for each query was a third of a run).
 */
class DocFrequencies {
  readonly counts = new Map<string, number>();
  /**
   * Every word of counts in code-unit order (as < compares), kept sorted as words arrive: the
   * orderings of the adaptive policy break ties by word, and a stable sort of words already in
   * that order needs no string comparison (sorting every entry by count and word for each query
   * was most of an adaptive run on a large vocabulary).
   */
  readonly lexical: string[] = [];
  private read = 0;
  constructor(private readonly session: SurfaceSession) {}

  update(): Map<string, number> {
    let i = 0;
    for (const text of this.session.records.values()) {
      if (i++ < this.read) continue;
      for (const w of new Set(words(text))) {
        const n = this.counts.get(w);
        if (n === undefined) this.lexical.splice(insertionPoint(this.lexical, w), 0, w);
        this.counts.set(w, (n ?? 0) + 1);
      }
    }
    this.read = i;
    return this.counts;
  }
}

/**
 * The best `n` unqueried words by tf-idf against the generic corpus (best first, equal scores in
 * word order), and how many words each document frequency has; within[i]: word i's place among
 * the words of its frequency, in lexical order.
 */
function candidatePool(
  lexical: readonly string[],
  d: ReadonlyMap<string, number>,
  queried: ReadonlySet<string>,
  genericRank: ReadonlyMap<string, number>,
  genericSize: number,
  n: number,
  within: Int32Array,
): { pool: { w: string; f: number; score: number; at: number }[]; perCount: Map<number, number> } {
  const maxIdf = Math.log(2 + genericSize);
  const perCount = new Map<number, number>();
  const pool: { w: string; f: number; score: number; at: number }[] = [];
  for (let i = 0; i < lexical.length; i++) {
    const w = lexical[i];
    const f = d.get(w)!;
    const k = perCount.get(f) ?? 0;
    within[i] = k;
    perCount.set(f, k + 1);
    if (queried.has(w)) continue;
    const g = genericRank.get(w);
    const score = f * (g === undefined ? maxIdf : Math.log(1 + g));
    if (pool.length === n && !(score > pool[pool.length - 1].score)) continue;
    let lo = 0;
    let hi = pool.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pool[mid].score >= score) lo = mid + 1;
      else hi = mid;
    }
    pool.splice(lo, 0, { w, f, score, at: i });
    if (pool.length > n) pool.pop();
  }
  return { pool, perCount };
}

export async function probe(
  session: SurfaceSession,
  options: Omit<ProbeOptions, keyof typeof DEFAULT_PROBE> & Partial<ProbeOptions>,
): Promise<ProbeResult> {
  const o: ProbeOptions = { ...DEFAULT_PROBE, ...options };
  const input = o.input ?? session.form.inputs.find(isKeywordBox)?.name;
  if (!input) return { steps: [], stopped: 'no-keywords' };
  const chooser = new KeywordChooser(o, session);
  const { steps } = chooser;
  for (;;) {
    let roundNew = 0;
    for (let q = 0; q < o.roundSize; q++) {
      if (session.exhausted) return { steps, stopped: 'budget' };
      const pick = chooser.next();
      if (!pick) return { steps, stopped: 'no-keywords' };
      chooser.queried.add(pick.keyword);
      const r = await session.query({ ...(o.fixed ?? {}), [input]: pick.keyword }, `probe:${o.policy}`);
      const reported = r.first?.total ?? null;
      chooser.pageSize = Math.max(chooser.pageSize, r.first?.records.length ?? 0);
      // the site showed fewer records than it reported: that many is its top-k cap
      if (reported !== null && r.records.length < reported && !session.exhausted)
        chooser.topK = Math.min(chooser.topK, r.records.length);
      steps.push({
        keyword: pick.keyword,
        reported,
        returned: r.records.length,
        newRecords: r.newRecords,
        pages: r.pages,
        predicted: pick.predicted,
      });
      roundNew += r.newRecords;
    }
    if (roundNew === 0) return { steps, stopped: 'no-new-records' };
  }
}

type Prediction = { matches: number; fresh: number };

/**
 * The next keyword to probe with, by the policy: the seeds first, then random dictionary words,
 * generic words in corpus order, or (adaptive) the word that promises the most new records per
 * result page, from what the probes so far returned.
 */
class KeywordChooser {
  readonly queried = new Set<string>();
  readonly steps: ProbeStep[] = [];
  /** the most records a result page showed */
  pageSize = 1;
  /** the site's top-k cap, once a query showed fewer records than it reported */
  topK = Number.POSITIVE_INFINITY;
  private readonly rnd: SeededRandom;
  private readonly genericRank: Map<string, number>;
  private readonly seedQueue: string[];
  private genericAt = 0;
  private readonly freq: DocFrequencies;
  /** Each word's place among the words of its count, by its position in lexical (scratch of nextAdaptive). */
  private within = new Int32Array(0);

  constructor(
    private readonly o: ProbeOptions,
    session: SurfaceSession,
  ) {
    this.rnd = new SeededRandom(o.seed);
    this.genericRank = new Map(o.generic.map((w, i) => [w, i + 1]));
    this.seedQueue = o.seeds.map((w) => w.toLowerCase()).filter((w) => w);
    this.freq = new DocFrequencies(session);
  }

  next(): { keyword: string; predicted?: Prediction } | null {
    const { o, queried } = this;
    while (this.seedQueue.length) {
      const w = this.seedQueue.shift()!;
      if (!queried.has(w)) return { keyword: w };
    }
    if (o.policy === 'random') {
      for (let tries = 0; tries < 1000; tries++) {
        const w = o.dictionary[this.rnd.int(o.dictionary.length)];
        if (w && !queried.has(w)) return { keyword: w };
      }
      return null;
    }
    if (o.policy === 'generic') {
      while (this.genericAt < o.generic.length) {
        const w = o.generic[this.genericAt++];
        if (!queried.has(w)) return { keyword: w };
      }
      return null;
    }
    return this.nextAdaptive();
  }

  private nextAdaptive(): { keyword: string; predicted: Prediction } | null {
    const { o, freq } = this;
    const lexical = freq.lexical;
    const d = freq.update();
    if (this.within.length < lexical.length) this.within = new Int32Array(2 * lexical.length);
    const within = this.within;
    // tf-idf against the generic corpus: under Zipf's law a word's generic frequency falls as
    // 1/rank, so log(rank) stands in for its idf; words the corpus lacks get the largest idf.
    // One pass keeps the best o.candidates (best first, equal scores in word order) and counts
    // the words of each document frequency; sorting the whole vocabulary for every query, and a
    // map of every word's rank, were most of an adaptive run.
    const { pool, perCount } = candidatePool(
      lexical,
      d,
      this.queried,
      this.genericRank,
      o.generic.length,
      o.candidates,
      within,
    );
    if (!pool.length) return null;
    // rank by document frequency, most frequent first, ties in word order: the words of every
    // higher count, then the word's place among those of its own
    const above = new Map<number, number>();
    let higher = 0;
    for (const f of [...perCount.keys()].sort((x, y) => y - x)) {
      above.set(f, higher);
      higher += perCount.get(f)!;
    }
    const rankAt = (at: number): number => above.get(d.get(lexical[at])!)! + within[at] + 1;
    const queriedRanks: { rank: number; count: number }[] = [];
    for (const s of this.steps) {
      const at = insertionPoint(lexical, s.keyword) - 1;
      if (at >= 0 && lexical[at] === s.keyword)
        queriedRanks.push({ rank: rankAt(at), count: s.reported ?? s.returned });
    }
    const zipf = fitZipf(queriedRanks);
    let best: { keyword: string; predicted: Prediction; value: number } | null = null;
    for (const c of pool) {
      const matches = zipf ? Math.max(c.f, Math.exp(zipf.a - zipf.b * Math.log(rankAt(c.at)))) : c.f * 2;
      const returned = Math.min(matches, this.topK);
      const fresh = returned * Math.max(0, 1 - c.f / matches);
      const cost = Math.max(1, Math.ceil(returned / this.pageSize));
      const value = fresh / cost;
      if (!best || value > best.value) best = { keyword: c.w, predicted: { matches, fresh }, value };
    }
    return best && { keyword: best.keyword, predicted: best.predicted };
  }
}
