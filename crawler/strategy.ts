/**
 * The strategy contract: the engine asks a strategy for the priority of every new in-scope link
 * of every fetched page (higher is fetched first; null discards the link) and tells it about
 * each page in crawl order, so learning strategies can retrain. A strategy may also judge a
 * page's relevance (its own judgement, logged; never the web's ground truth).
 */
import { fingerprint } from './url.ts';
import type { DocKind, ParsedLink } from './parser.ts';

export interface PageView {
  /** Position in the crawl log. */
  seq: number;
  url: string;
  status: number;
  depth: number;
  /** Priority the page had when it was dequeued. */
  score: number;
  contentType: string;
  kind: DocKind;
  title: string;
  headings: readonly string[];
  text: string;
  /** The text's words when the parser kept them (HTML): text is their join with single spaces. */
  readonly words?: readonly string[];
  /** Every link of the page (nofollow links excluded). */
  links: readonly ParsedLink[];
}

export interface PageDecision {
  /**
   * One priority per candidate link (a finite number), or null to discard it. Anything else (NaN,
   * Infinity, a string, a missing entry) stops the crawl with a StrategyError naming the
   * strategy and the page (crawler/strategy-guard.ts), as does an onPage that throws or takes
   * longer than the crawl setting strategyTimeoutMs.
   */
  scores: (number | null)[];
  /** The strategy's own relevance judgement of the page, in [0, 1]. */
  relevance?: number;
  /**
   * New priorities for URLs queued earlier (e.g. OPIC's cash grows with every page that links
   * to a URL). URLs no longer queued are ignored.
   */
  updates?: { url: string; score: number }[];
  /**
   * URLs this strategy discarded earlier (gave null) that it now wants fetched after all, with
   * their priorities and depths (default: this page's depth + 1): the engine saw them, so no one
   * else will queue them. A URL it did not discard, or re-admitted already, is ignored; a queued one
   * takes `updates`. (Discards are remembered for the crawl's process; a resumed crawl starts anew.)
   */
  readmit?: { url: string; score: number; depth?: number }[];
  /**
   * Asks the engine to call reprioritise() with every queued URL once this page is done: a
   * strategy that retrained can re-rank the whole frontier, not only the links it scores next.
   */
  reprioritise?: boolean;
  /** Ends the crawl after this page, saying why (the summary's stopped: "strategy NAME: WHY"). */
  stop?: string;
}

/** A queued URL, as reprioritise() sees it. */
export interface QueuedLink {
  url: string;
  score: number;
  depth: number;
}

export interface Strategy {
  readonly name: string;
  /**
   * Batch crawling (Best-N-First): the engine takes the best `batch` URLs of the frontier,
   * fetches them all, and only then queues the links they yielded and re-ranks. Unset: every
   * link is queued at once (best-first).
   */
  readonly batch?: number;
  /** The strategy may re-admit links it discarded (PageDecision.readmit): the engine then remembers them. */
  readonly readmits?: boolean;
  seedScore(url: string): number;
  /** candidates: the page's links that are new and in scope, in page order. */
  onPage(page: PageView, candidates: readonly ParsedLink[]): PageDecision;
  /** State for checkpoints (JSON-serialisable) and its restoration on resume. */
  snapshot?(): unknown;
  restore?(state: unknown): void;
  /**
   * Counters for the summary (links scored, retrainings...): every counter reaches an experiment's
   * summary.csv by name (linksScored as links_scored, the adaptive crawler's as their columns,
   * any other as counter_NAME) and the report's table of strategies' counters.
   */
  stats?(): Record<string, number>;
  /**
   * Called after a page whose decision asked for it (reprioritise: true), with every queued URL:
   * new priorities for any of them (the rest keep theirs). Checked as updates are.
   */
  reprioritise?(queued: readonly QueuedLink[]): { url: string; score: number }[];
  /**
   * Called when the frontier is empty but budget is left: links the strategy discarded earlier
   * and now wants fetched after all (a discarded link is never queued by anyone else, since
   * the engine saw it). Return none to let the crawl end.
   */
  rescue?(): RescuedLink[];
}

/** A strategy that cannot be built: an input it needs is missing, a parameter is bad, a module does not load. */
export { StrategyError, StrategyFailed } from '../lib/errors.ts';

/** What every strategy is built from; a family's context adds what its strategies read (crawler/focused/context.ts). */
export interface BaseContext {
  /** The name the strategy runs under (its series in results). */
  name?: string;
  /** The run's seed (seeded randomness only). */
  seed: number;
}

/**
 * A built-in strategy, described once beside its class: everything the harness derives (the
 * registry, --help, parameter checks, figure styles, which strategies the report treats as
 * topical or as probes, which ones the distributed run trains models for) comes from here.
 * Adding a built-in is this descriptor, exported from a module of crawler/orders/ or
 * crawler/focused/: the folder's index finds it (crawler/registry.ts) and `rank` places it.
 */
