/**
 * A small rule learner: a decision list of up to `maxRules` conjunctions, each of up to
 * `maxLiterals` literals ("has feature f" or "lacks feature f"), learnt by sequential covering
 * (FOIL / RIPPER without pruning): a rule grows greedily, each step adding the literal that most
 * raises the F1 of the whole list on the training examples; a rule is kept only if it raises the
 * list's F1, and the positives it covers are set aside before the next rule.
 *
 * It is the diagnostic's learner, not a crawler's: what it finds on some sites and keeps on
 * another (the transfer leak) is what a crawler trained on those sites could exploit. Readable
 * rules are the point; examples are sets of string features, counted with bitsets so that a few
 * thousand candidate features over tens of thousands of examples take milliseconds.
 */

export interface RuleExample {
  features: readonly string[];
  positive: boolean;
}

export interface Literal {
  feature: string;
  /** true: the example must have the feature; false: it must lack it. */
  present: boolean;
}

export type Rule = Literal[];

export interface RuleList {
  rules: Rule[];
  /** Training F1 of the list. */
  f1: number;
}

export interface Score {
  precision: number;
  recall: number;
  f1: number;
}

export interface LearnOptions {
  maxRules: number;
  maxLiterals: number;
  /** Candidate features per step: the most frequent among the examples still in play. */
  candidates: number;
}

export const DEFAULT_LEARN: LearnOptions = { maxRules: 3, maxLiterals: 4, candidates: 400 };

const words = (n: number): number => (n + 31) >>> 5;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function count(a: Uint32Array): number {
  let c = 0;
  for (let i = 0; i < a.length; i++) c += popcount(a[i]);
  return c;
}

function f1Of(tp: number, fp: number, positives: number): number {
  return tp ? (2 * tp) / (2 * tp + fp + (positives - tp)) : 0;
}

/**
 * Examples counted once: each feature's examples as a sparse bitset, the words where it has any
 * (ascending) and their bits; most features occur in few examples, and every count of the learner
 * runs over those words only. learnAlternatives learns several lists from one index.
 */
interface RuleIndex {
  n: number;
  W: number;
  pos: Uint32Array;
  positives: number;
  /** Sorted; a feature's number is its place here. */
  features: string[];
  nonzero: Int32Array[];
  bits: Uint32Array[];
}

function indexExamples(examples: readonly RuleExample[]): RuleIndex {
  const n = examples.length;
  const W = words(n);
  const pos = new Uint32Array(W);
  const build = new Map<string, { at: number[]; val: number[] }>();
  examples.forEach((e, i) => {
    const w = i >>> 5;
    const bit = 1 << (i & 31);
    if (e.positive) pos[w] |= bit;
    for (const f of e.features) {
      let b = build.get(f);
      if (!b) build.set(f, (b = { at: [], val: [] }));
      const last = b.at.length - 1;
      if (last >= 0 && b.at[last] === w) b.val[last] |= bit;
      else {
        b.at.push(w);
        b.val.push(bit);
      }
    }
  });
  const features = [...build.keys()].sort();
  return {
    n,
    W,
    pos,
    positives: count(pos),
    features,
    nonzero: features.map((f) => Int32Array.from(build.get(f)!.at)),
    bits: features.map((f) => Uint32Array.from(build.get(f)!.val)),
  };
}

export function learnRules(
  examples: readonly RuleExample[],
  opts: Partial<LearnOptions> = {},
  /** A literal the first rule must start with (learnAlternatives tries several). */
  first?: Literal,
): RuleList {
  return learnIndexed(indexExamples(examples), { ...DEFAULT_LEARN, ...opts }, first, new Set());
}

