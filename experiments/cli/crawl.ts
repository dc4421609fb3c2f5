/**
 * npm run crawl -- ... : crawl any HTTP server, or the synthetic web started in-process with
 * --web (that wiring is why this command lives in experiments/: crawler/ never imports sim/).
 */
import { parseOrFail } from './args.ts';
import { type CliIo, failed, intFlag, runAsProcess, usage } from '../../lib/cli.ts';
import {
  CrawlEngine,
  CrawlError,
  DEFAULT_SETTINGS,
  NUMBER_SETTINGS,
  type CrawlSettings,
  type Strategy,
  WarcWriter,
} from '../../crawler/index.ts';
import {
  loadStrategyModule,
  makeStrategy,
  resolveParams,
  StrategyError,
  strategyDefaults,
  strategyNames,
  strategyNeeds,
  type StrategyContext,
} from '../strategies.ts';
import { basename, extname, join } from 'node:path';
import { loadKeywords, RELEVANCE_MODES, RelevanceJudge, type RelevanceMode } from '../../crawler/focused/index.ts';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { KIND_NAMES } from '../../sim/web.ts';
import { progress } from './progress.ts';
import type { TrainingData } from '../training.ts';

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
  --param KEY=VALUE       a parameter of the strategy (repeatable; numbers as numbers); defaults:
