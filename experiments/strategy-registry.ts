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
import { resolve } from 'node:path';
import { resource } from '../lib/paths.ts';
import { importUrlOf, prepareModuleLoad } from '../lib/self-import.ts';
import { numberProblem, rangeText } from '../lib/fields.ts';
import {
  CORE_STRATEGIES,
  DEFAULT_SETTINGS,
  outside,
  type ParamSpec,
  paramDefaults,
  paramSpec,
  type Strategy,
  type StrategyDescriptor,
  StrategyError,
  watched,
} from '../crawler/index.ts';
import { FOCUSED_STRATEGIES, type StrategyContext } from '../crawler/focused/index.ts';

export { StrategyError, type StrategyContext };

/** What a plugin module default-exports. */
export type StrategyFactory = (context: StrategyContext) => Strategy;

type Params = Record<string, number>;

/**
 * Every built-in, in the house order (non-topical orders, the probes, the field's baselines, the
 * paper's three): read from the descriptors beside the classes, so nothing here names one.
 */
export const BUILT_INS: readonly StrategyDescriptor<StrategyContext>[] = [...CORE_STRATEGIES, ...FOCUSED_STRATEGIES];
const BUILT_IN: Record<string, StrategyDescriptor<StrategyContext>> = Object.fromEntries(
  BUILT_INS.map((d) => [d.name, d]),
);

/** A built-in's descriptor, or undefined. */
export function strategyDescriptor(name: string): StrategyDescriptor<StrategyContext> | undefined {
  return BUILT_IN[name];
}

/** Built-ins that read the topic keywords, and the probes (they read none): for the report. */
export const topicalStrategies = (): string[] => BUILT_INS.filter((d) => d.reads === 'topic').map((d) => d.name);
export const probeStrategies = (): string[] => BUILT_INS.filter((d) => d.reads === 'probe').map((d) => d.name);

/** The built-in strategies, in the house order (non-topical, the field's baselines, the paper's three). */
export function strategyNames(): string[] {
  return Object.keys(BUILT_IN);
}

/** A built-in's declared parameters ({} if it takes none). */
export function strategyParams(name: string): Record<string, ParamSpec> {
  return Object.fromEntries(Object.entries(BUILT_IN[name]?.params ?? {}).map(([k, p]) => [k, paramSpec(p)]));
}

/** A built-in's declared parameters with their defaults ({} if it takes none). */
export function strategyDefaults(name: string): Params {
  return paramDefaults(BUILT_IN[name]?.params);
}

/** What a strategy is trained with, if anything ("pages" implies the page classifier). */
export function strategyNeeds(name: string): 'models' | 'pages' | null {
  return BUILT_IN[name]?.needs ?? null;
}

/**
 * The settings sections (immediate, future, adaptive) a strategy's runs depend on, or null for
 * any (a strategy module): those its descriptor reads, and "future" when it is trained (training
 * data is built with it: experiments/focused/env.ts).
 */
export function strategySettings(name: string): readonly string[] | null {
  const d = BUILT_IN[name];
  if (!d?.settings) return null;
  return d.needs && !d.settings.includes('future') ? [...d.settings, 'future'] : d.settings;
}

/** A built-in's parameters: its defaults overridden by `given`; unknown names and bad values throw. */
export function resolveParams(name: string, given: Readonly<Record<string, unknown>> = {}): Params {
  const specs = strategyParams(name);
  const out = strategyDefaults(name);
  for (const [k, v] of Object.entries(given)) {
    if (!Object.hasOwn(specs, k)) {
      const known = Object.keys(specs);
      // a built-in configured by a section of the config (future.gamma): said where, not just "no"
      const sections = (strategySettings(name) ?? []).filter((x) => x === name || !known.length);
      const where = sections.length
        ? `; ${name} reads the config's section ${sections.map((x) => `"${x}"`).join(', ')}: set it there ` +
          `("${sections[0]}": {"${k}": ${JSON.stringify(v)}}, or --set ${sections[0]}.${k}=${JSON.stringify(v)})`
        : '';
      throw new StrategyError(
        `${name}: parameter "${k}" is not one of ${known.length ? known.join(', ') : '(none: it takes no parameters)'}${where}`,
      );
    }
    const range = { max: Infinity, ...specs[k] };
    if (!Number.isFinite(v) || numberProblem(range, v) !== null)
      throw new StrategyError(`${name}: parameter "${k}" must be ${rangeText(range)}, got ${JSON.stringify(v)}`);
    out[k] = v as number;
  }
  return out;
}

const plugins = new Map<string, { file: string; factory: StrategyFactory }>();

/** A figure style: colour and dash pattern, as a built-in descriptor declares it. */
export type FigureStyle = readonly [colour: string, dash: readonly number[]];
/** Styles plug-ins declared (a descriptor's style, a module's `export const style`), by strategy name. */
const pluginStyles = new Map<string, FigureStyle>();

/** The style a plug-in strategy declared, if it did (experiments/figures.ts draws it). */
export const strategyStyle = (name: string): FigureStyle | undefined => pluginStyles.get(name);

/** A declared style, checked: a colour (#rgb or #rrggbb) and a dash list of non-negative numbers. */
function styleOf(v: unknown): FigureStyle | undefined {
  if (!Array.isArray(v) || v.length !== 2) return undefined;
  const [c, d] = v as [unknown, unknown];
  const ok =
    typeof c === 'string' &&
    /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(c) &&
    Array.isArray(d) &&
    d.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0);
  return ok ? [c as string, [...(d as number[])]] : undefined;
}

