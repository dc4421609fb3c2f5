/**
 * Strategy registry: the names used on command lines and in experiment configs, mapped to
 * constructors with their declared parameters (defaults here, values from a config's
 * `strategyParams` or a `{ "name", "params" }` entry of `strategies`), and strategies a
 * researcher brings as a module (plugins).
 *
 * A plugin module default-exports a factory `(context: StrategyContext) => Strategy`; the
 * context carries the topic keywords, the seed, the parameters from the config, and on demand
 * the models trained on the other sites and the experiment's relevance judgement. See
 * examples/strategies/ and docs/focused.md ("Bring your own strategy").
 */
import { existsSync } from 'node:fs';
import type { ExperimentConfig } from './config.ts';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BfsStrategy, DocsFirstStrategy, RandomStrategy, type Strategy, OpicStrategy } from '../crawler/index.ts';
import {
  AdaptiveStrategy,
  DEFAULT_ADAPTIVE,
  FutureStrategy,
  ImmediateStrategy,
  BestFirstStrategy,
  BestNFirstStrategy,
  DEFAULT_BEST_N,
  DEFAULT_SHARK,
  SharkSearchStrategy,
  ClassifierStrategy,
  DEFAULT_FUTURE,
  DEFAULT_INFOSPIDERS,
  InfoSpidersStrategy,
  Topic,
  UrlPriorStrategy,
  type PageClassifier,
  type RelevanceJudge,
  type LinkClassifier,
  type QExample,
  type Calibration,
} from '../crawler/focused/index.ts';

/** What a strategy is built from. Everything it may know about the target comes through here. */
export interface StrategyContext {
  /** The name the strategy runs under (its series in results). */
  name?: string;
  /** The run's seed (seeded randomness only). */
  seed: number;
  /** Topic keywords (the experiment's keyword file). */
  keywords?: readonly string[];
  /** Models trained on the other sites (leave-one-site-out), built on first call. */
  models?: () => {
    future: LinkClassifier;
    calibration: Calibration;
    examples: QExample[];
    pages: PageClassifier | null;
  };
  /** The experiment config's sections (experiments/config.ts EXPERIMENT_NUMBERS documents them). */
  immediate?: ExperimentConfig['immediate'];
  adaptive?: ExperimentConfig['adaptive'];
  future?: { gamma: number; horizon: number };
  /** The relevance judgement (default: the paper's); built on demand (a learned one needs training). */
  judge?: () => RelevanceJudge;
  /** The strategy's parameters from the config; for a built-in, its defaults with the config's values. */
  params?: Readonly<Record<string, unknown>>;
}

/** What a plugin module default-exports. */
export type StrategyFactory = (context: StrategyContext) => Strategy;

export class StrategyError extends Error {
  readonly code = 'EXP_ERR_STRATEGY';
}

function need<T>(v: T | undefined, what: string, name: string): T {
  if (v === undefined) throw new StrategyError(`strategy ${name} needs ${what}`);
  return v;
}

type Params = Record<string, number>;

interface BuiltIn {
  make: (ctx: StrategyContext, p: Params) => Strategy;
  /** Declared parameters and their defaults (numbers); none: the strategy takes no parameters here. */
  params?: Params;
  /** Trained on the other sites: "models" (future value, thresholds), "pages" (the page classifier). */
  needs?: 'models' | 'pages';
}

/** Parameters that must be whole numbers >= 1. */
const WHOLE = new Set(['n', 'depth', 'agents', 'maxAgents']);

const topic = (ctx: StrategyContext, name: string): Topic => new Topic(need(ctx.keywords, 'topic keywords', name));

/** The paper's adaptive crawler; with rescue, our variant that tunnels through discarded links when the frontier runs dry. */
function adaptive(ctx: StrategyContext, rescue: boolean): Strategy {
  const name = rescue ? 'adaptive-rescue' : 'adaptive';
  const m = need(ctx.models, 'training data', name)();
  const a = ctx.adaptive;
  return new AdaptiveStrategy(
    topic(ctx, name),
    m.future,
    m.examples,
    {
      ...DEFAULT_ADAPTIVE,
      ...(a
        ? { retrainEvery: a.retrainEvery, topK: a.topK, offlineSample: a.offlineSample, sourceWeight: a.sourceWeight }
        : {}),
      ...(ctx.future ? { gamma: ctx.future.gamma, horizon: ctx.future.horizon } : {}),
      seed: ctx.seed,
      r1: a?.r1 ?? m.calibration.r1,
      r2: a?.r2 ?? m.calibration.r2,
      rescue,
    },
    ctx.judge?.(),
  );
}

