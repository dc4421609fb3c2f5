import { describe, expect, it } from 'vitest';
import { hash32, Sfc32 } from './rng.ts';
import {
  formatRules,
  learnAlternatives,
  learnRules,
  scoreRules,
  type Literal,
  type RuleExample,
  type RuleList,
} from './rules.ts';

/** Links of a toy department: papers are .pdf/.ps outside /courses/; syllabi are .pdf inside it. */
function site(seed: number): RuleExample[] {
  const out: RuleExample[] = [];
  let x = seed;
  const next = (): number => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
  for (let i = 0; i < 600; i++) {
    const dir = ['courses', 'people', 'pubs', 'admin', 'groups'][Math.floor(next() * 5)];
    const ext = ['html', 'pdf', 'ps'][Math.floor(next() * 3)];
    const noise = `w${Math.floor(next() * 40)}`;
    out.push({
      features: [`dir:${dir}`, `ext:${ext}`, `anchor:${noise}`],
      positive: (ext === 'pdf' || ext === 'ps') && dir !== 'courses' && dir !== 'admin',
    });
  }
  return out;
}

describe('the rule learner', () => {
  it('finds a planted rule on some sites and keeps it on another', () => {
    const list = learnRules([...site(1), ...site(2), ...site(3)]);
    const held = scoreRules(list, site(4));
    expect(held).toMatchObject({ precision: 1, recall: 1 });
    const text = formatRules(list);
    expect(text).toMatch(/ext:pdf|ext:ps|ext:html/);
    expect(text).toMatch(/not dir:courses|not dir:admin|dir:people|dir:pubs|dir:groups/);
  });

  it('learns nothing where nothing is to be learnt, and says so', () => {
    const noise = site(5).map((e, i) => ({ ...e, positive: i % 7 === 0 }));
    const list = learnRules(noise);
    expect(
      scoreRules(
        list,
        site(6).map((e, i) => ({ ...e, positive: i % 7 === 0 })),
      ).precision,
    ).toBeLessThan(0.5);
    expect(formatRules({ rules: [], f1: 0 })).toBe('(no rule beats matching nothing)');
  });
});

/**
 * The learner's definition, written plainly over sets: each step scores every candidate literal by
 * the F1 of the list with the rule narrowed by it (the first of equals wins), candidates being the
 * most frequent features among the examples the rule still matches (ties by name).
 */
function learnPlainly(
  xs: readonly RuleExample[],
  o = { maxRules: 3, maxLiterals: 4, candidates: 400 },
  first?: Literal,
): RuleList {
  const positives = xs.filter((x) => x.positive).length;
  const has = xs.map((x) => new Set(x.features));
  const covered = new Set<number>();
  const f1 = (set: Set<number>): number => {
    let tp = 0;
    for (const i of set) if (xs[i].positive) tp++;
    return tp ? (2 * tp) / (set.size + positives) : 0;
  };
  const rules: Literal[][] = [];
  let listF1 = 0;
  for (let r = 0; r < o.maxRules && positives; r++) {
    const rule: Literal[] = [];
    let inRule = new Set(xs.map((_, i) => i));
    let ruleF1 = -1;
    for (let l = 0; l < o.maxLiterals; l++) {
      const freq = new Map<string, number>();
      for (const i of inRule) for (const f of has[i]) freq.set(f, (freq.get(f) ?? 0) + 1);
      const cands = [...freq]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, o.candidates)
        .map(([f]) => f);
      const forced = r === 0 && l === 0 && first && xs.some((x) => x.features.includes(first.feature)) ? first : null;
      let best: { lit: Literal; f1: number; set: Set<number> } | null = null;
      for (const f of forced ? [forced.feature] : cands)
        for (const present of forced ? [forced.present] : [true, false]) {
          const set = new Set([...inRule].filter((i) => has[i].has(f) === present));
          const score = f1(new Set([...covered, ...set]));
          if (!best || score > best.f1) best = { lit: { feature: f, present }, f1: score, set };
        }
      if (!best || (best.f1 <= ruleF1 && !forced)) break;
      rule.push(best.lit);
      inRule = best.set;
      ruleF1 = best.f1;
    }
    if (!rule.length || ruleF1 <= listF1) break;
    rules.push(rule);
    listF1 = ruleF1;
    for (const i of inRule) covered.add(i);
  }
  return { rules, f1: listF1 };
}

describe('the rule learner against its definition', () => {
  it('gives the same lists as the plain greedy search on random examples (sizes around the 32-bit words)', () => {
    for (let trial = 0; trial < 40; trial++) {
      const rng = new Sfc32(hash32(trial), hash32(trial, 1), hash32(trial, 2), 8);
      const n = [1, 31, 32, 33, 95, 200, 517][trial % 7];
      const vocab = 3 + rng.int(30);
      const xs: RuleExample[] = Array.from({ length: n }, () => {
        const features = [...new Set(Array.from({ length: 1 + rng.int(5) }, () => `f${rng.int(vocab)}`))];
        // a planted signal for half the trials, noise for the rest
        const positive = trial % 2 ? features.includes('f1') !== features.includes('f2') : rng.chance(0.3);
        return { features, positive };
      });
      const opts = { maxRules: 3, maxLiterals: 4, candidates: trial % 3 ? 400 : 3 };
      expect(learnRules(xs, opts), `trial ${trial}`).toEqual(learnPlainly(xs, opts));
      const first = { feature: `f${rng.int(vocab)}`, present: rng.chance(0.5) };
      expect(learnRules(xs, opts, first), `trial ${trial}, first ${first.feature}`).toEqual(
        learnPlainly(xs, opts, first),
      );
    }
  });

  it("learns the alternatives as from examples with the earlier lists' features removed", () => {
    let several = 0;
    for (let trial = 0; trial < 12; trial++) {
      const rng = new Sfc32(hash32(trial, 7), hash32(trial, 8), hash32(trial, 9), 8);
      const xs: RuleExample[] = Array.from({ length: 60 + rng.int(300) }, () => {
        const features = [...new Set(Array.from({ length: 1 + rng.int(6) }, () => `f${rng.int(12)}`))];
        const positive = features.includes('f1');
        // stand-ins for f1, each a little noisier: what the later lists find once f1 is banned
        if (positive && rng.chance(0.99)) features.push('g1');
        if (positive && rng.chance(0.98)) features.push('h1');
        return { features, positive };
      });
      // the definition: each list learnt again from the examples without every feature used so far
      const plain: RuleList[] = [];
      const banned = new Set<string>();
      for (let k = 0; k < 6; k++) {
        const list = learnRules(xs.map((e) => ({ ...e, features: e.features.filter((f) => !banned.has(f)) })));
        if (!list.rules.length || (plain.length && list.f1 < plain[0].f1 - 0.02)) break;
        plain.push(list);
        for (const r of list.rules) for (const l of r) banned.add(l.feature);
      }
      expect(plain.length, `trial ${trial}`).toBeGreaterThan(0);
      expect(learnAlternatives(xs), `trial ${trial}`).toEqual(plain);
      if (plain.length > 1) several++;
    }
    // the banning is exercised: most trials learn more than one list
    expect(several).toBeGreaterThan(6);
  });
});
