/**
 * The link classifier: multinomial Naive Bayes over link features, predicting a link's Q bin.
 * One estimator, sparse: log priors and Laplace-smoothed log conditionals from counts
 * (fromCounts), which add up, so the adaptive crawler retrains by adding online counts to the
 * offline ones. Posteriors P(bin | link) are computed sparsely; the expected Q of a link is
 * sum_b P(b | link) x mean_Q(b).
 *
 * Training fits at most `maxRows` examples (a seeded, class-stratified sample, on which the
 * features are also selected), then resets the log priors to the full training set's class
 * frequencies, so the sample changes the estimates of P(word | bin) only. The cap dates from the
 * dense ml-naivebayes this replaced; it stays so that trained models, and the results built on
 * them, are unchanged (the models and focused --quick CSVs were compared byte for byte).
 */
import { FeatureSpace } from './features.ts';
import type { Bins } from './qvalue.ts';
import { xorshift32 } from '../../lib/rng.ts';
import { append } from '../../lib/arrays.ts';

export interface Example {
  tokens: readonly string[];
  label: number;
}

export interface NbCounts {
  classCounts: Float64Array;
  featureCounts: Float64Array[];
}

export interface ClassifierJson {
  features: string[];
  logPrior: number[];
  logCond: number[][];
  bins: Bins;
}

export class LinkClassifier {
  private constructor(
    readonly space: FeatureSpace,
    private readonly logPrior: Float64Array,
    private readonly logCond: Float64Array[],
    readonly bins: Bins,
  ) {}

  get classes(): number {
    return this.logPrior.length;
  }

  static train(
    examples: readonly Example[],
    bins: Bins,
    opts: { maxRows?: number; seed?: number; space?: FeatureSpace } = {},
  ): LinkClassifier {
    const classes = bins.means.length;
    const maxRows = opts.maxRows ?? 12_000;
    const sample = stratifiedSample(examples, classes, maxRows, opts.seed ?? 1);
    // features are chosen on the same sample the model is fitted on
    const space = opts.space ?? FeatureSpace.select(sample, classes);
    const { logCond } = LinkClassifier.fromCounts(space, LinkClassifier.count(space, sample, classes), bins);
    const counts = new Float64Array(classes);
    for (const e of examples) counts[e.label]++;
    const logPrior = Float64Array.from(counts, (x) => Math.log((x + 1) / (examples.length + classes)));
    return new LinkClassifier(space, logPrior, logCond, bins);
  }

  /** Per-class example counts and per-class feature counts of examples, in a feature space. */
  static count(space: FeatureSpace, examples: readonly Example[], classes: number): NbCounts {
    return LinkClassifier.countVectors(
      space.size,
      examples.map((e) => ({ vector: space.vectorize(e.tokens), label: e.label })),
      classes,
    );
  }

  /** The same from examples already vectorised in the feature space. */
  static countVectors(
    features: number,
    examples: readonly { vector: ReadonlyMap<number, number>; label: number }[],
    classes: number,
  ): NbCounts {
    const classCounts = new Float64Array(classes);
    const featureCounts = Array.from({ length: classes }, () => new Float64Array(features));
    for (const e of examples) {
      classCounts[e.label]++;
      const row = featureCounts[e.label];
      e.vector.forEach((c, i) => {
        row[i] += c;
      });
    }
    return { classCounts, featureCounts };
  }

  /**
   * Multinomial estimates from counts: log((count + 1) / (class total + F)) per feature
   * (Laplace smoothing) and log((n_c + 1) / (n + classes)) per class. Counts add up: the
   * adaptive crawler retrains this way, offline counts plus online counts, every T pages. A test
   * checks the estimates on a hand-computed example, and that added-up counts give the trained model.
   */
  static fromCounts(space: FeatureSpace, counts: NbCounts, bins: Bins): LinkClassifier {
    const classes = counts.classCounts.length;
    const F = space.size;
    const logCond = counts.featureCounts.map((row) => {
      let total = 0;
      for (let j = 0; j < F; j++) total += row[j];
      return Float64Array.from(row, (x) => Math.log((x + 1) / (total + F)));
    });
    const n = counts.classCounts.reduce((a, b) => a + b, 0);
    const logPrior = Float64Array.from(counts.classCounts, (x) => Math.log((x + 1) / (n + classes)));
    return new LinkClassifier(space, logPrior, logCond, bins);
  }