/** Where a strategy given in memory "lives", for messages (a module's entry holds its path). */
const IN_MEMORY = '(in memory)';

/**
 * A strategy a program gives in memory (library use, `runExperiment`): a descriptor made by
 * defineStrategy, `{ name, factory, params? }`, or a named factory function. It runs in the
 * program's own process; a config that names it is written with `"inMemory": true`.
 */
export type InMemoryStrategy =
  | StrategyDescriptor<StrategyContext>
  | { name: string; factory: StrategyFactory; params?: Record<string, number> }
  | StrategyFactory;

const descriptorFactories = new WeakMap<object, StrategyFactory>();

/** The name, factory and parameters of an in-memory strategy, or null when `v` is not one. */
export function asInMemoryStrategy(
  v: unknown,
): { name: string; factory: StrategyFactory; params?: Record<string, number>; style?: FigureStyle } | null {
  if (typeof v === 'function') return { name: v.name, factory: v as StrategyFactory };
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.factory === 'function')
    return {
      name: String(o.name ?? ''),
      factory: o.factory as StrategyFactory,
      params: o.params as Params,
      style: styleOf(o.style),
    };
  if (typeof o.make === 'function') {
    const d = v as StrategyDescriptor<StrategyContext>;
    // one factory per descriptor, so registering it again (a second run) is not a conflict
    let factory = descriptorFactories.get(d);
    if (!factory) {
      // the descriptor's declared defaults, overridden by the config's parameters
      const defaults = paramDefaults(d.params);
      factory = (ctx) => d.make(ctx, { ...defaults, ...((ctx.params ?? {}) as Params) });
      descriptorFactories.set(d, factory);
    }
    return { name: d.name, factory, style: styleOf(d.style) };
  }
  return null;
}

/**
 * Registers an in-memory strategy under `name` for this process. A built-in's name, or a name
 * another strategy (module or in-memory) already holds, is refused: two runs in one process must
 * not crawl each other's strategy under one name.
 */
export function registerStrategy(name: string, factory: StrategyFactory, style?: FigureStyle): void {
  if (style) pluginStyles.set(name, style);
  if (name in BUILT_IN) throw new StrategyError(`strategy "${name}" is a built-in; give yours another name`);
  const held = plugins.get(name);
  if (held && held.factory !== factory)
    throw new StrategyError(
      `strategy "${name}" is already registered in this process ` +
        `(${held.file === IN_MEMORY ? 'another in-memory strategy' : `module ${held.file}`}); give ` +
        `yours another name`,
    );
  plugins.set(name, { file: IN_MEMORY, factory });
}

/** Whether `name` is an in-memory strategy registered in this process. */
export function isInMemoryStrategy(name: string): boolean {
  return plugins.get(name)?.file === IN_MEMORY;
}

/**
 * Loads a plugin module (a path, relative to the working directory) under `name`; a module that
 * does not load or does not default-export a function throws a StrategyError with one line.
 */
export async function loadStrategyModule(name: string, file: string): Promise<void> {
  const path = resolve(resource(file));
  if (plugins.get(name)?.file === path) return;
  if (isInMemoryStrategy(name))
    throw new StrategyError(
      `strategy module ${file}: "${name}" is an in-memory strategy in this process; give the module another name`,
    );
  if (name in BUILT_IN)
    throw new StrategyError(`strategy module ${file}: "${name}" is a built-in strategy; give the module another name`);
  if (!existsSync(path)) throw new StrategyError(`strategy module ${file}: no such file`);
  let mod: { default?: unknown; style?: unknown };
  // the module may import the harness by its package name, in a clone too; built, it may be TypeScript
  await prepareModuleLoad(path);
  try {
    mod = (await import(await importUrlOf(path))) as { default?: unknown; style?: unknown };
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
  // a module may declare its figure style: export const style = ['#CC79A7', [2, 2]]
  const style = styleOf(mod.style ?? (mod.default as { style?: unknown }).style);
  if (style) pluginStyles.set(name, style);
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

/**
 * Builds the strategy `name` (a built-in or a loaded plugin) with the context's parameters; a
 * plugin's factory has `limitMs` (the crawl's strategyTimeoutMs) as onPage has.
 */
export function makeStrategy(
  name: string,
  ctx: StrategyContext,
  limitMs: number = DEFAULT_SETTINGS.strategyTimeoutMs,
): Strategy {
  const plugin = plugins.get(name);
  if (plugin) {
    let s: unknown;
    // under the watchdog of onPage (a factory that never returns ends the process with one line),
    // the models and the judgement the harness trains for it excepted
    const { models, judge } = ctx;
    const built: StrategyContext = {
      ...ctx,
      name,
      params: ctx.params ?? {},
      ...(models ? { models: () => outside(models) } : {}),
      ...(judge ? { judge: () => outside(judge) } : {}),
    };
    try {
      s = watched(name, 'its factory', limitMs, () => plugin.factory(built));
    } catch (e) {
      if (e instanceof StrategyError || e instanceof Deferred) throw e;
      throw new StrategyError(
        `${plugin.file === IN_MEMORY ? `strategy "${name}" (in memory)` : `strategy module ${plugin.file}`}: ` +
          `its factory threw: ${String((e as Error).message ?? e).split('\n')[0]}`,
      );
    }
    return checkStrategy(
      s,
      plugin.file === IN_MEMORY ? `strategy "${name}" (in memory):` : `strategy module ${plugin.file}:`,
    );
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
