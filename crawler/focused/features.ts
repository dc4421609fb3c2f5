/**
 * Link features for the link classifier (a bounded, documented feature space, as in ACHE):
 * stemmed words in four namespaces, "a:" anchor text, "n:" words around the link, "u:" words of
 * the URL's path (host words are left out: they name the site, which differs between training
 * and crawl), "t:" the source page's title and the heading above the link. Features are chosen
 * per namespace by information gain with the Q bins on the training links, at most
 * 100 / 150 / 150 / 100 of them (ACHE's sizes for anchor, around and URL; 100 for title).
 */
import { ownCopy } from '../../lib/strings.ts';
import { tokenize, tokenizeWords } from '../../lib/text.ts';

export interface LinkContext {
  url: string;
  anchor: string;
  /** The words around the link: the text, or its words (ParsedLink.aroundList: the same tokens, no joined text). */
  around: string | readonly string[];
  heading: string;
  sourceTitle: string;
}

const NAMESPACE_SIZES: Record<string, number> = { a: 100, n: 150, u: 150, t: 100 };

export function pathWords(url: string): string {
  let path = url;
  const i = url.indexOf('//');
  if (i >= 0) {
    const j = url.indexOf('/', i + 2);
    path = j < 0 ? '' : url.slice(j);
  }
  return path.replace(/[^a-zA-Z]+/g, ' ');
}

/**
 * Namespaced tokens of a text, remembered per namespace and text: a site's links repeat their
 * anchors ("Home", "Publications"), targets and headings, and training makes the features of
 * every link of three departments (a tenth of a cold experiment's training). The namespaced
 * strings are made once per namespace and stem, so the kept features share them. Each memory
 * holds at most 65,536 texts; past that it is cleared.
 */
class Namespace {
  private readonly byText = new Map<string, readonly string[]>();
  private readonly named = new Map<string, string>();
  constructor(private readonly prefix: string) {}
  tokens(text: string): readonly string[] {
    let ts = this.byText.get(text);
    if (ts === undefined) {
      ts = tokenize(text).map((t) => this.name(t));
      if (this.byText.size >= 65_536) this.byText.clear();
      this.byText.set(ownCopy(text), ts);
    }
    return ts;
  }
  /** Not remembered by text (a link's surrounding words rarely repeat); the names still are. */
  tokensOnce(text: string | readonly string[]): string[] {
    return wordsTokens(text).map((t) => this.name(t));
  }
  private name(t: string): string {
    let n = this.named.get(t);
    if (n === undefined) {
      n = `${this.prefix}${t}`;
      if (this.named.size >= 65_536) this.named.clear();
      this.named.set(t, n);
    }
    return n;
  }
}
const ANCHOR = new Namespace('a:');
const AROUND = new Namespace('n:');
const URL_PATH = new Namespace('u:');
const TITLE = new Namespace('t:');

/** Tokens of a text or of its words (lib/text.ts tokenizeWords: the same tokens). */
const wordsTokens = (text: string | readonly string[]): string[] =>
  typeof text === 'string' ? tokenize(text) : tokenizeWords(text);

/** Namespaced feature tokens of a link. */
export function linkFeatures(l: LinkContext): string[] {
  const out: string[] = [];
  for (const t of ANCHOR.tokens(l.anchor)) out.push(t);
  for (const t of AROUND.tokensOnce(l.around)) out.push(t);
  for (const t of URL_PATH.tokens(pathWords(l.url))) out.push(t);
  for (const t of TITLE.tokens(`${l.sourceTitle} ${l.heading === l.sourceTitle ? '' : l.heading}`)) out.push(t);
  return out;
}

