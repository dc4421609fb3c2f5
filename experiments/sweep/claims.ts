/**
 * The paper's claims (experiments/focused/analysis.ts checkClaims) over many points of a sweep or
 * a search: each point's verdicts and margins, and per claim the share of points where it holds.
 */
import { type Claim, checkClaims } from '../focused/analysis.ts';
import type { ExperimentConfig } from '../focused/config.ts';
import { type Verdict, wilson } from '../intervals.ts';
import type { PointData, SweepData } from './sweep-data.ts';

/** The paper's claims at one point (none when it lacks immediate, future or adaptive). */
export function claimsAt(cfg: ExperimentConfig, p: PointData): Claim[] {
  const curves = p.curves;
  if (!['immediate', 'future', 'adaptive'].every((s) => curves.some((c) => c.strategy === s))) return [];
  // a point may set these itself (a sweep over the budget, say)
  const num = (k: 'budget' | 'every' | 'earlyPhase'): number =>
    typeof p.values[k] === 'number' ? (p.values[k] as number) : cfg[k];
  return checkClaims(curves, num('budget'), num('every'), num('earlyPhase'));
}

/**
 * How close a point comes to every claim holding: the claims that hold (PASS), and the shortfall,
 * the sum over the others of how far their margin falls below 0 (a claim without a margin counts 1).
 */
export function closeness(claims: readonly Claim[]): { held: number; shortfall: number } {
  let held = 0;
  let shortfall = 0;
  for (const c of claims) {
    if (c.verdict === 'PASS') held++;
    else shortfall += c.margin === undefined ? 1 : Math.max(0, -c.margin);
  }
  return { held, shortfall: Math.round(shortfall * 1e4) / 1e4 };
}

/** The paper's claims (checkClaims) at every point, and per claim the verdicts' counts and the share that hold. */
export function claimsAcrossPoints(d: Pick<SweepData, 'config' | 'points'>): {
  rows: Record<string, unknown>[];
  table: { id: string; claim: string; counts: Record<Verdict, number>; share: number; lo: number; hi: number }[];
} {
  const cfg = d.config;
  const rows: Record<string, unknown>[] = [];
  const byClaim = new Map<string, { claim: string; counts: Record<Verdict, number> }>();
  for (const p of d.points) {
    for (const c of claimsAt(cfg, p)) {
      rows.push({ point: p.index, ...p.values, claim: c.id, verdict: c.verdict, margin: c.margin ?? '' });
      const e = byClaim.get(c.id) ?? {
        claim: c.claim,
        counts: { PASS: 0, FAIL: 0, TIE: 0, 'NO DATA': 0, INFEASIBLE: 0, 'n/a': 0 },
      };
      e.counts[c.verdict]++;
      byClaim.set(c.id, e);
    }
  }
  const table = [...byClaim].map(([id, e]) => {
    const n = Object.values(e.counts).reduce((a, b) => a + b, 0);
    const [lo, hi] = wilson(e.counts.PASS, n);
    return { id, claim: e.claim, counts: e.counts, share: n ? e.counts.PASS / n : 0, lo, hi };
  });
  return { rows, table };
}