/** learnRules on indexed examples, as if the banned features (their numbers) were in no example. */
function learnIndexed(
  ix: RuleIndex,
  o: LearnOptions,
  first: Literal | undefined,
  banned: ReadonlySet<number>,
): RuleList {
  const { n, W, positives, features } = ix;
  // examples the list covers so far, and the positives not yet covered
  const covered = new Uint32Array(W);
  const rules: Rule[] = [];
  let listF1 = 0;
  for (let r = 0; r < o.maxRules && positives; r++) {
    const rule: Rule = [];
    const inRule = new Uint32Array(W).fill(0xffffffff);
    if (n & 31) inRule[W - 1] = (1 << (n & 31)) - 1;
    let ruleF1 = -1;
    for (let l = 0; l < o.maxLiterals; l++) {
      let forcedAt = r === 0 && l === 0 && first ? features.indexOf(first.feature) : -1;
      if (banned.has(forcedAt)) forcedAt = -1;
      const forced = forcedAt >= 0 ? first! : null;
      const candidates = forced
        ? [{ f: forced.feature, k: forcedAt }]
        : frequentFeatures(ix, inRule, banned, o.candidates);
      const best = bestLiteral(ix, inRule, covered, candidates, forced);
      if (!best || (best.f1 <= ruleF1 && !forced)) break;
      rule.push(best.lit);
      narrow(ix, inRule, best.k, best.lit.present);
      ruleF1 = best.f1;
    }
    if (!rule.length || ruleF1 <= listF1) break;
    rules.push(rule);
    listF1 = ruleF1;
    for (let i = 0; i < W; i++) covered[i] |= inRule[i];
  }
  return { rules, f1: listF1 };
}

/** The features most frequent among the examples the rule still matches (at most `most`, then by name). */
function frequentFeatures(
  ix: RuleIndex,
  inRule: Uint32Array,
  banned: ReadonlySet<number>,
  most: number,
): { f: string; k: number; c: number }[] {
  const { features, nonzero, bits } = ix;
  const freq: { f: string; k: number; c: number }[] = [];
  for (let k = 0; k < features.length; k++) {
    if (banned.has(k)) continue;
    const b = bits[k];
    const at = nonzero[k];
    let c = 0;
    for (let j = 0; j < at.length; j++) c += popcount(b[j] & inRule[at[j]]);
    if (c > 0) freq.push({ f: features[k], k, c });
  }
  freq.sort((a, b) => b.c - a.c || (a.f < b.f ? -1 : 1));
  if (freq.length > most) freq.length = most;
  return freq;
}

/**
 * The literal (a candidate feature, present or absent; only the forced one when given) that gives
 * the list its best F1 once the rule is narrowed by it: u = (literal & inRule) | covered. What the
 * rule adds beyond `covered` (fresh) splits over the feature's words: with the feature, the words
 * where it occurs; without it, all of fresh less those.
 */
function bestLiteral(
  ix: RuleIndex,
  inRule: Uint32Array,
  covered: Uint32Array,
  candidates: readonly { f: string; k: number }[],
  forced: Literal | null,
): { lit: Literal; f1: number; k: number } | null {
  const { W, pos, positives, nonzero, bits } = ix;
  let all = 0;
  let tp = 0;
  let freshAll = 0;
  let freshTp = 0;
  for (let i = 0; i < W; i++) {
    const fresh = inRule[i] & ~covered[i];
    all += popcount(covered[i]);
    tp += popcount(covered[i] & pos[i]);
    freshAll += popcount(fresh);
    freshTp += popcount(fresh & pos[i]);
  }
  let best: { lit: Literal; f1: number; k: number } | null = null;
  for (const { f, k } of candidates) {
    const b = bits[k];
    const at = nonzero[k];
    let withAll = 0;
    let withTp = 0;
    for (let j = 0; j < at.length; j++) {
      const i = at[j];
      const add = b[j] & inRule[i] & ~covered[i];
      withAll += popcount(add);
      withTp += popcount(add & pos[i]);
    }
    for (const present of forced ? [forced.present] : [true, false]) {
      const t = tp + (present ? withTp : freshTp - withTp);
      const a = all + (present ? withAll : freshAll - withAll);
      const f1 = f1Of(t, a - t, positives);
      if (!best || f1 > best.f1) best = { lit: { feature: f, present }, f1, k };
    }
  }
  return best;
}

/** Narrows the rule's examples by feature k: with it, nothing outside its words; without it, none of them. */
function narrow(ix: RuleIndex, inRule: Uint32Array, k: number, present: boolean): void {
  const b = ix.bits[k];
  const at = ix.nonzero[k];
  if (present) {
    let j = 0;
    for (let i = 0; i < ix.W; i++) {
      if (j < at.length && at[j] === i) inRule[i] &= b[j++];
      else inRule[i] = 0;
    }
  } else for (let j = 0; j < at.length; j++) inRule[at[j]] &= ~b[j];
}

