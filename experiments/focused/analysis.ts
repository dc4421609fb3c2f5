/**
 * Metrics over runs and the paper's claims. Every CI is taken at the level of the random factor
 * (intervals.ts: the web seed, or the site when there is one web); claims are decided on paired
 * differences between strategies (same seed and site) with verdicts PASS / FAIL / TIE (with the
 * difference the runs could have detected), NO DATA when every run gave the same zero, and
 * INFEASIBLE when the ground-truth oracle itself cannot meet an absolute claim.
 */
import { recallAuc } from './meter.ts';
import { type CurveRow, ORACLE, type SummaryRow } from './rows.ts';
import {
  allOf,
  detectable,
  ciMethod,
  MIN_BAND_UNITS,
  bandsText,
  pairedCi,
  signVerdict,
  thresholdVerdict,
  unitCi,
  unitOf,
  type Ci,
  type Unit,
  type Verdict,
  groupBy,
  r4,
  runKey,
  share,
} from '../intervals.ts';
import { CURVE_METRICS, type MetricKey } from './metrics.ts';
import { f3 } from '../../lib/format.ts';

/** Mean curves per strategy and checkpoint: every metric of CURVE_METRICS with its CI (KEY_lo, KEY_hi). */
export type Aggregate = {
  strategy: string;
  pages: number;
  /** Runs (seed x site) and independent units (seeds, or sites of one web) behind the CI. */
  n: number;
  units: number;
} & Record<MetricKey | `${MetricKey}_lo` | `${MetricKey}_hi`, number>;

/** Mean curves with seed-level (or site-level, for one web) 95% CIs, per strategy and checkpoint. */
export function aggregate(curves: readonly CurveRow[]): Aggregate[] {
  const unit = unitOf(curves);
  const out: Aggregate[] = [];
  const groups = groupBy(curves, (c) => `${c.strategy}\u0000${c.pages}`);
  // the checkpoints every run of a strategy has: a run that ended early (out of links) adds a
  // point at its last page (RunMeter.finish) that the other runs lack, and a mean over the few
  // runs there drew spikes into the curves (the text's adaptive, issue #83)
  const runs = new Map<string, number>();
  for (const rows of groups) runs.set(rows[0].strategy, Math.max(runs.get(rows[0].strategy) ?? 0, rows.length));
  for (const rows of groups) {
    if (rows.length < runs.get(rows[0].strategy)!) continue;
    const row: Record<string, number | string> = {
      strategy: rows[0].strategy,
      pages: rows[0].pages,
      n: rows.length,
      units: unitCi(rows, () => 0, unit).n,
    };
    for (const { key } of CURVE_METRICS) {
      const c = share(unitCi(rows, (r) => r[key], unit));
      row[key] = c.mean;
      row[`${key}_lo`] = c.lo;
      row[`${key}_hi`] = c.hi;
    }
    out.push(row as Aggregate);
  }
  return out.sort((a, b) => a.strategy.localeCompare(b.strategy) || a.pages - b.pages);
}

/** One row of the difference figure: strategy minus the reference, paired, at one checkpoint. */
export interface Difference {
  strategy: string;
  reference: string;
  pages: number;
  diff: number;
  diff_lo: number;
  diff_hi: number;
}

/** Paired recall differences (strategy - reference) at every checkpoint, for every other crawl strategy. */
export function differences(
  curves: readonly CurveRow[],
  reference: string,
  metric: MetricKey = 'recall',
): Difference[] {
  const unit = unitOf(curves);
  const at = groupBy(curves, (c) => `${c.strategy}\u0000${c.pages}`);
  const index = new Map(at.map((rows) => [`${rows[0].strategy}\u0000${rows[0].pages}`, rows]));
  const out: Difference[] = [];
  for (const rows of at) {
    const s = rows[0].strategy;
    if (s === reference || s === ORACLE) continue;
    const ref = index.get(`${reference}\u0000${rows[0].pages}`);
    if (!ref) continue;
    const d = pairedCi(rows, ref, (r) => r[metric], unit);
    out.push({ strategy: s, reference, pages: rows[0].pages, diff: r4(d.mean), diff_lo: r4(d.lo), diff_hi: r4(d.hi) });
  }
  return out.sort((a, b) => a.strategy.localeCompare(b.strategy) || a.pages - b.pages);
}

