// A program against the installed package, the experiment's face: a strategy given in memory (no
// module file) runs beside built-ins through the experiment runner, on two departments of a
// generated web, and its results are written as `crawler-harness experiment` writes them (CSVs,
// config.json, figures, report.md, index.html). See crawl.ts for how to build and run it.
import {
  defineStrategy,
  loadExperiment,
  type PageDecision,
  type ParsedLink,
  runExperiment,
  writeResults,
} from 'crawler-harness';

/** Links that say "paper" (in the URL or anchor) first, then shorter URLs: a rule of your own. */
const paperWords = defineStrategy({
  name: 'paper-words',
  summary: 'links that say "paper" first, then shorter URLs',
  reads: 'nothing',
  params: { bonus: 1 },
  style: ['#0072B2', [3, 1]],
  make: (ctx, params) => ({
    name: ctx.name ?? 'paper-words',
    seedScore: () => 1,
    onPage: (_page, links: readonly ParsedLink[]): PageDecision => ({
      scores: links.map((l) => (/paper/i.test(`${l.url} ${l.anchor}`) ? params.bonus : 0) + 1 / l.url.length),
    }),
  }),
});

// the config as an object: every field a config file takes (crawler-harness experiment --help)
const cfg = loadExperiment({
  name: 'my-strategy',
  web: 'data/webs/small.json',
  seeds: [1],
  sites: ['cs.alpha-university.test', 'cs.beta-university.test'],
  budget: 60,
  every: 20,
  crawl: { delayMs: 0 },
  strategies: ['bfs', 'immediate', paperWords],
});
// an in-memory strategy runs in this process (workers and queues cannot build a function)
const result = await runExperiment(cfg, { cacheDir: null });
const written = await writeResults(result, 'results/my-strategy');
const mean = (s: string): number => {
  const rows = result.summaries.filter((r) => r.strategy === s);
  return rows.reduce((a, r) => a + r.recall_auc, 0) / rows.length;
};
console.log(
  JSON.stringify({
    strategies: cfg.strategies,
    recallAuc: Object.fromEntries(cfg.strategies.map((s) => [s, Number(mean(s).toFixed(3))])),
    files: written.files.length,
    claims: written.claims.map((c) => `${c.id} ${c.verdict}`),
  }),
);