/** Plain (un-namespaced) words of a link for the immediate value: anchor, around, URL path. */
export function linkWords(l: Pick<LinkContext, 'url' | 'anchor' | 'around'>): string[] {
  if (typeof l.around === 'string') return tokenize(`${l.anchor} ${l.around} ${pathWords(l.url)}`);
  // tokens of the three joined with spaces are the tokens of each in turn
  const out = tokenize(l.anchor);
  tokenizeWords(l.around, out);
  for (const t of tokenize(pathWords(l.url))) out.push(t);
  return out;
}

export class FeatureSpace {
  readonly names: string[];
  private readonly index: Map<string, number>;
  constructor(names: string[]) {
    this.names = names;
    this.index = new Map(names.map((n, i) => [n, i]));
    this.seenIds = new Int32Array(names.length);
    this.seenCounts = new Float64Array(names.length);
    this.stamp = new Uint32Array(names.length);
    this.slot = new Int32Array(names.length);
  }
  get size(): number {
    return this.names.length;
  }
  /** Scratch of countInto(): feature indices in the order first seen, and their counts. */
  readonly seenIds: Int32Array;
  readonly seenCounts: Float64Array;
  private readonly stamp: Uint32Array;
  private readonly slot: Int32Array;
  private generation = 0;

  /**
   * vectorize() without a Map: the first `n` entries of seenIds and seenCounts, in the same order
   * (the order of first occurrence), so that sums over them are the same numbers. Scoring a link
   * made a Map per link; the scratch is overwritten by the next call.
   */
  countInto(tokens: readonly string[]): number {
    if (++this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    const { stamp, slot, seenIds, seenCounts, generation } = this;
    let n = 0;
    for (const t of tokens) {
      const i = this.index.get(t);
      if (i === undefined) continue;
      if (stamp[i] !== generation) {
        stamp[i] = generation;
        slot[i] = n;
        seenIds[n] = i;
        seenCounts[n] = 1;
        n++;
      } else seenCounts[slot[i]]++;
    }
    return n;
  }

  /** Sparse counts: feature index -> count (unknown tokens dropped). */
  vectorize(tokens: readonly string[]): Map<number, number> {
    const m = new Map<number, number>();
    for (const t of tokens) {
      const i = this.index.get(t);
      if (i !== undefined) m.set(i, (m.get(i) ?? 0) + 1);
    }
    return m;
  }

  /** Top features per namespace by information gain between presence and class label. */
  static select(
    examples: readonly { tokens: readonly string[]; label: number }[],
    classes: number,
    sizes = NAMESPACE_SIZES,
  ): FeatureSpace {
    const n = examples.length;
    const classCount = new Float64Array(classes);
    const present = new Map<string, Float64Array>();
    for (const ex of examples) {
      classCount[ex.label]++;
      for (const t of new Set(ex.tokens)) {
        let a = present.get(t);
        if (!a) {
          a = new Float64Array(classes);
          present.set(t, a);
        }
        a[ex.label]++;
      }
    }
    const H = (xs: ArrayLike<number>, total: number): number => {
      let h = 0;
      for (let i = 0; i < xs.length; i++)
        if (xs[i] > 0) {
          const p = xs[i] / total;
          h -= p * Math.log(p);
        }
      return h;
    };
    const hc = H(classCount, n);
    const scored: { t: string; ig: number }[] = [];
    for (const [t, a] of present) {
      let np = 0;
      for (let c = 0; c < classes; c++) np += a[c];
      if (np < 3) continue; // too rare to estimate
      const absent = Array.from(classCount, (x, c) => x - a[c]);
      const ig = hc - (np / n) * H(a, np) - ((n - np) / n) * H(absent, n - np);
      scored.push({ t, ig });
    }
    scored.sort((x, y) => y.ig - x.ig || (x.t < y.t ? -1 : 1));
    const names: string[] = [];
    for (const [ns, k] of Object.entries(sizes))
      names.push(
        ...scored
          .filter((s) => s.t.startsWith(`${ns}:`))
          .slice(0, k)
          .map((s) => s.t),
      );
    return new FeatureSpace(names);
  }
}