const BUILT_IN: Record<string, BuiltIn> = {
  bfs: { make: () => new BfsStrategy() },
  random: { make: (ctx) => new RandomStrategy(ctx.seed) },
  opic: { make: () => new OpicStrategy() },
  // probes: no topic; what the web gives away (every focused report shows them)
  'docs-first': { make: () => new DocsFirstStrategy() },
  'url-prior': {
    needs: 'models',
    make: (ctx) => {
      const m = need(ctx.models, 'training data', 'url-prior')();
      return new UrlPriorStrategy(m.examples, m.future.bins, {
        maxRows: DEFAULT_FUTURE.maxRows,
        seed: ctx.seed,
      });
    },
  },
  'best-first': { make: (ctx) => new BestFirstStrategy(topic(ctx, 'best-first'), ctx.judge?.()) },
  'best-n-first': {
    params: { ...DEFAULT_BEST_N },
    make: (ctx, p) => new BestNFirstStrategy(topic(ctx, 'best-n-first'), { n: p.n }, ctx.judge?.()),
  },
  'shark-search': {
    params: { ...DEFAULT_SHARK },
    make: (ctx, p) => new SharkSearchStrategy(topic(ctx, 'shark-search'), { ...DEFAULT_SHARK, ...p }, ctx.judge?.()),
  },
  classifier: {
    needs: 'pages',
    make: (ctx) => {
      const pages = need(ctx.models, 'training data', 'classifier')().pages;
      return new ClassifierStrategy(
        topic(ctx, 'classifier'),
        need(pages ?? undefined, 'the page classifier of the target', 'classifier'),
        ctx.judge?.(),
      );
    },
  },
  infospiders: {
    params: Object.fromEntries(Object.entries(DEFAULT_INFOSPIDERS).filter(([k]) => k !== 'seed')),
    make: (ctx, p) =>
      new InfoSpidersStrategy(
        topic(ctx, 'infospiders'),
        { ...DEFAULT_INFOSPIDERS, ...p, seed: ctx.seed },
        ctx.judge?.(),
      ),
  },
  immediate: {
    make: (ctx) =>
      new ImmediateStrategy(topic(ctx, 'immediate'), ctx.immediate ?? { sourceWeight: 0.3 }, ctx.judge?.()),
  },
  future: {
    needs: 'models',
    make: (ctx) =>
      new FutureStrategy(topic(ctx, 'future'), need(ctx.models, 'training data', 'future')().future, ctx.judge?.()),
  },
  adaptive: { needs: 'models', make: (ctx) => adaptive(ctx, false) },
  'adaptive-rescue': { needs: 'models', make: (ctx) => adaptive(ctx, true) },
};

/** The built-in strategies, in the house order (non-topical, the field's baselines, the paper's three). */
export function strategyNames(): string[] {
  return Object.keys(BUILT_IN);
}

/** A built-in's declared parameters with their defaults ({} if it takes none). */
export function strategyDefaults(name: string): Params {
  return { ...(BUILT_IN[name]?.params ?? {}) };
}

/** What a strategy is trained with, if anything ("pages" implies the page classifier). */
export function strategyNeeds(name: string): 'models' | 'pages' | null {
  return BUILT_IN[name]?.needs ?? null;
}

/** A built-in's parameters: its defaults overridden by `given`; unknown names and bad values throw. */
export function resolveParams(name: string, given: Readonly<Record<string, unknown>> = {}): Params {
  const defaults = strategyDefaults(name);
  const out = { ...defaults };
  for (const [k, v] of Object.entries(given)) {
    if (!(k in defaults)) {
      const known = Object.keys(defaults);
      throw new StrategyError(
        `${name}: parameter "${k}" is not one of ${known.length ? known.join(', ') : '(none: it takes no parameters)'}`,
      );
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (WHOLE.has(k) && (!Number.isInteger(v) || v < 1))) {
      throw new StrategyError(
        `${name}: parameter "${k}" must be ${WHOLE.has(k) ? 'a whole number >= 1' : 'a number >= 0'}, got ${JSON.stringify(v)}`,
      );
    }
    out[k] = v;
  }
  return out;
}