export interface Claim {
  id: string;
  claim: string;
  source: string;
  measured: string;
  verdict: Verdict;
  /**
   * How far the claim clears its bounds, as a number: the smallest of the CI bounds that must lie
   * above 0 for a PASS (a lower bound of a difference that must be positive, an upper bound of one
   * that must not be negative, the lower bound of precision minus 0.5). Above 0 at a PASS; how far
   * below is how far the runs were from showing it (a search for a web where claims hold minimises
   * the shortfall: experiments/sweep/search.ts). Absent for claims without one.
   */
  margin?: number;
}

/** A paired difference as text; a TIE also says what the experiment could have detected (intervals.ts detectable). */
const fd = (c: Ci): string => {
  const base = `${c.mean >= 0 ? '+' : ''}${f3(c.mean)} [${f3(c.lo)}, ${f3(c.hi)}]`;
  const d = detectable(c);
  return signVerdict(c) === 'TIE' && Number.isFinite(d) ? `${base} (detectable: ±${f3(d)})` : base;
};

/**
 * Where each claim of the paper comes from: its figure and its sentence, as the project's reference
 * notes summarise the paper (its own wording is not in the project: these are the notes' words),
 * and, for C5, the second half issue #83 reports of the paper's text.
 */
const SOURCES = {
  C1: 'paper, fig. 2: "immediate grows fastest at first, then loses its way between communities"',
  C2: 'paper, fig. 2: "future finds paper directories but pays off late"',
  C3: 'paper, fig. 2: "adaptive is slightly below immediate at the start"',
  C4: 'paper, fig. 2: "then overtakes both in recall"',
  C5: 'paper, fig. 3: "adaptive precision stays above 50% after the early phase", and higher than the other two (issue #83)',
} as const;

/** What checkClaims gives a group of claims: the runs by strategy, and its helpers. */
interface ClaimKit {
  runsOf: ReadonlyMap<string, CurveRow[]>;
  has: (...s: string[]) => boolean;
  at: (s: string, pages: number) => CurveRow[];
  diff: (a: CurveRow[], b: CurveRow[], k?: 'recall' | 'precision') => Ci;
  push: (id: string, claim: string, source: string, verdict: Verdict, measured: string, margin?: number) => void;
  budget: number;
}

/** F1 and F2: the field's findings on its baselines (Menczer, Pant & Srinivasan 2004). */
function fieldClaims({ runsOf, has, at, diff, push, budget }: ClaimKit): void {
  // the standard evaluation of topical crawlers (Menczer, Pant & Srinivasan, ACM TOIT 2004)
  const auc = (s: string): CurveRow[] =>
    groupBy(runsOf.get(s)!, runKey).map((rows) => ({
      ...rows[0],
      recall: recallAuc(
        [...rows].sort((x, y) => x.pages - y.pages),
        budget,
      ),
    }));
  if (has('best-n-first', 'best-first')) {
    const d = diff(auc('best-n-first'), auc('best-first'));
    push(
      'F1',
      'Best-N-First beats best-first (recall AUC): exploration mixed into best-first pays',
      'Menczer, Pant & Srinivasan 2004',
      signVerdict(d),
      `recall AUC, best-n-first minus best-first ${fd(d)}`,
    );
  }
  if (has('infospiders', 'best-n-first')) {
    const d = diff(at('infospiders', budget), at('best-n-first', budget));
    push(
      'F2',
      `InfoSpiders overtake Best-N-First in long crawls (recall at ${budget})`,
      'Menczer, Pant & Srinivasan 2004',
      signVerdict(d),
      `recall at ${budget}, infospiders minus best-n-first ${fd(d)} (they report it for long crawls; ours are ${budget} pages per run)`,
    );
  }
}

/**
 * The paper's claims (and the literature's consensus), decided on paired per-run differences at
 * the unit level: a difference whose 95% CI contains 0 is a TIE. C5, the one absolute claim, is
 * INFEASIBLE when the oracle's mean precision falls to 50% or below after the early phase.
 */