export interface StrategyDescriptor<C extends BaseContext = BaseContext> {
  name: string;
  /**
   * A built-in's place in the house order (the registry, --help, tables and figure legends list
   * built-ins by it): tens, leaving room between neighbours. Non-topical orders 10-40, the probes
   * 50, the field's baselines 60-100, the paper's three and our variant 110-140.
   */
  rank?: number;
  /** One line for tables and --help. */
  summary: string;
  /**
   * Declared parameters: each a default with its range and help (checked for every run, listed by
   * --help), or a bare default (a number >= 0); none: it takes no parameters.
   */
  params?: Readonly<Record<string, number | ParamSpec>>;
  /**
   * The counters its stats() reports, each with what it counts (the conformance test holds every
   * built-in to them; summary.csv and the report carry them by name).
   */
  counters?: Readonly<Record<string, string>>;
  /** Trained on the other sites: "models" (future value, thresholds), "pages" (the page classifier). */
  needs?: 'models' | 'pages';
  /**
   * What it reads of the target: "nothing" (an order that ignores it), "topic" (the topic
   * keywords), "probe" (no topic: a rule that shows what a web gives away; every report shows it).
   */
  reads: 'nothing' | 'topic' | 'probe';
  /**
   * Runs in a distributed crawl (crawler/distributed/): its links can be scored by whichever
   * process fetched the page, with no state shared across the partitioned frontier (tested for
   * those that say so).
   */
  distributed?: boolean;
  /**
   * The settings sections of its context that make() reads (an experiment config's sections of
   * those names); omitted: any, as a strategy module may read whatever its context holds. A sweep
   * reuses a strategy's runs between points that differ only in sections it does not read (the
   * models' training reads "future", so a strategy that needs models reads it too).
   */
  settings?: readonly StrategySettingsSection[];
  /** Figure style: colour and dash pattern (Okabe-Ito colours; the same in every figure). */
  style: readonly [colour: string, dash: readonly number[]];
  make(ctx: C, params: Record<string, number>): Strategy;
}

/**
 * A strategy parameter: its default, range (min and max included) and what it does, as a config's
 * number fields declare theirs (lib/schema.ts num()).
 */
export interface ParamSpec {
  default: number;
  min: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  help: string;
}

/** The counter every scoring strategy keeps. */
export const LINKS_SCORED = { linksScored: 'links given a score' } as const;

/** A declared parameter as a spec: a bare default is "a number >= 0". */
export function paramSpec(p: number | ParamSpec): ParamSpec {
  return typeof p === 'number' ? { default: p, min: 0, help: '' } : p;
}

/** The defaults of declared parameters. */
export function paramDefaults(params: Readonly<Record<string, number | ParamSpec>> = {}): Record<string, number> {
  return Object.fromEntries(Object.entries(params).map(([k, p]) => [k, paramSpec(p).default]));
}

/** The settings sections a strategy's context carries (crawler/focused/context.ts StrategyContext). */
export const STRATEGY_SETTINGS_SECTIONS = ['immediate', 'future', 'adaptive'] as const;
export type StrategySettingsSection = (typeof STRATEGY_SETTINGS_SECTIONS)[number];

const DESCRIPTOR = Symbol.for('crawler-harness.strategy-descriptor');

/** Types a descriptor (for inference of its context) and marks it, so that its folder's index finds it. */
export function defineStrategy<C extends BaseContext>(d: StrategyDescriptor<C>): StrategyDescriptor<C> {
  Object.defineProperty(d, DESCRIPTOR, { value: true });
  return d;
}

/** Whether a value is a descriptor made by defineStrategy. */
export function isStrategyDescriptor(v: unknown): v is StrategyDescriptor<never> {
  return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[DESCRIPTOR] === true;
}

export interface RescuedLink {
  url: string;
  score: number;
  depth: number;
}

/** Breadth-first: every link has the same priority, so the frontier's FIFO tie-break decides. */
export class BfsStrategy implements Strategy {
  readonly name = 'bfs';
  seedScore(): number {
    return 0;
  }
  onPage(_page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    return { scores: candidates.map(() => 0) };
  }
}

/** Random order: a link's priority is a seeded hash of its URL (stateless, so resumable). */
export class RandomStrategy implements Strategy {
  readonly name = 'random';
  constructor(private readonly seed: number) {}
  private score(url: string): number {
    const [a, b] = fingerprint(`${this.seed}:${url}`);
    return ((a ^ Math.imul(b, 0x9e3779b1)) >>> 0) / 4294967296;
  }
  seedScore(url: string): number {
    return this.score(url);
  }
  onPage(_page: PageView, candidates: readonly ParsedLink[]): PageDecision {
    return { scores: candidates.map((l) => this.score(l.url)) };
  }
}

export const BFS = defineStrategy({
  name: 'bfs',
  rank: 10,
  distributed: true,
  summary: 'breadth-first: links in the order they were found',
  reads: 'nothing',
  settings: [],
  style: ['#000000', [2, 2]],
  make: () => new BfsStrategy(),
});

export const RANDOM = defineStrategy({
  name: 'random',
  rank: 20,
  distributed: true,
  summary: 'random order (a seeded hash of the URL)',
  reads: 'nothing',
  settings: [],
  style: ['#E69F00', [6, 3]],
  make: (ctx) => new RandomStrategy(ctx.seed),
});
