/**
 * The adaptive crawler's options and the paper's silent points as named readings, each quoted
 * against the paper's text (adaptive.ts is the crawler).
 */
import type { ThresholdRule } from './calibrate.ts';

/** How the adaptive crawler's thresholds are chosen (see THRESHOLD_MODES). */
export type ThresholdMode = 'calibrated' | 'online';

/** What the adaptive crawler's thresholds are compared with (see SCOPES). */
export type AdaptiveScope = 'page' | 'link';

/** What the adaptive crawler does with the start page's links (see START_PAGE_MODES). */
export type StartPageMode = 'tunnel' | 'exploit';

/** How the adaptive crawler follows the links of a page it tunnels through (see TUNNEL_MODES). */
export type TunnelMode = 'priority' | 'thread' | 'subcrawl';

/** What a retraining of the adaptive crawler's link classifier updates (see RETRAIN_UPDATES). */
export type RetrainUpdates = 'new-links' | 'frontier' | 'frontier-and-discarded';

/** The adaptive crawler's options, each field described once, here (issue #88: they were also AdaptiveSettings). */
export interface AdaptiveOptions {
  /** Immediate value (of the page, or of each link under scope "link") at or above which links are followed by immediate score. */
  r1: number;
  /** Future value (of the page, or of each link under scope "link") at or above which links are followed by Q. */
  r2: number;
  /** Pages between retrainings of the link classifier (T; ours: the paper gives no value). */
  retrainEvery: number;
  /** Pages whose forward links retrain the classifier (the paper: 100). */
  topK: number;
  /** Discount of Q (Rennie & McCallum's 0.5) and the links it looks ahead (the future section). */
  gamma: number;
  horizon: number;
  /** Offline training links mixed into each retraining (at most this many; ours: the paper says nothing of forgetting). */
  offlineSample: number;
  /** Weight of the source page's cosine in a link's immediate value (formula (1)'s beta; ours: 0.3, as immediate's). */
  sourceWeight: number;
  seed: number;
  /** Our fallback, not the paper's: tunnel through discarded links when the frontier runs dry. */
  rescue: boolean;
  /** What a retraining updates (RETRAIN_UPDATES). */
  retrainUpdates: RetrainUpdates;
  /** How tunnelling links are followed (TUNNEL_MODES). */
  tunnel: TunnelMode;
  /** Pages a sub-crawl may fetch (tunnel "subcrawl"; THREAD_PAGES). */
  threadPages: number;
  /** When r1 and r2 are chosen (THRESHOLD_MODES). */
  thresholds: ThresholdMode;
  /** By which rule r1 and r2 are chosen (calibrate.ts THRESHOLD_RULES). */
  thresholdRule: ThresholdRule;
  /** What r1 and r2 are compared with (SCOPES). */
  scope: AdaptiveScope;
  /** What the start page's links get (START_PAGE_MODES). */
  startPage: StartPageMode;
}

/**
 * Readings of how r1 and r2 are chosen; the paper gives no values and no rule ("immediate value
 * above r1 -> follow by immediate score; otherwise future value above r2 -> keep following from
 * this node"). "calibrated" (the default): chosen once, before the crawl, on the training sites
 * (crawler/focused/calibrate.ts: the values that best separate, by F1, pages of topical
 * communities and pages with a relevant document within Q's horizon). "online": the crawler is
 * "online incremental", so at every retraining the same rule chooses them again from the pages
 * crawled so far, judged by the crawler's own relevance judgement (the threshold kept when the
 * crawl has nothing to separate yet).
 */
export const THRESHOLD_MODES: readonly ThresholdMode[] = ['calibrated', 'online'];

/**
 * Readings of what the thresholds are compared with. The paper's steps (2)-(5) read: "(2) if the
 * immediate value of the link is above r1, add it to the exploiting queue; (3) otherwise, if its
 * future value is above r2, add it to the tunnelling queue; (4) otherwise add it to the discarded
 * list" (the project's reference notes). "link" (the default since issue #83: what the steps say):
 * each link on its own: its immediate value (formula (1), as immediate scores it) >= r1 ->
 * exploited; else its own Q >= r2 -> tunnelled; else discarded, each threshold fitted on the
 * training sites' links (calibrate.ts). "page" (the project's first reading, the strategy
 * adaptive-page): the page's cosine is compared with r1 and the largest Q among its links with
 * r2, thresholds fitted on pages, and all of the page's links go down that one branch.
 */