/**
 * Several learners' answers, each blind to the features the earlier ones used: the greedy list,
 * then the greedy list without its features, and so on, while the training F1 stays within
 * `slack` of the first (at most `alternatives` lists). Rules that fit the training sites equally
 * well may transfer very differently (a folder name three departments happen to share against a
 * file type all share); a diagnostic that must not under-report a leak scores them all.
 */
export function learnAlternatives(
  examples: readonly RuleExample[],
  opts: Partial<LearnOptions> & { alternatives?: number; slack?: number } = {},
): RuleList[] {
  const out: RuleList[] = [];
  const ix = indexExamples(examples);
  const number = new Map(ix.features.map((f, k) => [f, k]));
  const banned = new Set<number>();
  const o = { ...DEFAULT_LEARN, ...opts };
  for (let k = 0; k < (opts.alternatives ?? 6); k++) {
    const list = learnIndexed(ix, o, undefined, banned);
    if (!list.rules.length || (out.length && list.f1 < out[0].f1 - (opts.slack ?? 0.02))) break;
    out.push(list);
    for (const r of list.rules) for (const l of r) banned.add(number.get(l.feature)!);
  }
  return out;
}

/** Whether an example's features satisfy the list (any rule whose every literal holds). */
export function matchesRules(list: RuleList, features: ReadonlySet<string>): boolean {
  return list.rules.some((rule) => rule.every((l) => features.has(l.feature) === l.present));
}

export function scoreRules(list: RuleList, examples: readonly RuleExample[]): Score {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const e of examples) {
    const m = matchesRules(list, new Set(e.features));
    if (m && e.positive) tp++;
    else if (m) fp++;
    else if (e.positive) fn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** The list as text: "ext:pdf and not dir:courses | anchor:papers", "(nothing)" when empty. */
export function formatRules(list: RuleList): string {
  if (!list.rules.length) return '(no rule beats matching nothing)';
  return list.rules.map((r) => r.map((l) => (l.present ? l.feature : `not ${l.feature}`)).join(' and ')).join(' | ');
}

/** Lower-case words of a text, three letters or more. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[a-z]{3,}/g) ?? [];

/**
 * What a link classifier could read of a link target before fetching it: the folders of its
 * path (digits abstracted), the words of its file name, its extension ("none" without one), and
 * the anchor words of the links to it. One definition for the generated web's diagnostics
 * (sim/structure.ts) and an archive's (experiments/twin/), so both count the same leak.
 */
/**
 * The shape of a file name (its extension left out): runs of 4 or more letters as W, of 1-3
 * letters as s, of digits as 9, every other character kept: 'syllabus-12' -> 'W-9', 'tr-45' ->
 * 's-9', 'smith12-45' -> 'W9-9', 'paper45' -> 'W9', 'neural_45' -> 'W_9', a CGI's '123' -> '9'.
 * What a naming convention looks like to a rule that reads no words.
 */
export function fileShape(stem: string): string {
  return stem.toLowerCase().replace(/[a-z]+|\d+/g, (m) => (/\d/.test(m) ? '9' : m.length >= 4 ? 'W' : 's'));
}

export function targetFeatures(path: string, anchorWords: Iterable<string>): string[] {
  const parts = path.toLowerCase().split('/');
  const file = parts.pop() ?? '';
  const ext = /\.([a-z0-9]+(\.(gz|z))?)$/.exec(file)?.[1] ?? 'none';
  const features = new Set<string>();
  for (const w of anchorWords) features.add(`anchor:${w}`);
  for (const d of parts) if (d) features.add(`dir:${d.replace(/\d+/g, '#')}`);
  const stem = file.replace(/\.[a-z0-9.]+$/, '');
  for (const w of wordsOf(stem)) features.add(`file:${w}`);
  features.add(`shape:${fileShape(stem)}`);
  features.add(`ext:${ext}`);
  return [...features];
}
