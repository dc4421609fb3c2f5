/**
 * The adaptive crawler's descriptors (adaptive.ts is the crawler): the paper's, as its text reads
 * by default (adaptive-options.ts DEFAULT_ADAPTIVE); the project's first reading of it under a
 * name of its own (adaptive-page), so that a run can show both; and our variant with rescue. Each
 * is built from an experiment's context with the thresholds of its scope and rule.
 */
import { defineStrategy, LINKS_SCORED, type Strategy } from '../strategy.ts';
import { type AdaptiveOptions, AdaptiveStrategy, DEFAULT_ADAPTIVE } from './adaptive.ts';
import { thresholdsFor } from './calibrate.ts';
import { need, type StrategyContext, topicOf } from './context.ts';

/** A reading a named strategy fixes, whatever the experiment's adaptive section says. */
type Reading = Partial<Pick<AdaptiveOptions, 'scope' | 'tunnel'>>;

/**
 * The project's first reading of the paper's crawler (the default until issue #83): the page's
 * cosine against r1 and the largest Q among its links against r2, all of a page's links one way;
 * tunnelled links queued by Q below every exploiting link.
 */
const PAGE_READING: Reading = { scope: 'page', tunnel: 'priority' };

/** The reading each named strategy fixes over an experiment's adaptive section (a report says which it ran). */
export const FIXED_READINGS: Readonly<Record<string, Reading>> = { 'adaptive-page': PAGE_READING };

/** The paper's adaptive crawler under `name`; with rescue, our variant that tunnels through discarded links when the frontier runs dry. */
function adaptive(ctx: StrategyContext, name: string, rescue: boolean, reading: Reading = {}): Strategy {
  const m = need(ctx.models, 'training data', name)();
  const a = ctx.adaptive;
  const rule = a?.thresholdRule ?? DEFAULT_ADAPTIVE.thresholdRule;
  const scope = reading.scope ?? a?.scope ?? DEFAULT_ADAPTIVE.scope;
  // each scope's thresholds fitted on the quantity it compares them with (calibrate.ts)
  const chosen = thresholdsFor(m.calibration, rule, scope);
  return new AdaptiveStrategy(
    topicOf(ctx, name),
    m.future,
    m.examples,
    {
      ...DEFAULT_ADAPTIVE,
      ...(a
        ? { retrainEvery: a.retrainEvery, topK: a.topK, offlineSample: a.offlineSample, sourceWeight: a.sourceWeight }
        : {}),
      ...(ctx.future ? { gamma: ctx.future.gamma, horizon: ctx.future.horizon } : {}),
      seed: ctx.seed,
      r1: a?.r1 ?? chosen.r1,
      r2: a?.r2 ?? chosen.r2,
      rescue,
      retrainUpdates: a?.retrainUpdates ?? DEFAULT_ADAPTIVE.retrainUpdates,
      tunnel: reading.tunnel ?? a?.tunnel ?? DEFAULT_ADAPTIVE.tunnel,
      threadPages: a?.threadPages ?? DEFAULT_ADAPTIVE.threadPages,
      thresholds: a?.thresholds ?? DEFAULT_ADAPTIVE.thresholds,
      startPage: a?.startPage ?? DEFAULT_ADAPTIVE.startPage,
      thresholdRule: rule,
      scope,
    },
    ctx.judge?.(),
    name,
  );
}

/** What the adaptive crawler counts (stats()). */
const ADAPTIVE_COUNTERS = {
  ...LINKS_SCORED,
  exploitPages: 'pages whose links it exploited (relevance >= r1)',
  tunnelPages: 'pages it tunnelled through (Q >= r2)',
  discardPages: 'pages whose links it discarded',
  linksDiscarded: 'links not queued',
  rescuedLinks: 'discarded links queued when the frontier ran dry',
  retrainings: 'times the Q model was retrained',
  onlineExamples: 'examples the retrainings learnt from',
  rerankedLinks: 'queued links given a new priority after a retraining',
  readmittedLinks: 'discarded links queued again after a retraining',
  threadLinks: 'links followed as a tunnelling thread (tunnel "thread"), or held by a thread (tunnel "subcrawl")',
  threadsOpened: 'threads opened, one per tunnelling link of the main crawl (tunnel "subcrawl")',
  recalibrations: 'times r1 and r2 were chosen again',
  exploitLinks: 'links queued by immediate value (exploiting)',
  tunnelLinks: 'links queued by Q (tunnelling)',
  tunnelFetched: 'pages fetched through a tunnelling link',
  threadFetched: 'pages fetched through a link of a tunnelling thread',
  r2AboveReach:
    '1 when r2 was above every Q the classifier can give, or every Q the crawl computed (tunnelling unreachable)',
};

export const ADAPTIVE = defineStrategy({
  name: 'adaptive',
  rank: 130,
  distributed: true,
  summary:
    "the paper's online incremental adaptive crawler: immediate value inside communities, Q between them, retrained every T",
  needs: 'models',
  counters: ADAPTIVE_COUNTERS,
  reads: 'topic',
  settings: ['adaptive', 'future'],
  style: ['#D55E00', []],
  make: (ctx: StrategyContext) => adaptive(ctx, 'adaptive', false),
});

export const ADAPTIVE_PAGE = defineStrategy({
  name: 'adaptive-page',
  rank: 135,
  distributed: true,
  summary:
    "the project's first reading of the paper's crawler: a page's cosine against r1, its links' largest Q against r2, all " +
    'its links one way, tunnelled links by Q',
  needs: 'models',
  counters: ADAPTIVE_COUNTERS,
  reads: 'topic',
  settings: ['adaptive', 'future'],
  style: ['#D55E00', [6, 3]],
  make: (ctx: StrategyContext) => adaptive(ctx, 'adaptive-page', false, PAGE_READING),
});

export const ADAPTIVE_RESCUE = defineStrategy({
  name: 'adaptive-rescue',
  rank: 140,
  distributed: true,
  summary: 'adaptive plus our fallback: tunnels through discarded links when the frontier runs dry',
  needs: 'models',
  counters: ADAPTIVE_COUNTERS,
  reads: 'topic',
  settings: ['adaptive', 'future'],
  style: ['#D55E00', [2, 2]],
  make: (ctx: StrategyContext) => adaptive(ctx, 'adaptive-rescue', true),
});
