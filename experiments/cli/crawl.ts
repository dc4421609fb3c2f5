/**
 * npm run crawl -- ... : crawl any HTTP server, or the synthetic web started in-process with
 * --web (that wiring is why this command lives in experiments/: crawler/ never imports sim/).
 * In four steps, each a function: the flags parsed and every one checked (crawl-plan.ts), the web
 * or archive checked and served (crawl-env.ts), the models trained when the strategy's descriptor
 * says it needs them, and the crawl run, on one process or several.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { type CliIo, failed, parseCommand, runAsProcess } from '../../lib/cli.ts';
import {
  CrawlEngine,
  checkCrawlFolder,
  DEFAULT_SETTINGS,
  lockCrawlFolder,
  NUMBER_SETTINGS,
  type Strategy,
  WarcWriter,
} from '../../crawler/index.ts';
import { loadKeywords } from '../../crawler/focused/index.ts';
import { rangeText } from '../../lib/fields.ts';
import { makeStrategy, strategyNames, strategyParams, type StrategyContext } from '../strategy-registry.ts';
import { progress } from './progress.ts';
import { type CrawlPlan, planCrawl } from './crawl-plan.ts';
import { type CrawlEnvironment, openEnvironment, train } from './crawl-env.ts';

/** The built-ins' parameters for --help: default, range and what each does, from their descriptors. */
function paramHelp(): string {
  const pad = ' '.repeat(28);
  return strategyNames()
    .filter((n) => Object.keys(strategyParams(n)).length)
    .map(
      (n) =>
        `${pad}${n}:\n${Object.entries(strategyParams(n))
          .map(([k, p]) => `${pad}  ${k}=${p.default}: ${p.help} (${rangeText({ max: Infinity, ...p })})`)
          .join('\n')}`,
    )
    .join('\n');
}

const USAGE = `Usage: npm run crawl -- --start URL [--start URL ...] --out DIR [options]
       npm run crawl -- --resume DIR [--max-pages N]
       npm run crawl -- --web data/webs/paper.json [--seed 1] --out DIR [options]
       npm run crawl -- --replay FILE.warc.gz [--labels CSV --relevant LABEL,...] --out DIR [options]

Crawl options (defaults in crawler/settings.ts):
  --start URL             start URL, a seed of the crawl (repeatable; with --web, defaults to the
                          department homepages)
  --strategy NAME|FILE    link ordering (default bfs): ${strategyNames().slice(0, 6).join(', ')},
                          ${strategyNames().slice(6).join(', ')},
                          or a strategy module (.ts/.js) default-exporting (context) => Strategy
  --param KEY=VALUE       a parameter of the strategy (repeatable; numbers as numbers):
${paramHelp()}
  --out DIR               write crawl.jsonl, the journal, summary.json (default out/crawl)
  --resume DIR            continue a crawl that was stopped or killed
  --force                 replace the crawl --out holds (without it such a folder is refused)
  --scope PATTERN         hosts in scope: host, *.suffix, host:port (repeatable; default the start URLs' origins)
  --resolve RULE          HOST:PORT:ADDR or PATTERN=ADDR[:PORT], like curl (repeatable)
  --allow-private         also fetch private, link-local and metadata addresses
  --no-autothrottle       do not adapt the delay to latency
  --timeout-ms N          idle timeout for headers and between body chunks (defaults ${DEFAULT_SETTINGS.headersTimeoutMs} and ${DEFAULT_SETTINGS.bodyTimeoutMs})
${numberFlags()}
  --user-agent UA         (default "${DEFAULT_SETTINGS.userAgent}")
  --deterministic         same web, settings and seed: same fetch order and log
  --warc FILE             also write every response to a WARC file (.warc.gz: gzipped records)
  --quiet                 no progress output
Synthetic web:
  --web FILE              start the synthetic web from this config in-process
  --seed N                its random seed, as in npm run sim (default 1)
  --target KIND,...       page kinds that are relevant (default paper), for learned strategies
Replayed archive:
  --replay FILE           serve this WARC (repeatable) in-process; every host resolves to it
  --labels CSV            url,label ground truth of the archive (for learned strategies)
  --relevant LABEL,...    labels that count as relevant
Learned strategies (future, adaptive) train leave-one-site-out on the other sites of the web or
archive and crawl one site only, never one they trained on:
  --site HOST             the site to crawl (default: the first --start's host, else the first site)
  --relevance MODE        the crawler's relevance judgement: paper, keywords or learned
                          (a strategy module gets trained models only when --relevance is given)
                          (default paper for papers on --web, else learned)
  --no-cache              train the models again instead of using .cache/models
Distributed (--max-pages is then the budget over all processes; future and adaptive need --web):
  --processes N           N crawler processes (worker threads) on this machine, in-memory transport
  --redis URL             join a crawl coordinated by Redis (redis://HOST:PORT); with --processes N,
                          this machine runs N of its processes
  --datacentre NAME       data centre of this machine's processes (default dc1)
  --datacentres LIST      every data centre of the crawl, NAME:REGION,... (same on every machine;
                          default the one above, region from --region)
  --assignment MODE       hosts to data centres: geo (by region, --geo), hash (default) or single
  --geo FILE              host,region CSV (a GeoIP-like table) for --assignment geo
  --region NAME           region declared to servers (x-crawler-region); default the centre's
  --crawl-name NAME       the crawl's Redis key prefix (default crawl); --fresh deletes its keys first
  --process-id ID         this process's name (default HOSTNAME-PID)
  --expect-processes N    wait until N processes of this data centre have joined
`;

