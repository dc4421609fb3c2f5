/**
 * Metrics over runs: mean and 95% confidence interval (Student t over the seed x site runs) of
 * recall and precision at each page count, and the paper's claims checked against them.
 */
import type { CurveRow } from './run-one.ts';

export interface Aggregate {
  strategy: string;
  pages: number;
  n: number;
  recall: number;
  recall_lo: number;
  recall_hi: number;
  precision: number;
  precision_lo: number;
  precision_hi: number;
}

// two-sided 95% Student t quantiles by degrees of freedom (1..30); 1.96 beyond
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];
export const t975 = (df: number): number => (df < 1 ? NaN : df <= 30 ? T975[df - 1] : 1.96);

export function meanCi(xs: readonly number[]): { mean: number; lo: number; hi: number } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, lo: mean, hi: mean };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const h = (t975(n - 1) * sd) / Math.sqrt(n);
  return { mean, lo: mean - h, hi: mean + h };
}

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Mean and 95% confidence interval of shares (recall, coverage): rounded to 4 places, clamped to [0, 1]. */
export function shareCi(xs: readonly number[]): { mean: number; lo: number; hi: number } {
  const m = meanCi(xs);
  return { mean: r4(m.mean), lo: r4(Math.max(0, m.lo)), hi: r4(Math.min(1, m.hi)) };
}

/** Items grouped by a key, groups in order of first appearance. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const g = groups.get(k);
    if (g) g.push(it);
    else groups.set(k, [it]);
  }
  return [...groups.values()];
}

export function aggregate(curves: readonly CurveRow[]): Aggregate[] {
  const out: Aggregate[] = [];
  for (const rows of groupBy(curves, (c) => `${c.strategy}\u0000${c.pages}`)) {
    const r = shareCi(rows.map((x) => x.recall));
    const p = shareCi(rows.map((x) => x.precision));
    out.push({ strategy: rows[0].strategy, pages: rows[0].pages, n: rows.length, recall: r.mean, recall_lo: r.lo, recall_hi: r.hi, precision: p.mean, precision_lo: p.lo, precision_hi: p.hi });
  }
  return out.sort((a, b) => a.strategy.localeCompare(b.strategy) || a.pages - b.pages);
}

export interface Claim {
  id: string;
  claim: string;
  source: string;
  measured: string;
  verdict: 'PASS' | 'FAIL' | 'n/a';
}

const f3 = (x: number): string => x.toFixed(3);

/** The paper's claims (and the literature's consensus) computed from the mean curves. */
export function checkClaims(aggs: readonly Aggregate[], budget: number, every: number, earlyPhase: number): Claim[] {
  const series = (s: string): Aggregate[] => aggs.filter((a) => a.strategy === s);
  const has = (...s: string[]): boolean => s.every((x) => series(x).length > 0);
  const early = Math.max(every, Math.round((earlyPhase * budget) / every) * every);
  const at = (s: string, pages: number): Aggregate => series(s).find((a) => a.pages === pages) ?? series(s)[series(s).length - 1];
  const after = (s: string): Aggregate[] => series(s).filter((a) => a.pages > early);
  const meanOf = (xs: Aggregate[], k: 'recall' | 'precision'): number => xs.reduce((a, x) => a + x[k], 0) / Math.max(1, xs.length);
  const claims: Claim[] = [];
  const push = (id: string, claim: string, source: string, ok: boolean | null, measured: string): void => {
    claims.push({ id, claim, source, measured, verdict: ok === null ? 'n/a' : ok ? 'PASS' : 'FAIL' });
  };
  if (has('immediate', 'future', 'adaptive')) {
    const i = at('immediate', early).recall, f = at('future', early).recall, a = at('adaptive', early).recall;
    push('C1', `Immediate value grows fastest at first (highest recall at ${early} pages)`, 'paper, fig. 2', i >= f && i >= a, `recall at ${early}: immediate ${f3(i)}, future ${f3(f)}, adaptive ${f3(a)}`);
    push('C2', `Future value is slow at first (below immediate at ${early} pages)`, 'paper, fig. 2', f < i, `recall at ${early}: future ${f3(f)} vs immediate ${f3(i)}`);
    push('C3', `Adaptive starts slightly below immediate (at ${early} pages)`, 'paper, fig. 2', a <= i, `recall at ${early}: adaptive ${f3(a)} vs immediate ${f3(i)}`);
    const ma = meanOf(after('adaptive'), 'recall'), mi = meanOf(after('immediate'), 'recall'), mf = meanOf(after('future'), 'recall');
    const fa = at('adaptive', budget).recall, fi = at('immediate', budget).recall, ff = at('future', budget).recall;
    push('C4', `Adaptive overtakes both in recall after the early phase (mean recall over pages ${early + every}-${budget}, and at ${budget})`, 'paper, fig. 2', ma > mi && ma > mf && fa >= fi && fa >= ff,
      `mean recall after ${early}: adaptive ${f3(ma)}, immediate ${f3(mi)}, future ${f3(mf)}; at ${budget}: ${f3(fa)}, ${f3(fi)}, ${f3(ff)}`);
    const minP = Math.min(...after('adaptive').map((x) => x.precision));
    push('C5', 'Adaptive precision stays above 50% after the early phase', 'paper, fig. 3', minP > 0.5, `lowest mean precision of adaptive after ${early} pages: ${f3(minP)}`);
  }
  const focused = ['immediate', 'future', 'adaptive'].filter((s) => has(s));
  const baselines = ['bfs', 'random'].filter((s) => has(s));
  if (focused.length && baselines.length) {
    const best = Math.max(...baselines.map((b) => at(b, budget).recall));
    const ok = focused.every((s) => at(s, budget).recall > best);
    push('C6', `Every focused strategy beats ${baselines.join(' and ')} on recall at ${budget} pages`, 'literature consensus', ok,
      [...focused, ...baselines].map((s) => `${s} ${f3(at(s, budget).recall)}`).join(', '));
  }
  return claims;
}

/** Pages a strategy needs to reach a recall level (linear interpolation; null if never). */
export function pagesToRecall(aggs: readonly Aggregate[], strategy: string, level: number): number | null {
  const s = aggs.filter((a) => a.strategy === strategy);
  let prev = { pages: 0, recall: 0 };
  for (const a of s) {
    if (a.recall >= level) return prev.pages + ((level - prev.recall) / Math.max(1e-9, a.recall - prev.recall)) * (a.pages - prev.pages);
    prev = a;
  }
  return null;
}