${strategyNames()
  .filter((n) => Object.keys(strategyDefaults(n)).length)
  .map(
    (n) =>
      `                            ${n}: ${Object.entries(strategyDefaults(n))
        .map(([k, x]) => `${k}=${x}`)
        .join(' ')}`,
  )
  .join('\n')}
  --out DIR               write crawl.jsonl, the journal, summary.json (default out/crawl)
  --resume DIR            continue a crawl that was stopped or killed
  --scope PATTERN         hosts in scope: host, *.suffix, host:port (repeatable; default the seeds' origins)
  --resolve RULE          HOST:PORT:ADDR or PATTERN=ADDR[:PORT], like curl (repeatable)
  --allow-private         also fetch private, link-local and metadata addresses
  --no-autothrottle       do not adapt the delay to latency
  --timeout-ms N          idle timeout for headers and between body chunks (default ${DEFAULT_SETTINGS.headersTimeoutMs})
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

const int = (name: string, v: string | undefined, min = 0): number | undefined => intFlag(name, v, min);

export async function main(argv: string[], io: CliIo): Promise<number> {
  const values: Record<string, string | string[] | boolean | undefined> = parseOrFail(argv, {
    allowPositionals: false,
    options: {
      seed: { type: 'string' },
      strategy: { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'string' },
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
      help: { type: 'boolean', short: 'h' },
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
    },
  }).values;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const v = values as Record<string, string | undefined> & {
    start?: string[];
    scope?: string[];
    resolve?: string[];
    replay?: string[];
    param?: string[];
  };

  /** Where learned strategies keep their trained models between runs (null: train every time). */
  const modelCache = values['no-cache'] ? null : '.cache/models';
  /** Says so when the models came from the cache rather than from training (as npm run model does). */
  const fromCache = (m: { cached: boolean }): void => {
    if (m.cached) io.err(`models from ${modelCache} (--no-cache trains them again)\n`);
  };

  const settings: Partial<CrawlSettings> = {};
  const set = <K extends keyof CrawlSettings>(k: K, x: CrawlSettings[K] | undefined): void => {
    if (x !== undefined) settings[k] = x;
  };
  set('seeds', v.start);
  set('scope', v.scope);
  set('resolve', v.resolve);
  // every numeric setting with a flag, from its descriptor (crawler/settings.ts: NUMBER_SETTINGS)
  for (const d of NUMBER_SETTINGS) if (d.flag) set(d.key, int(d.flag, v[d.flag] as string | undefined, d.min));
  set('userAgent', v['user-agent']);
  const timeout = int('timeout-ms', v['timeout-ms'], 1);
  if (timeout) {
    settings.headersTimeoutMs = timeout;
    settings.bodyTimeoutMs = timeout;
  }
  if (values['no-autothrottle']) settings.autoThrottle = false;
  if (values['allow-private']) settings.allowPrivateAddresses = true;
  if (values.deterministic) settings.deterministic = true;
  // a strategy module runs under its file name
  const isModule = !!v.strategy && ['.ts', '.js', '.mjs', '.mts'].includes(extname(v.strategy));
  const strategyName = isModule ? basename(v.strategy!, extname(v.strategy!)) : (v.strategy ?? 'bfs');
  if (isModule)
    await loadStrategyModule(strategyName, v.strategy!).catch((e: Error) => usage(`--strategy: ${e.message}`));
  else if (!strategyNames().includes(strategyName))
    usage(`--strategy: "${strategyName}" is not one of ${strategyNames().join(', ')}, nor a module file (.ts, .js)`);
  settings.strategy = strategyName;
  const params: Record<string, unknown> = {};
  for (const p of v.param ?? []) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/.exec(p);
    if (!m) usage(`--param: "${p}" must be KEY=VALUE`);
    params[m![1]] = m![2] !== '' && Number.isFinite(Number(m![2])) ? Number(m![2]) : m![2];
  }
  if (!isModule) {
    try {
      resolveParams(strategyName, params);
    } catch (e) {
      usage(`--param: ${(e as Error).message}`);
    }
  }
  // --seed is a generated web's random seed in every command; a URL there was a start URL once
  if (v.seed !== undefined && /^[a-z]+:/i.test(v.seed))
    usage(`--seed: "${v.seed}" is a URL; start URLs are given with --start (--seed is the web's random seed)`);
  for (const s of v.start ?? []) {
    try {
      new URL(s);
    } catch {
      usage(`--start: "${s}" is not an absolute URL`);
    }
  }
  if (v.resume && (v.web || v.replay))
    usage(
      '--resume continues a crawl with its saved settings; start the web separately (--resolve) or drop --web/--replay',
    );
  if (v.web && v.replay) usage('--web and --replay: one web at a time');
  if (!v.resume && !v.start?.length && !v.web && !v.replay)
    usage('give at least one --start URL (or --web, --replay, or --resume DIR); see --help');
  if (v.seed !== undefined && !v.web)
    usage('--seed is the random seed of a generated web: it goes with --web (start URLs: --start)');

  let closeWeb: (() => Promise<void>) | null = null;
  let models: StrategyContext['models'];
  let judge: StrategyContext['judge'];
  const needs = strategyNeeds(strategyName);
  const learns = needs !== null;
  if (learns && !v.web && !v.replay && !v.resume)
    usage(
      `--strategy ${strategyName} learns from labelled sites: give --web or --replay with --labels (it trains on the other sites)`,
    );
  const relevance = v.relevance as RelevanceMode | undefined;
  if (relevance !== undefined && !RELEVANCE_MODES.includes(relevance))
    usage(`--relevance: "${relevance}" is not one of ${RELEVANCE_MODES.join(', ')}`);
  const list = (x: string | undefined): string[] =>
    (x ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  /**
   * Leave-one-site-out for a learned strategy: the one site crawled (--site, else the first seed's
   * host, else the first site), in scope alone; refuses seeds or scopes that reach a training site.
   */
  function heldOutSite(sites: readonly string[]): string {
    const site = v.site ?? (v.start?.length ? new URL(v.start[0]).host : sites[0]);
    if (!sites.includes(site)) usage(`--site: "${site}" is not one of the sites: ${sites.join(', ')}`);
    for (const s of v.start ?? [])
      if (new URL(s).host !== site)
        usage(
          `--start ${s}: a learned strategy crawls one site (${site}) and trains on the others; a seed on another site would crawl training data`,
        );
    for (const p of v.scope ?? [])
      if (p !== site) usage(`--scope ${p}: a learned strategy crawls ${site} only (it trains on the other sites)`);
    if (!settings.seeds?.length) settings.seeds = [`http://${site}/`];
    settings.scope = [site];
    return site;
  }

  /** Models for the held-out site, trained on the others (or from the cache), and the relevance judge. */
  const learnFrom = (training: TrainingData, heldOut: string, key: string, mode: RelevanceMode): void => {
    const m = training.models(
      heldOut,
      loadKeywords(),
      modelCache,
      key,
      undefined,
      mode === 'learned' || needs === 'pages',
    );
    fromCache(m);
    models = () => m;
    judge = () => new RelevanceJudge(mode, m.pages);
  };

  /** The web this command serves (written to OUT/web.json, so that --resume serves it again). */
  let servedWeb: { web: string; seed: number; rule: string } | null = null;
  if (v.resume) {
    // a crawl of a generated web: the web lived in the stopped process; generate and serve it again
    const file = join(v.resume, 'web.json');
    const saved = join(v.resume, 'crawl-settings.json');
    if (existsSync(file) && existsSync(saved)) {
      const was = JSON.parse(readFileSync(file, 'utf8')) as { web: string; seed: number; rule: string };
      const { generateSyntheticWeb, serveSyntheticWeb } = await import('../focused/web.ts');
      let g: ReturnType<typeof generateSyntheticWeb>;
      try {
        g = generateSyntheticWeb(was.web, was.seed);
      } catch (e) {
        usage(`--resume: the crawl's web ${was.web}: ${(e as Error).message}`);
      }
      const w = await serveSyntheticWeb(g).catch((e: Error) => failed(e.message));
      closeWeb = w.close;
      const rules = (JSON.parse(readFileSync(saved, 'utf8')) as { settings: { resolve?: string[] } }).settings.resolve;
      servedWeb = { ...was, rule: `*.test=127.0.0.1:${w.port}` };
      settings.resolve = [...(rules ?? []).filter((r) => r !== was.rule), servedWeb.rule];
      io.err(`synthetic web ${was.web} seed ${was.seed} served again on 127.0.0.1:${w.port}\n`);
    }
  }

  if (v.web) {
    const { generateSyntheticWeb, serveSyntheticWeb } = await import('../focused/web.ts');
    const webSeed = int('seed', v.seed, 0) ?? 1;
    let g: ReturnType<typeof generateSyntheticWeb>;
    try {
      g = generateSyntheticWeb(v.web, webSeed);
    } catch (e) {
      usage((e as Error).message);
    }
    // the target and the held-out site are checked against the generated web before it is served
    const kinds = list(v.target ?? 'paper').map((k) => k.toLowerCase());
    if (learns || relevance) {
      const known = KIND_NAMES.map((k) => k.toLowerCase());
      for (const k of kinds) if (!known.includes(k)) usage(`--target: "${k}" is not one of ${known.join(', ')}`);
    }
    const heldOut = learns || relevance ? heldOutSite(g.departmentHosts) : '';
    const w = await serveSyntheticWeb(g).catch((e: Error) => failed(e.message));
    closeWeb = w.close;
    const rule = `*.test=127.0.0.1:${w.port}`;
    servedWeb = { web: v.web, seed: webSeed, rule };
    settings.resolve = [...(settings.resolve ?? []), rule];
    io.err(`synthetic web ${v.web} seed ${webSeed} on 127.0.0.1:${w.port}\n`);
    if (learns || relevance) {
      const mode: RelevanceMode = relevance ?? (kinds.join() === 'paper' ? 'paper' : 'learned');
      const isTarget = (id: number): boolean => kinds.includes(KIND_NAMES[w.web.kind[id]].toLowerCase());
      const { TrainingData, sitePages, webKey } = await import('../training.ts');
      const { DEFAULT_FUTURE } = await import('../../crawler/focused/index.ts');
      const others = w.departmentHosts.filter((h) => h !== heldOut);
      io.err(
        `training on ${others.join(', ')}; crawling ${heldOut} only (target: ${kinds.join(', ')}; relevance: ${mode})\n`,
      );
      learnFrom(
        new TrainingData((h) => sitePages(w.web, h, isTarget), w.departmentHosts, DEFAULT_FUTURE),
        heldOut,
        `${webKey(w.web)}:${webSeed}:${kinds.join('+')}`,
        mode,
      );
    } else {
      if (!settings.seeds?.length) settings.seeds = w.departmentHomes;
      if (!settings.scope?.length && !v.start?.length) settings.scope = w.departmentHosts;
    }
  }

  if (v.replay) {
    for (const f of v.replay) if (!existsSync(f)) usage(`--replay: "${f}" does not exist`);
    if ((learns || relevance === 'learned') && (!v.labels || !v.relevant))
      usage(
        `--strategy ${strategyName} on an archive needs --labels CSV and --relevant LABEL,... (it trains on the other sites' labelled pages)`,
      );
    if (v.labels && !existsSync(v.labels)) usage(`--labels: "${v.labels}" does not exist`);
    const { archiveEnv, archiveSites, checkArchive } = await import('../focused/env.ts');
    const { ARCHIVE_DEFAULTS, DEFAULT_EXPERIMENT, ExperimentConfigError } = await import('../focused/config.ts');
    const cfg = {
      ...structuredClone(DEFAULT_EXPERIMENT),
      name: 'crawl',
      archive: {
        ...structuredClone(ARCHIVE_DEFAULTS),
        warc: v.replay,
        labels: v.labels ?? '',
        relevant: list(v.relevant),
      },
    };
    if (v.labels && v.relevant)
      await checkArchive(cfg).catch((e: Error) => usage(e instanceof ExperimentConfigError ? e.message : String(e)));
    const { WarcArchive } = await import('../../sim/warc.ts');
    // a damaged WARC: a crawl replays it up to its last whole record and says so
    const replayed = await WarcArchive.open(v.replay);
    for (const w of replayed.warnings) io.err(`warning: ${w}\n`);
    const sites = v.labels && v.relevant ? archiveSites(cfg) : replayed.hosts();
    if (learns || relevance) {
      const mode: RelevanceMode = relevance ?? 'learned';
      const heldOut = heldOutSite(sites);
      const env = await archiveEnv(cfg);
      closeWeb = env.close;
      settings.resolve = [...(settings.resolve ?? []), `*=127.0.0.1:${env.port}`];
      io.err(
        `replaying ${v.replay.join(', ')} on 127.0.0.1:${env.port}; training on ${sites.filter((h) => h !== heldOut).join(', ')}; crawling ${heldOut} only (relevant: ${list(v.relevant).join(', ')}; relevance: ${mode})\n`,
      );
      learnFrom(env.training, heldOut, env.cacheKey, mode);
    } else {
      const { ReplayServer } = await import('../../sim/replay.ts');
      const server = await ReplayServer.start(replayed);
      closeWeb = () => server.close();
      settings.resolve = [...(settings.resolve ?? []), `*=127.0.0.1:${server.port}`];
      if (!settings.seeds?.length) settings.seeds = [`http://${sites[0]}/`];
      io.err(`replaying ${v.replay.join(', ')} on 127.0.0.1:${server.port}\n`);
    }
  }

  const outDir = v.resume ?? v.out ?? 'out/crawl';
  const processes = int('processes', v.processes, 1);
  if (processes !== undefined || v.redis) {
    if (isModule)
      usage(
        '--strategy FILE: strategy modules are not supported in distributed crawls yet (the processes are built from names)',
      );
    if (v.resume)
      usage(
        '--resume is for one-process crawls; a distributed crawl resumes by starting its processes again (the queues are in the coordinator)',
      );
    if (v.warc) usage('--warc is not supported in distributed crawls yet');
    if (values.deterministic) usage('--deterministic: a distributed crawl has no global order');
    const { runDistributedCli } = await import('../distributed/cli.ts');
    if (v.replay) usage('--replay is not supported in distributed crawls yet');
    if (v.target || v.relevance)
      usage(
        '--target and --relevance are not supported in distributed crawls yet (processes train for research papers)',
      );
    const models =
      v.web && (strategyName === 'future' || strategyName === 'adaptive')
        ? {
            web: v.web,
            seed: int('seed', v.seed, 0) ?? 1,
            heldOut: new URL(settings.seeds![0]).host,
            cacheDir: modelCache,
          }
        : undefined;
    await runDistributedCli({
      io,
      settings,
      strategy: strategyName,
      outDir,
      processes: processes ?? 1,
      values: v,
      quiet: !!values.quiet,
      models,
    });
    await closeWeb?.();
    return 0;
  }
  let engine: CrawlEngine;
  const bar = values.quiet ? null : progress(settings.maxPages ?? DEFAULT_SETTINGS.maxPages, 'pages');
  let rate = 0;
  try {
    const strategy: Strategy = makeStrategy(strategyName, {
      seed: settings.seed ?? 1,
      keywords: loadKeywords(),
      models,
      judge,
      params,
    });
    engine = CrawlEngine.create({
      settings,
      strategy,
      outDir,
      resume: !!v.resume,
      warc: v.warc ? new WarcWriter(v.warc, { append: !!v.resume }) : undefined,
      onProgress: (p) => {
        rate = p.pagesPerSec;
        bar?.update(p.pages, { rate: Math.round(p.pagesPerSec), frontier: p.frontier, errors: p.errors });
      },
    });
  } catch (e) {
    bar?.stop();
    if (e instanceof CrawlError || e instanceof StrategyError) usage(e.message);
    throw e;
  }
  if (servedWeb) writeFileSync(join(outDir, 'web.json'), `${JSON.stringify(servedWeb)}\n`);
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
  io.err(
    `crawled ${summary.pages} pages in ${(summary.elapsedMs / 1000).toFixed(1)} s (${summary.pagesPerSec} pages/s); log: ${outDir}/crawl.jsonl\n`,
  );
  await closeWeb?.();
  // a crawl that reached none of its seeds is a failed crawl, not an empty result
  if (summary.seedsFetched === 0 && summary.seedFailures.length) {
    io.err(
      `error: no seed could be fetched: ${summary.seedFailures.slice(0, 5).join('; ')}${summary.seedFailures.length > 5 ? '; ...' : ''}\n`,
    );
    return 1;
  }
  return 0;
}

await runAsProcess(main, import.meta);
