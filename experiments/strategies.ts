/**
 * Strategy registry: names used on command lines and in experiment configs, mapped to
 * constructors. Focused strategies get the topic keywords, and future/adaptive a trained link
 * classifier, from the caller (the experiment runner or the crawl CLI's --web training).
 */
import { BfsStrategy, RandomStrategy, type Strategy } from '../crawler/index.ts';
import { AdaptiveStrategy, DEFAULT_ADAPTIVE, FutureStrategy, ImmediateStrategy } from '../crawler/focused/strategies.ts';
import { Topic } from '../crawler/focused/topic.ts';
import type { RelevanceJudge } from '../crawler/focused/relevance.ts';
import type { LinkClassifier } from '../crawler/focused/nb.ts';
import type { QExample } from '../crawler/focused/training.ts';
import type { Calibration } from '../crawler/focused/calibrate.ts';

export interface StrategyContext {
  seed: number;
  keywords?: readonly string[];
  /** Trained on other sites (future, adaptive). */
  models?: () => { future: LinkClassifier; calibration: Calibration; examples: QExample[] };
  immediate?: { sourceWeight: number };
  adaptive?: { retrainEvery: number; topK: number; offlineSample: number; sourceWeight: number; r1: number | null; r2: number | null };
  future?: { gamma: number; horizon: number };
  /** The relevance judgement (default: the paper's); built on demand (a learned one needs training). */
  judge?: () => RelevanceJudge;
}

function need<T>(v: T | undefined, what: string, name: string): T {
  if (v === undefined) throw new Error(`strategy ${name} needs ${what}`);
  return v;
}

const REGISTRY: Record<string, (ctx: StrategyContext) => Strategy> = {
  bfs: () => new BfsStrategy(),
  random: (ctx) => new RandomStrategy(ctx.seed),
  immediate: (ctx) => new ImmediateStrategy(new Topic(need(ctx.keywords, 'topic keywords', 'immediate')), ctx.immediate ?? { sourceWeight: 0.3 }, ctx.judge?.()),
  future: (ctx) => new FutureStrategy(new Topic(need(ctx.keywords, 'topic keywords', 'future')), need(ctx.models, 'training data', 'future')().future, ctx.judge?.()),
  adaptive: (ctx) => {
    const m = need(ctx.models, 'training data', 'adaptive')();
    const a = ctx.adaptive;
    return new AdaptiveStrategy(new Topic(need(ctx.keywords, 'topic keywords', 'adaptive')), m.future, m.examples, {
      ...DEFAULT_ADAPTIVE,
      ...(a ? { retrainEvery: a.retrainEvery, topK: a.topK, offlineSample: a.offlineSample, sourceWeight: a.sourceWeight } : {}),
      ...(ctx.future ? { gamma: ctx.future.gamma, horizon: ctx.future.horizon } : {}),
      seed: ctx.seed,
      r1: a?.r1 ?? m.calibration.r1,
      r2: a?.r2 ?? m.calibration.r2,
    }, ctx.judge?.());
  },
};

export function strategyNames(): string[] {
  return Object.keys(REGISTRY);
}

export function makeStrategy(name: string, ctx: StrategyContext): Strategy {
  const make = REGISTRY[name];
  if (!make) throw new Error(`unknown strategy ${name}`);
  return make(ctx);
}