/** Usage lines of the numeric settings that have a flag, with their help and default. */
function numberFlags(): string {
  return NUMBER_SETTINGS.filter((d) => d.flag)
    .map((d) => `  ${`--${d.flag} N`.padEnd(24)}${d.help} (default ${d.default === Infinity ? 'none' : d.default})`)
    .join('\n');
}

/** The command's flags (lib/cli.ts parseCommand: node:util parseArgs, strict, --help). */
const OPTIONS = {
  seed: { type: 'string' },
  strategy: { type: 'string' },
  out: { type: 'string' },
  resume: { type: 'string' },
  force: { type: 'boolean' },
  scope: { type: 'string', multiple: true },
  resolve: { type: 'string', multiple: true },
  'allow-private': { type: 'boolean' },
  'no-autothrottle': { type: 'boolean' },
  'timeout-ms': { type: 'string' },
  'user-agent': { type: 'string' },
  deterministic: { type: 'boolean' },
  quiet: { type: 'boolean' },
  web: { type: 'string' },
  start: { type: 'string', multiple: true },
  warc: { type: 'string' },
  replay: { type: 'string', multiple: true },
  labels: { type: 'string' },
  relevant: { type: 'string' },
  site: { type: 'string' },
  relevance: { type: 'string' },
  target: { type: 'string' },
  param: { type: 'string', multiple: true },
  processes: { type: 'string' },
  redis: { type: 'string' },
  datacentre: { type: 'string' },
  datacentres: { type: 'string' },
  assignment: { type: 'string' },
  geo: { type: 'string' },
  region: { type: 'string' },
  'crawl-name': { type: 'string' },
  fresh: { type: 'boolean' },
  'process-id': { type: 'string' },
  'expect-processes': { type: 'string' },
  'no-cache': { type: 'boolean' },
  ...Object.fromEntries(NUMBER_SETTINGS.filter((d) => d.flag).map((d) => [d.flag!, { type: 'string' as const }])),
} as const;

/** The crawl on several processes (worker threads, or this machine's share of a Redis crawl). */
async function runDistributed(plan: CrawlPlan, env: CrawlEnvironment, io: CliIo): Promise<number> {
  const { runDistributedCli } = await import('../distributed/crawl-command.ts');
  const d = plan.distributed!;
  await runDistributedCli({
    io,
    settings: env.settings,
    strategy: plan.strategy,
    outDir: plan.outDir,
    processes: d.processes,
    flags: d.flags,
    // each process loads the models trained on the generated web's other departments
    models:
      plan.values.web && plan.needs === 'models'
        ? {
            web: plan.values.web,
            seed: plan.webSeed,
            heldOut: new URL(env.settings.startUrls![0]).host,
            cacheDir: plan.modelCache,
          }
        : undefined,
  });
  return 0;
}

