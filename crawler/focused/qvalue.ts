/**
 * Q-values after Rennie & McCallum: the value of following a link u -> v is the discounted
 * reward reachable through it,
 *   Q(u -> v) = V(v) = sum over relevant documents d reachable from v of gamma^dist(v, d),
 * with reward 1 per relevant document (a research paper), dist the shortest link distance
 * (v itself counts with distance 0). Each document is counted once, along its shortest path,
 * however many paths lead to it; documents further than `horizon` hops contribute nothing
 * (gamma^horizon is already small: 0.5^5 = 0.03). Computed by a breadth-first search backwards
 * from every relevant document.
 */

export interface LinkGraph {
  /** Out-links by node index. */
  out: readonly (readonly number[])[];
  /** Reward per node (1 for a relevant document, else 0). */
  reward: ArrayLike<number>;
}

export function stateValues(
  g: LinkGraph,
  gamma: number,
  horizon: number,
  aggregate: 'sum' | 'nearest' = 'sum',
): Float64Array {
  const n = g.out.length;
  const inc: number[][] = Array.from({ length: n }, () => []);
  for (let u = 0; u < n; u++) for (const v of g.out[u]) if (v >= 0 && v < n) inc[v].push(u);
  const V = new Float64Array(n);
  const dist = new Int32Array(n).fill(-1);
  const touched: number[] = [];
  for (let d = 0; d < n; d++) {
    if (!(g.reward[d] > 0)) continue;
    let frontier = [d];
    dist[d] = 0;
    touched.push(d);
    for (let k = 0; frontier.length && k <= horizon; k++) {
      const w = g.reward[d] * gamma ** k;
      const next: number[] = [];
      for (const v of frontier) {
        if (aggregate === 'sum') V[v] += w;
        else if (w > V[v]) V[v] = w;
        if (k === horizon) continue;
        for (const u of inc[v])
          if (dist[u] < 0) {
            dist[u] = k + 1;
            touched.push(u);
            next.push(u);
          }
      }
      frontier = next;
    }
    for (const t of touched) dist[t] = -1;
    touched.length = 0;
  }
  return V;
}

export interface Bins {
  /** Upper bounds of bins 0..B-2 (bin B-1 is unbounded). */
  thresholds: number[];
  /** Mean Q of the training links in each bin: the value a bin stands for. */
  means: number[];
}

/**
 * B bins: bin 0 holds links with (almost) nothing reachable (Q < 0.01); the positive Q values are
 * split into B - 1 bins of equal size (quantiles), so each bin has training examples.
 */
export function makeBins(qs: readonly number[], bins: number): Bins {
  if (bins < 2) throw new RangeError('at least 2 bins');
  const pos = qs.filter((q) => q >= 0.01).sort((a, b) => a - b);
  const thresholds = [0.01];
  for (let b = 1; b < bins - 1; b++) {
    let t = pos.length ? pos[Math.floor((b / (bins - 1)) * pos.length)] : 0.01 * (b + 1);
    // Q takes few distinct values (sums of powers of gamma): a quantile equal to the smallest one
    // would leave the bin below it empty, so move up to the next distinct value
    const prev = thresholds[thresholds.length - 1];
    if (pos.length && t <= Math.max(prev, pos[0])) t = pos.find((q) => q > Math.max(prev, pos[0])) ?? t;
    thresholds.push(t);
  }
  for (let b = 1; b < thresholds.length; b++)
    if (thresholds[b] <= thresholds[b - 1]) thresholds[b] = thresholds[b - 1] + 1e-9;
  const sum = new Float64Array(bins);
  const cnt = new Float64Array(bins);
  for (const q of qs) {
    const b = binOf({ thresholds, means: [] }, q);
    sum[b] += q;
    cnt[b]++;
  }
  const means = Array.from(sum, (s, b) => (cnt[b] ? s / cnt[b] : b === 0 ? 0 : thresholds[b - 1]));
  return { thresholds, means };
}

export function binOf(b: Bins, q: number): number {
  let i = 0;
  while (i < b.thresholds.length && q >= b.thresholds[i]) i++;
  return i;
}