export const SCOPES: readonly AdaptiveScope[] = ['page', 'link'];

/**
 * Readings of what happens at the start page, on which the paper is silent: read literally, a
 * start page below both thresholds would have its links discarded and the crawl would end at
 * its first page, which the paper's own curves rule out. "tunnel" (the default): the start
 * page's links are never all discarded; below r1 they are queued by Q like a tunnelled page's.
 * "exploit": the start page is a community's entry, its links followed by immediate score.
 */
export const START_PAGE_MODES: readonly StartPageMode[] = ['tunnel', 'exploit'];

/**
 * Readings of "otherwise future value above r2 -> keep following from this node" (the project's
 * reference notes; step (4) spawns a thread for the link). "subcrawl" (the default since issue
 * #83: the text's thread): every tunnelling link of the main crawl opens a thread, a frontier of
 * its own (links by Q) that shares the request budget and the concurrency slots with the main
 * crawl, taking turns with it, for up to `threadPages` pages, at most MAX_THREADS at a time
 * (adaptive-subcrawl.ts); the start page opens none. "priority" (the project's first reading,
 * with adaptive-page): the links are queued by Q below every exploiting link, followed when
 * nothing topical is left; "thread": followed next, ahead of everything queued, for at most
 * TUNNEL_STEPS tunnelling pages in a row (a pre-emption).
 */
export const TUNNEL_MODES: readonly TunnelMode[] = ['priority', 'thread', 'subcrawl'];

/**
 * Threads open at a time (tunnel "subcrawl"): the paper's step (4) spawns a thread for every link
 * that tunnels and gives no bound. Ours, stated as a condition: 7, a pool of the experiments' 8
 * request slots (concurrency 8) with one kept for the main crawl; with k threads open the main
 * crawl makes one of every k + 1 fetches (adaptive-subcrawl.ts), so a larger pool would all but
 * stop it. Tunnelling links found while every thread is busy wait for one, best Q first.
 */
export const MAX_THREADS = 7;

/**
 * Pages a sub-crawl may fetch (tunnel "subcrawl"). Ours, stated as a condition: the paper gives no
 * number; 50 is about a gap of 3-4 pages explored breadth-first at the generated webs' 5-10 links
 * per page on the way.
 */
export const THREAD_PAGES = 50;

/** Tunnelling pages in a row a thread follows before its links fall back to priority. */
export const TUNNEL_STEPS = 3;

/**
 * Readings of a point the paper leaves open. Its text (as summarised in the project's reference
 * notes): "Every interval T the link classifier is retrained with the top-100 most topic-relevant
 * pages crawled so far and their forward links" -- it does not say which priorities the new
 * classifier sets. "new-links" (the default; what an implementation does that scores a link once,
 * when found): only links found after the retraining; "frontier": also every queued link the
 * classifier scored (tunnelling links), re-ranked at once; "frontier-and-discarded": also links it
 * discarded, re-admitted when their new future value reaches r2.
 */
export const RETRAIN_UPDATES: readonly RetrainUpdates[] = ['new-links', 'frontier', 'frontier-and-discarded'];

/** Discarded links queued at a time when the frontier runs dry (a few batches of a crawl's concurrency). */
export const RESCUE_BATCH = 32;

/**
 * The adaptive crawler's settings as an experiment config's "adaptive" section gives them
 * (experiments/focused/config.ts): its options but the ones other sections or the run set (gamma
 * and horizon: the future section; seed: the run's; rescue: the strategy adaptive-rescue), r1 and
 * r2 null where they are to be chosen (THRESHOLD_MODES).
 */
export type AdaptiveSettings = Omit<AdaptiveOptions, 'r1' | 'r2' | 'gamma' | 'horizon' | 'seed' | 'rescue'> & {
  r1: number | null;
  r2: number | null;
};

export const DEFAULT_ADAPTIVE: Omit<AdaptiveOptions, 'r1' | 'r2'> = {
  retrainEvery: 250,
  topK: 100,
  gamma: 0.5,
  horizon: 1,
  offlineSample: 3000,
  sourceWeight: 0.3,
  seed: 1,
  rescue: false,
  retrainUpdates: 'new-links',
  tunnel: 'subcrawl',
  threadPages: THREAD_PAGES,
  thresholds: 'calibrated',
  thresholdRule: 'f1',
  scope: 'link',
  startPage: 'tunnel',
};