export function checkClaims(curves: readonly CurveRow[], budget: number, every: number, earlyPhase: number): Claim[] {
  const unit: Unit = unitOf(curves);
  const runsOf = new Map(groupBy(curves, (c) => c.strategy).map((rows) => [rows[0].strategy, rows]));
  const has = (...s: string[]): boolean => s.every((x) => runsOf.has(x));
  const early = Math.max(every, Math.round((earlyPhase * budget) / every) * every);
  // a loop, not Math.max(...rows): past ~125,000 rows the spread overflows the stack (issue #70)
  const lastPages = curves.reduce((m, c) => Math.max(m, c.pages), Number.NEGATIVE_INFINITY);
  const at = (s: string, pages: number): CurveRow[] =>
    runsOf.get(s)!.filter((c) => c.pages === Math.min(pages, lastPages));
  // per run: mean recall over the checkpoints after the early phase
  const after = (s: string): CurveRow[] =>
    groupBy(
      runsOf.get(s)!.filter((c) => c.pages > early),
      runKey,
    ).map((rows) => ({ ...rows[0], recall: rows.reduce((a, r) => a + r.recall, 0) / rows.length }));
  const diff = (a: CurveRow[], b: CurveRow[], k: 'recall' | 'precision' = 'recall'): Ci =>
    pairedCi(a, b, (r) => r[k], unit);
  const claims: Claim[] = [];
  const push = (id: string, claim: string, source: string, verdict: Verdict, measured: string, margin?: number) => {
    claims.push({ id, claim, source, measured, verdict, ...(margin === undefined ? {} : { margin: r4(margin) }) });
  };
  // the paper's claims of its crawler: for adaptive (its text as it reads), and for a named
  // reading run beside it (adaptive-page), under ids of its own (C1-page ...)
  for (const [a, suffix] of [
    ['adaptive', ''],
    ['adaptive-page', '-page'],
  ] as const) {
    if (!has('immediate', 'future', a)) continue;
    const named = suffix ? `${a}: ` : '';
    const iF = diff(at('immediate', early), at('future', early)),
      iA = diff(at('immediate', early), at(a, early));
    startClaims({ runsOf, has, at, diff, push, budget, unit, early }, a, suffix, { iF, iA });
    push(
      `C3${suffix}`,
      `${named}Adaptive starts slightly below immediate (at ${early} pages)`,
      SOURCES.C3,
      signVerdict(iA),
      `recall at ${early}, immediate minus ${a} ${fd(iA)}`,
      iA.lo,
    );
    const aI = diff(after(a), after('immediate')),
      aF = diff(after(a), after('future'));
    const bI = diff(at(a, budget), at('immediate', budget)),
      bF = diff(at(a, budget), at('future', budget));
    push(
      `C4${suffix}`,
      `${named}Adaptive overtakes both in recall after the early phase (mean recall over pages ${early + every}-${budget}, and at ${budget})`,
      SOURCES.C4,
      allOf([
        signVerdict(aI),
        signVerdict(aF),
        signVerdict(bI) === 'FAIL' ? 'FAIL' : 'PASS',
        signVerdict(bF) === 'FAIL' ? 'FAIL' : 'PASS',
      ]),
      `mean recall after ${early}, ${a} minus immediate ${fd(aI)}, minus future ${fd(aF)}; at ${budget}: ${fd(bI)}, ${fd(bF)}`,
      Math.min(aI.lo, aF.lo, bI.hi, bF.hi),
    );
    adaptivePrecision({ runsOf, has, at, diff, push, budget, unit, early }, a, suffix);
  }
  fieldClaims({ runsOf, has, at, diff, push, budget });
  const focused = ['immediate', 'future', 'adaptive'].filter((s) => has(s));
  const baselines = ['bfs', 'random'].filter((s) => has(s));
  if (focused.length && baselines.length) {
    const parts = focused.flatMap((f) => baselines.map((b) => ({ f, b, ci: diff(at(f, budget), at(b, budget)) })));
    push(
      'C6',
      `Every focused strategy beats ${baselines.join(' and ')} on recall at ${budget} pages`,
      'literature consensus',
      allOf(parts.map((x) => signVerdict(x.ci))),
      parts.map((x) => `${x.f} minus ${x.b} ${fd(x.ci)}`).join('; '),
    );
  }
  return claims;
}