  /** P(bin | tokens) for every bin. */
  posteriors(tokens: readonly string[]): Float64Array {
    return this.posteriorsInto(tokens, new Float64Array(this.classes));
  }

  /** Scratch of expectedQ(). */
  private scratch: Float64Array | null = null;

  /** posteriors() written into s. */
  private posteriorsInto(tokens: readonly string[], s: Float64Array): Float64Array {
    const space = this.space;
    const n = space.countInto(tokens);
    const { seenIds, seenCounts } = space;
    const k = this.classes;
    s.set(this.logPrior);
    for (let j = 0; j < n; j++) {
      const i = seenIds[j];
      const c = seenCounts[j];
      for (let b = 0; b < k; b++) s[b] += c * this.logCond[b][i];
    }
    let max = -Infinity;
    for (let b = 0; b < k; b++) max = Math.max(max, s[b]);
    let z = 0;
    for (let b = 0; b < k; b++) {
      s[b] = Math.exp(s[b] - max);
      z += s[b];
    }
    for (let b = 0; b < k; b++) s[b] /= z;
    return s;
  }

  /**
   * log P(class 1 | tokens) - log P(class 0 | tokens) of a two-class model: the posterior's
   * order without its saturation (long pages put P at 1.0 in floating point, and ties lose the
   * ranking).
   */
  logOdds(tokens: readonly string[]): number {
    if (this.classes !== 2) throw new Error('logOdds: a two-class model only');
    const space = this.space;
    const n = space.countInto(tokens);
    const { seenIds, seenCounts } = space;
    let d = this.logPrior[1] - this.logPrior[0];
    for (let j = 0; j < n; j++) {
      const i = seenIds[j];
      d += seenCounts[j] * (this.logCond[1][i] - this.logCond[0][i]);
    }
    return d;
  }

  expectedQ(tokens: readonly string[]): number {
    const p = this.posteriorsInto(tokens, (this.scratch ??= new Float64Array(this.classes)));
    let q = 0;
    for (let b = 0; b < p.length; b++) q += p[b] * this.bins.means[b];
    return q;
  }

  /** The most informative words of each bin: highest log P(w | bin) - mean over bins of log P(w | b'). */
  topWords(k = 15): { bin: number; meanQ: number; words: { word: string; score: number }[] }[] {
    const K = this.classes;
    return Array.from({ length: K }, (_, b) => {
      const scored = this.space.names.map((word, i) => {
        let mean = 0;
        for (let c = 0; c < K; c++) mean += this.logCond[c][i];
        return { word, score: this.logCond[b][i] - mean / K };
      });
      scored.sort((x, y) => y.score - x.score || (x.word < y.word ? -1 : 1));
      return {
        bin: b,
        meanQ: this.bins.means[b],
        words: scored.slice(0, k).map((s) => ({ word: s.word, score: Math.round(s.score * 1000) / 1000 })),
      };
    });
  }

  toJSON(): ClassifierJson {
    return {
      features: this.space.names,
      logPrior: Array.from(this.logPrior),
      logCond: this.logCond.map((r) => Array.from(r)),
      bins: this.bins,
    };
  }

  static fromJSON(j: ClassifierJson): LinkClassifier {
    return new LinkClassifier(
      new FeatureSpace(j.features),
      Float64Array.from(j.logPrior),
      j.logCond.map((r) => Float64Array.from(r)),
      j.bins,
    );
  }
}

/** Up to `max` examples, as even across classes as the data allows, in a seeded order. */
function stratifiedSample<T extends { label: number }>(
  xs: readonly T[],
  classes: number,
  max: number,
  seed: number,
): T[] {
  if (xs.length <= max) return [...xs];
  const by: T[][] = Array.from({ length: classes }, () => []);
  for (const x of xs) by[x.label].push(x);
  const rnd = xorshift32(seed);
  for (const arr of by)
    for (let i = arr.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [arr[i], arr[j]] = [arr[j], arr[i]];
    }
  const out: T[] = [];
  let quota = Math.floor(max / classes);
  let left = max;
  const sorted = [...by].sort((a, b) => a.length - b.length);
  for (let i = 0; i < sorted.length; i++) {
    const take = Math.min(sorted[i].length, quota);
    append(out, sorted[i].slice(0, take));
    left -= take;
    quota = Math.floor(left / Math.max(1, sorted.length - i - 1));
  }
  return out;
}