const plugins = new Map<string, { file: string; factory: StrategyFactory }>();

/**
 * Loads a plugin module (a path, relative to the working directory) under `name`; a module that
 * does not load or does not default-export a function throws a StrategyError with one line.
 */
export async function loadStrategyModule(name: string, file: string): Promise<void> {
  const path = resolve(file);
  if (plugins.get(name)?.file === path) return;
  if (name in BUILT_IN)
    throw new StrategyError(`strategy module ${file}: "${name}" is a built-in strategy; give the module another name`);
  if (!existsSync(path)) throw new StrategyError(`strategy module ${file}: no such file`);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (e) {
    throw new StrategyError(
      `strategy module ${file} does not load: ${String((e as Error).message ?? e).split('\n')[0]}`,
    );
  }
  if (typeof mod.default !== 'function')
    throw new StrategyError(
      `strategy module ${file}: its default export must be a factory (context) => Strategy, got ${typeof mod.default}`,
    );
  plugins.set(name, { file: path, factory: mod.default as StrategyFactory });
}

/** Whether `s` keeps the Strategy contract (crawler/strategy.ts) well enough for the engine. */
function checkStrategy(s: unknown, where: string): Strategy {
  const o = s as Record<string, unknown> | null;
  const problem =
    typeof o !== 'object' || o === null
      ? `returned ${o === null ? 'null' : typeof o}, not a Strategy`
      : typeof o.name !== 'string' || !o.name
        ? 'returned an object without a name'
        : typeof o.seedScore !== 'function'
          ? 'returned an object without seedScore(url)'
          : typeof o.onPage !== 'function'
            ? 'returned an object without onPage(page, candidates)'
            : ['snapshot', 'restore', 'stats', 'rescue'].find((m) => o[m] !== undefined && typeof o[m] !== 'function')
              ? 'returned an object whose optional methods are not functions'
              : o.batch !== undefined && (!Number.isInteger(o.batch) || (o.batch as number) < 1)
                ? 'returned a batch that is not a whole number >= 1'
                : null;
  if (problem) throw new StrategyError(`${where} ${problem}`);
  return s as Strategy;
}

/** Builds the strategy `name` (a built-in or a loaded plugin) with the context's parameters. */
export function makeStrategy(name: string, ctx: StrategyContext): Strategy {
  const plugin = plugins.get(name);
  if (plugin) {
    let s: unknown;
    try {
      s = plugin.factory({ ...ctx, name, params: ctx.params ?? {} });
    } catch (e) {
      if (e instanceof StrategyError || e instanceof Deferred) throw e;
      throw new StrategyError(
        `strategy module ${plugin.file}: its factory threw: ${String((e as Error).message ?? e).split('\n')[0]}`,
      );
    }
    return checkStrategy(s, `strategy module ${plugin.file}:`);
  }
  const b = BUILT_IN[name];
  if (!b)
    throw new StrategyError(
      `unknown strategy "${name}": not one of ${strategyNames().join(', ')}, and no module was given for it`,
    );
  const params = resolveParams(name, ctx.params);
  return b.make({ ...ctx, name, params }, params);
}

/** Thrown by a probe's models() and judge(): building them is left to the run. */
class Deferred extends Error {}

/**
 * Builds a strategy once, without training, so that a broken plugin fails before any crawl
 * starts (one line, exit 2). A factory that asks for trained models at construction is checked
 * when its run builds it.
 */
export function probeStrategy(name: string, ctx: StrategyContext): void {
  const deferred = (): never => {
    throw new Deferred('built in the run');
  };
  try {
    makeStrategy(name, { ...ctx, models: deferred, judge: deferred });
  } catch (e) {
    if (!(e instanceof Deferred)) throw e;
  }
}