/**
 * C1 and C2, each its whole sentence (issue #83): "immediate value grows fastest at first, then
 * loses its way between communities" (its recall at the early checkpoint above future's and
 * adaptive's; then, a reading, the recall it gains after the early phase below theirs, paired per
 * run); "future value ... pays off late" (below immediate at the early checkpoint, above it at the
 * budget). C2 is the same for every reading of adaptive, so it is given once (no suffix).
 */
function startClaims(
  { runsOf, at, diff, push, budget, early }: ClaimKit & { unit: Unit; early: number },
  a: string,
  suffix: string,
  { iF, iA }: { iF: Ci; iA: Ci },
): void {
  // per run: recall at the budget minus recall at the early checkpoint
  const gained = (s: string): CurveRow[] => {
    const before = new Map(at(s, early).map((r) => [runKey(r), r.recall]));
    return at(s, budget).map((r) => ({ ...r, recall: r.recall - (before.get(runKey(r)) ?? 0) }));
  };
  const gF = diff(gained('future'), gained('immediate')),
    gA = diff(gained(a), gained('immediate'));
  push(
    `C1${suffix}`,
    `${suffix ? `${a}: ` : ''}Immediate value grows fastest at first (highest recall at ${early} pages), then ` +
      'loses its way (gains less recall after it than future and adaptive)',
    SOURCES.C1,
    allOf([signVerdict(iF), signVerdict(iA), signVerdict(gF), signVerdict(gA)]),
    `recall at ${early}, immediate minus future ${fd(iF)}, minus ${a} ${fd(iA)}; recall gained from ${early} ` +
      `to ${budget}, future minus immediate ${fd(gF)}, ${a} minus immediate ${fd(gA)}`,
    Math.min(iF.lo, iA.lo, gF.lo, gA.lo),
  );
  if (suffix || !runsOf.has('future')) return;
  const late = diff(at('future', budget), at('immediate', budget));
  push(
    'C2',
    `Future value is slow at first (below immediate at ${early} pages) and pays off late (above it at ${budget})`,
    SOURCES.C2,
    allOf([signVerdict(iF), signVerdict(late)]),
    `recall at ${early}, immediate minus future ${fd(iF)}; at ${budget}, future minus immediate ${fd(late)}`,
    Math.min(iF.lo, late.lo),
  );
}

/**
 * C5 for adaptive (or a named reading of it, its id suffixed): two claims in one sentence,
 * precision above 50% after the early phase where the oracle can reach it, and clearly above the
 * other two strategies' (paired: per run, the mean precision over the checkpoints after the early
 * phase).
 */
function adaptivePrecision(
  { runsOf, at, diff, push, unit, early }: ClaimKit & { unit: Unit; early: number },
  a: string,
  suffix: string,
): void {
  const c5 = precisionClaim(runsOf, a, early, at, unit);
  const precisionAfter = (s: string): CurveRow[] =>
    groupBy(
      runsOf.get(s)!.filter((c) => c.pages > early),
      runKey,
    ).map((rows) => ({ ...rows[0], precision: rows.reduce((x, r) => x + r.precision, 0) / rows.length }));
  const pI = diff(precisionAfter(a), precisionAfter('immediate'), 'precision'),
    pF = diff(precisionAfter(a), precisionAfter('future'), 'precision');
  push(
    `C5${suffix}`,
    `${suffix ? `${a}: ` : ''}Adaptive precision stays above 50% after the early phase (where the oracle can), ` +
      "and above immediate's and future's",
    SOURCES.C5,
    allOf([c5.verdict, signVerdict(pI), signVerdict(pF)]),
    `${c5.measured}; mean precision after ${early}, ${a} minus immediate ${fd(pI)}, minus future ${fd(pF)}`,
    c5.margin === undefined ? undefined : Math.min(c5.margin, pI.lo, pF.lo),
  );
}

/** Describes the CI method of a set of curves, e.g. for captions. */
export function curvesCiMethod(curves: readonly { seed: number; site: string }[]): string {
  const unit = unitOf(curves);
  return ciMethod(unit, unitCount(curves));
}

/** The units (seeds or sites) a set of curves' intervals are over. */
const unitCount = (curves: readonly { seed: number; site: string }[]): number => {
  const unit = unitOf(curves);
  return new Set(curves.map((c) => (unit === 'seed' ? String(c.seed) : c.site))).size;
};