/** The crawl on this process: the engine, its progress line, a stop on a signal, the summary. */
async function runOne(
  plan: CrawlPlan,
  env: CrawlEnvironment,
  trained: Pick<StrategyContext, 'models' | 'judge'>,
  io: CliIo,
): Promise<number> {
  const settings = env.settings;
  const outDir = plan.outDir;
  const v = plan.values;
  let engine: CrawlEngine;
  const bar = v.quiet ? null : progress(settings.maxPages ?? DEFAULT_SETTINGS.maxPages, 'pages');
  let rate = 0;
  try {
    const strategy: Strategy = makeStrategy(
      plan.strategy,
      { seed: settings.seed ?? 1, keywords: loadKeywords(), ...trained, params: plan.params },
      settings.strategyTimeoutMs,
    );
    engine = CrawlEngine.create({
      settings,
      strategy,
      outDir,
      resume: !!v.resume,
      force: !!v.force,
      warc: v.warc ? new WarcWriter(v.warc, { append: !!v.resume }) : undefined,
      archive: env.archive,
      onProgress: (p) => {
        rate = p.pagesPerSec;
        bar?.update(p.pages, { rate: Math.round(p.pagesPerSec), frontier: p.frontier, errors: p.errors });
      },
    });
  } catch (e) {
    // settings, resume, address and strategy errors end in 2 by the table (lib/errors.ts)
    bar?.stop();
    throw e;
  }
  if (env.served) writeFileSync(join(outDir, 'web.json'), `${JSON.stringify(env.served)}\n`);
  io.onStop?.((signal) => {
    io.err('\nstopping: finishing requests in flight (run again with --resume to continue)\n');
    engine.stop(signal ?? 'stop()');
  });
  const summary = await engine.run().catch((e: unknown) => {
    bar?.stop();
    failed(e instanceof Error ? e.message : String(e));
  });
  bar?.update(summary.pages, {
    rate: Math.round(rate),
    frontier: summary.frontierLeft,
    errors: Object.values(summary.errors).reduce((a, b) => a + b, 0),
  });
  bar?.stop();
  io.out(`${JSON.stringify(summary, null, 2)}\n`);
  if (summary.writeError) {
    io.err(`error: ${summary.writeError}\n`);
    return 1;
  }
  io.err(
    `crawled ${summary.pages} pages in ${(summary.elapsedMs / 1000).toFixed(1)} s (${summary.pagesPerSec} pages/s); log: ${outDir}/crawl.jsonl\n`,
  );
  // a crawl that reached none of its seeds is a failed crawl, not an empty result
  if (summary.seedsFetched === 0 && summary.seedFailures.length) {
    io.err(
      `error: no seed could be fetched: ${summary.seedFailures.slice(0, 5).join('; ')}${summary.seedFailures.length > 5 ? '; ...' : ''}\n`,
    );
    return 1;
  }
  return 0;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv, io, USAGE, OPTIONS);
  if (!parsed) return 0;
  const plan = await planCrawl(parsed.values);
  // the folder is locked before the web is served or a model trained: a second crawl on it is
  // refused at once, naming the first; whether it holds a crawl is checked after the flags
  const release = lockCrawlFolder(plan.outDir);
  let env: CrawlEnvironment | undefined;
  try {
    env = await openEnvironment(plan, io);
    if (!plan.distributed) checkCrawlFolder(plan.outDir, { resume: !!plan.values.resume, force: !!plan.values.force });
  } catch (e) {
    await env?.close();
    release();
    throw e;
  }
  try {
    const trained = train(plan, env.training, io);
    return plan.distributed ? await runDistributed(plan, env, io) : await runOne(plan, env, trained, io);
  } finally {
    await env.close();
    release();
  }
}

await runAsProcess(main, import.meta);
