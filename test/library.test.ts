/**
 * The library face as a program uses it (issue #53 item 4): strategies given in memory (a
 * defineStrategy descriptor, { name, factory }, a named function) run through runExperiment
 * beside the built-ins; writeResults writes what `npm run experiment` writes; the written
 * config names the in-memory strategy, reruns from the program that has it, and says what to do
 * where it is missing.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineStrategy, type PageDecision, type ParsedLink, type Strategy } from '../crawler/index.ts';
import type { StrategyContext } from '../crawler/focused/index.ts';
import { ExperimentConfigError, loadExperiment } from '../experiments/focused/config.ts';
import { runExperiment, writeResults } from '../experiments/focused/runner.ts';
import { scaledWeb } from './helpers.ts';

/** Shorter URLs first; `bias` a parameter the config may set. */
const shortest = (name: string, bias = 0): Strategy => ({
  name,
  seedScore: () => 1,
  onPage: (_p, links: readonly ParsedLink[]): PageDecision => ({ scores: links.map((l) => bias + 1 / l.url.length) }),
});

const shortestUrl = defineStrategy<StrategyContext>({
  name: 'shortest-url',
  summary: 'shorter URLs first',
  reads: 'nothing',
  params: { bias: 0 },
  style: ['#000000', []],
  make: (ctx, params) => shortest(ctx.name ?? 'shortest-url', params.bias),
});

const base = {
  // small.json's departments at a quarter of their size: what the library runs, not its recall
  web: scaledWeb('data/webs/small.json', 0.25),
  seeds: [1],
  budget: 60,
  every: 20,
  sites: ['cs.alpha-university.test', 'cs.beta-university.test'],
  crawl: { delayMs: 0 },
};

describe('the library: strategies in memory', () => {
  it('runs a descriptor, a factory object and a named function beside a built-in, and writes the results', async () => {
    function longestUrl(ctx: StrategyContext): Strategy {
      const s = shortest(ctx.name ?? 'longest-url');
      return { ...s, onPage: (p, links) => ({ scores: s.onPage(p, links).scores.map((x) => -(x ?? 0)) }) };
    }
    const cfg = loadExperiment({
      ...base,
      name: 'library-mem',
      strategies: [
        'bfs',
        shortestUrl,
        { name: 'by-factory', factory: (ctx: StrategyContext) => shortest(ctx.name!) },
        longestUrl,
      ],
    });
    expect(cfg.strategies).toEqual(['bfs', 'shortest-url', 'by-factory', 'longestUrl']);
    const d = await runExperiment(cfg, { cacheDir: null });
    const auc = (s: string): string =>
      JSON.stringify(d.summaries.filter((r) => r.strategy === s).map((r) => [r.site, r.status_2xx, r.recall_auc]));
    for (const s of cfg.strategies) expect(d.summaries.filter((r) => r.strategy === s)).toHaveLength(2);
    // a descriptor and a factory of the same rule crawl alike; the reverse rule crawls otherwise
    expect(auc('by-factory')).toBe(auc('shortest-url'));
    expect(JSON.stringify(d.curves.filter((c) => c.strategy === 'longestUrl').map((c) => c.recall))).not.toBe(
      JSON.stringify(d.curves.filter((c) => c.strategy === 'shortest-url').map((c) => c.recall)),
    );

    const dir = join(mkdtempSync(join(tmpdir(), 'lib-')), 'out');
    const written = await writeResults(d, dir);
    for (const f of ['curves.csv', 'summary.csv', 'config.json', 'report.md', 'index.html', 'fig-recall.svg'])
      expect(written.files).toContain(f);
    expect(existsSync(join(dir, 'INCOMPLETE'))).toBe(false);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { strategies: unknown[] };
    expect(saved.strategies).toEqual([
      'bfs',
      { name: 'shortest-url', inMemory: true },
      { name: 'by-factory', inMemory: true },
      { name: 'longestUrl', inMemory: true },
    ]);
    // the program that has the strategies reruns the written config to the same rows
    const again = await runExperiment(loadExperiment(join(dir, 'config.json')), { cacheDir: null });
    expect(JSON.stringify(again.curves)).toBe(JSON.stringify(d.curves));
  });

  it('takes parameters for an in-memory descriptor from the config', async () => {
    const made: number[] = [];
    const probe = defineStrategy<StrategyContext>({
      ...shortestUrl,
      name: 'param-probe',
      make: (ctx, params) => {
        made.push(params.bias);
        return shortest(ctx.name!, params.bias);
      },
    });
    const cfg = loadExperiment({ ...base, name: 'library-params', sites: [base.sites[0]], strategies: [probe] });
    cfg.strategyParams['param-probe'].params = { bias: 2 };
    await runExperiment(cfg, { cacheDir: null });
    expect(made.length).toBeGreaterThan(0);
    expect(new Set(made)).toEqual(new Set([2]));
  });

  it('refuses what cannot work, in one line each', async () => {
    const cfg = loadExperiment({ ...base, name: 'library-refuse', strategies: [shortestUrl] });
    // worker processes and queue workers cannot build a function of this process
    await expect(runExperiment(cfg, { workers: 2, cacheDir: null })).rejects.toThrow(
      /shortest-url is a strategy in memory, which a worker process cannot build/,
    );
    await expect(runExperiment(cfg, { queue: 'redis://127.0.0.1:1', cacheDir: null })).rejects.toThrow(
      /a queue worker cannot build/,
    );
    // a built-in's name, no name, another strategy under a name already held
    expect(() => loadExperiment({ ...base, strategies: [{ ...shortestUrl, name: 'bfs' }] })).toThrow(/built-in/);
    expect(() => loadExperiment({ ...base, strategies: [() => shortest('x')] })).toThrow(/needs a name/);
    expect(() =>
      loadExperiment({ ...base, strategies: [{ name: 'shortest-url', factory: () => shortest('y') }] }),
    ).toThrow(/already registered in this process/);
    // a written config naming an in-memory strategy this process does not have
    expect(() =>
      loadExperiment({ ...base, name: 'elsewhere', strategies: [{ name: 'not-here', inMemory: true }] }),
    ).toThrow(ExperimentConfigError);
    expect(() =>
      loadExperiment({ ...base, name: 'elsewhere', strategies: [{ name: 'not-here', inMemory: true }] }),
    ).toThrow(/was given in memory by the program that ran this config: rerun it from that program/);
  });
});