/** Whether the figures of these curves draw bands, and the caption's words for them (intervals.ts bandsText). */
export function curvesBands(curves: readonly { seed: number; site: string }[]): { draw: boolean; text: string } {
  const n = unitCount(curves);
  return { draw: n >= MIN_BAND_UNITS, text: bandsText(unitOf(curves), n) };
}

/** Pages a strategy needs to reach a recall level (linear interpolation; null if never). */
export function pagesToRecall(aggs: readonly Aggregate[], strategy: string, level: number): number | null {
  const s = aggs.filter((a) => a.strategy === strategy);
  let prev = { pages: 0, recall: 0 };
  for (const a of s) {
    if (a.recall >= level)
      return prev.pages + ((level - prev.recall) / Math.max(1e-9, a.recall - prev.recall)) * (a.pages - prev.pages);
    prev = a;
  }
  return null;
}

/** Per-strategy totals over runs (ratios of totals, not means of ratios). */
export function totals(rows: readonly SummaryRow[]): { pages: number; found: number; pagesPerRelevant: number | null } {
  const pages = rows.reduce((a, r) => a + r.pages, 0);
  const found = rows.reduce((a, r) => a + r.relevant_found, 0);
  return { pages, found, pagesPerRelevant: found ? pages / found : null };
}

/** The checkpoints left out of a claim, in words: listed when few, else counted with their range (not contiguous in general). */
function excludedCheckpoints(points: readonly number[], kept: readonly number[]): string {
  const out = points.filter((p) => !kept.includes(p));
  return out.length <= 6
    ? `checkpoint${out.length === 1 ? '' : 's'} ${out.join(', ')}`
    : `${out.length} checkpoints between ${out[0]} and ${out[out.length - 1]}`;
}

/**
 * C5, decided where it can be met: the checkpoints after the early phase at which the oracle's
 * mean precision is above 50% (the oracle bounds every crawler's precision there); INFEASIBLE
 * where there is none, its margin then adaptive's shortfall over every checkpoint.
 */
function precisionClaim(
  runsOf: ReadonlyMap<string, CurveRow[]>,
  a: string,
  early: number,
  at: (s: string, pages: number) => CurveRow[],
  unit: Unit,
): { verdict: Verdict; measured: string; margin: number | undefined } {
  // the checkpoints every run has: a run that ended early adds a point of its own at its last page
  // (RunMeter.finish), which would count as a checkpoint that the other runs lack
  const runsAt = new Map<number, number>();
  for (const c of runsOf.get(a)!) if (c.pages > early) runsAt.set(c.pages, (runsAt.get(c.pages) ?? 0) + 1);
  const runs = Math.max(0, ...runsAt.values());
  const points = [...runsAt]
    .filter(([, n]) => n === runs)
    .map(([p]) => p)
    .sort((x, y) => x - y);
  const feasible = runsOf.has(ORACLE)
    ? points.filter((p) => unitCi(at(ORACLE, p), (r) => r.precision, unit).mean > 0.5)
    : points;
  const lowest = (ps: readonly number[]) =>
    ps
      .map((p) => ({ p, ci: unitCi(at(a, p), (r) => r.precision, unit) }))
      .sort((x, y) => x.ci.mean - y.ci.mean || x.p - y.p)[0];
  const prec = lowest(feasible);
  // where no crawler can meet it, the shortfall is still adaptive's, over every checkpoint
  const shortfall = prec ?? lowest(points);
  const window = feasible.length
    ? feasible.length === points.length
      ? `after ${early} pages`
      : `at ${feasible.length} of the ${points.length} checkpoints after ${early} pages ` +
        `(${excludedCheckpoints(points, feasible)}, where the oracle's mean precision is 0.5 or ` +
        `below, left out)`
    : '';
  return {
    verdict: !feasible.length ? 'INFEASIBLE' : prec ? thresholdVerdict(prec.ci, 0.5) : 'n/a',
    measured: feasible.length
      ? `lowest mean precision of ${a} ${window}: ${f3(prec.ci.mean)} [${f3(prec.ci.lo)}, ${f3(prec.ci.hi)}] at ${prec.p}`
      : `the oracle's mean precision is 0.5 or below at every checkpoint after ${early} pages: no crawler can meet the claim here`,
    margin: shortfall ? shortfall.ci.lo - 0.5 : undefined,
  };
}
