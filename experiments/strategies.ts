/**
 * Strategy registry: names used on command lines and in experiment configs, mapped to
 * constructors. Focused strategies that need training data get it from the experiment runner.
 */
import { BfsStrategy, RandomStrategy, type Strategy } from '../crawler/index.ts';

export interface StrategyContext {
  seed: number;
}

const REGISTRY: Record<string, (ctx: StrategyContext) => Strategy> = {
  bfs: () => new BfsStrategy(),
  random: (ctx) => new RandomStrategy(ctx.seed),
};

export function strategyNames(): string[] {
  return Object.keys(REGISTRY);
}

export function makeStrategy(name: string, ctx: StrategyContext): Strategy {
  const make = REGISTRY[name];
  if (!make) throw new Error(`unknown strategy ${name}`);
  return make(ctx);
}
