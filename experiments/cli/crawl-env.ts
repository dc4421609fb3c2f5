/**
 * What the crawl command crawls besides a live server: a generated web (--web), a replayed archive
 * (--replay) or the generated web a stopped crawl ran on (--resume), each checked against what it
 * holds (the site to crawl, the target's kinds, the archive's labels) before it is served; and the
 * models a learned strategy trains on its other sites. crawler/ never imports sim/, which is why
 * this wiring lives in experiments/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlSettings } from '../../crawler/index.ts';
import type { ArchiveReading } from '../../crawler/index.ts';
import { loadKeywords, RelevanceJudge, type RelevanceMode } from '../../crawler/focused/index.ts';
import { type CliIo, failed, usage } from '../../lib/cli.ts';
import { KIND_NAMES } from '../../sim/web.ts';
import type { StrategyContext } from '../strategy-registry.ts';
import type { TrainingData } from '../web-training.ts';
import { type CrawlPlan, list } from './crawl-plan.ts';

/** The web a crawl of a generated web ran on (OUT/web.json, so that --resume serves it again). */
export interface ServedWeb {
  web: string;
  seed: number;
  rule: string;
}

/** What a learned strategy trains on: the other sites' labelled pages, leaving `heldOut` out. */
export interface TrainingPlan {
  data: TrainingData;
  heldOut: string;
  /** Identifies the web for the model cache. */
  key: string;
  mode: RelevanceMode;
}

export interface CrawlEnvironment {
  /** The settings with the environment's seeds, scope and resolve rules. */
  settings: Partial<CrawlSettings>;
  served: ServedWeb | null;
  training: TrainingPlan | null;
  /** The archive a replay reads, as reading it went (summary.json `archive`); absent on a generated web. */
  archive?: ArchiveReading;
  close(): Promise<void>;
}

/**
 * Leave-one-site-out for a learned strategy: the one site crawled (--site, else the first seed's
 * host, else the first site), in scope alone; refuses seeds or scopes that reach a training site.
 */
function heldOutSite(plan: CrawlPlan, settings: Partial<CrawlSettings>, sites: readonly string[]): string {
  const v = plan.values;
  const site = v.site ?? (v.start?.length ? new URL(v.start[0]).host : sites[0]);
  if (!sites.includes(site)) usage(`--site: "${site}" is not one of the sites: ${sites.join(', ')}`);
  for (const s of v.start ?? [])
    if (new URL(s).host !== site)
      usage(
        `--start ${s}: a learned strategy crawls one site (${site}) and trains on the others; a seed on another site would crawl training data`,
      );
  for (const p of v.scope ?? [])
    if (p !== site) usage(`--scope ${p}: a learned strategy crawls ${site} only (it trains on the other sites)`);
  if (!settings.startUrls?.length) settings.startUrls = [`http://${site}/`];
  settings.scope = [site];
  return site;
}

/** A stopped crawl of a generated web: the web lived in the stopped process; generate and serve it again. */
async function resumed(plan: CrawlPlan, env: CrawlEnvironment, io: CliIo): Promise<void> {
  const dir = plan.values.resume!;
  const file = join(dir, 'web.json');
  const saved = join(dir, 'crawl-settings.json');
  if (!existsSync(file) || !existsSync(saved)) return;
  const was = JSON.parse(readFileSync(file, 'utf8')) as ServedWeb;
  const { generateSyntheticWeb, serveSyntheticWeb } = await import('../focused/start-web.ts');
  let g: ReturnType<typeof generateSyntheticWeb>;
  try {
    g = generateSyntheticWeb(was.web, was.seed);
  } catch (e) {
    usage(`--resume: the crawl's web ${was.web}: ${(e as Error).message}`);
  }
  const w = await serveSyntheticWeb(g).catch((e: Error) => failed(e.message));
  env.close = w.close;
  const rules = (JSON.parse(readFileSync(saved, 'utf8')) as { settings: { resolve?: string[] } }).settings.resolve;
  env.served = { ...was, rule: `*.test=127.0.0.1:${w.port}` };
  env.settings.resolve = [...(rules ?? []).filter((r) => r !== was.rule), env.served.rule];
  io.err(`synthetic web ${was.web} seed ${was.seed} served again on 127.0.0.1:${w.port}\n`);
}

/** A generated web: checked (target kinds, the held-out site), then served. */
async function generated(plan: CrawlPlan, env: CrawlEnvironment, io: CliIo): Promise<void> {
  const v = plan.values;
  const { generateSyntheticWeb, serveSyntheticWeb } = await import('../focused/start-web.ts');
  let g: ReturnType<typeof generateSyntheticWeb>;
  try {
    g = generateSyntheticWeb(v.web!, plan.webSeed);
  } catch (e) {
    usage((e as Error).message);
  }
  const trains = plan.needs !== null || plan.relevance !== undefined;
  if (trains) {
    const known = KIND_NAMES.map((k) => k.toLowerCase());
    for (const k of plan.kinds) if (!known.includes(k)) usage(`--target: "${k}" is not one of ${known.join(', ')}`);
  }
  const heldOut = trains ? heldOutSite(plan, env.settings, g.departmentHosts) : '';
  const w = await serveSyntheticWeb(g).catch((e: Error) => failed(e.message));
  env.close = w.close;
  const rule = `*.test=127.0.0.1:${w.port}`;
  env.served = { web: v.web!, seed: plan.webSeed, rule };
  env.settings.resolve = [...(env.settings.resolve ?? []), rule];
  io.err(`synthetic web ${v.web} seed ${plan.webSeed} on 127.0.0.1:${w.port}\n`);
  if (!trains) {
    if (!env.settings.startUrls?.length) env.settings.startUrls = w.departmentHomes;
    if (!env.settings.scope?.length && !v.start?.length) env.settings.scope = w.departmentHosts;
    return;
  }
  const kinds = plan.kinds;
  const mode: RelevanceMode = plan.relevance ?? (kinds.join() === 'paper' ? 'paper' : 'learned');
  const isTarget = (id: number): boolean => kinds.includes(KIND_NAMES[w.web.kind[id]].toLowerCase());
  const { TrainingData, sitePages, webKey } = await import('../web-training.ts');
  const { DEFAULT_FUTURE } = await import('../../crawler/focused/index.ts');
  const others = w.departmentHosts.filter((h) => h !== heldOut);
  io.err(
    `training on ${others.join(', ')}; crawling ${heldOut} only (target: ${kinds.join(', ')}; relevance: ${mode})\n`,
  );
  env.training = {
    data: new TrainingData((h) => sitePages(w.web, h, isTarget), w.departmentHosts, DEFAULT_FUTURE),
    heldOut,
    key: `${webKey(w.web)}:${plan.webSeed}:${kinds.join('+')}`,
    mode,
  };
}

/** A replayed archive: its files and labels checked, then served (with training data when a strategy learns). */
async function replayed(plan: CrawlPlan, env: CrawlEnvironment, io: CliIo): Promise<void> {
  const v = plan.values;
  const files = v.replay!;
  const trains = plan.needs !== null || plan.relevance !== undefined;
  for (const f of files) if (!existsSync(f)) usage(`--replay: "${f}" does not exist`);
  if ((plan.needs !== null || plan.relevance === 'learned') && (!v.labels || !v.relevant))
    usage(
      `--strategy ${plan.strategy} on an archive needs --labels CSV and --relevant LABEL,... (it trains on the other sites' labelled pages)`,
    );
  if (v.labels && !existsSync(v.labels)) usage(`--labels: "${v.labels}" does not exist`);
  const { archiveEnv, archiveSites, checkArchive } = await import('../focused/env.ts');
  const { ARCHIVE_DEFAULTS, DEFAULT_EXPERIMENT, ExperimentConfigError } = await import('../focused/config.ts');
  const cfg = {
    ...structuredClone(DEFAULT_EXPERIMENT),
    name: 'crawl',
    archive: { ...structuredClone(ARCHIVE_DEFAULTS), warc: files, labels: v.labels ?? '', relevant: list(v.relevant) },
  };
  if (v.labels && v.relevant)
    await checkArchive(cfg).catch((e: Error) => usage(e instanceof ExperimentConfigError ? e.message : String(e)));
  const { WarcArchive, readingLine } = await import('../../sim/warc-index.ts');
  // a damaged WARC: a crawl replays what is whole of it and says so, on the terminal (--quiet too)
  // and in summary.json
  const archive = await WarcArchive.open(files);
  for (const w of archive.warnings) io.err(`warning: ${w}\n`);
  io.err(`${readingLine(archive)}\n`);
  env.archive = { files, urls: archive.size, ...archive.reading, warnings: archive.warnings };
  const sites = v.labels && v.relevant ? archiveSites(cfg) : archive.hosts();
  if (!trains) {
    const { ReplayServer } = await import('../../sim/archive-server.ts');
    const server = await ReplayServer.start(archive);
    env.close = () => server.close();
    env.settings.resolve = [...(env.settings.resolve ?? []), `*=127.0.0.1:${server.port}`];
    if (!env.settings.startUrls?.length) env.settings.startUrls = [`http://${sites[0]}/`];
    io.err(`replaying ${files.join(', ')} on 127.0.0.1:${server.port}\n`);
    return;
  }
  const mode: RelevanceMode = plan.relevance ?? 'learned';
  const heldOut = heldOutSite(plan, env.settings, sites);
  const served = await archiveEnv(cfg);
  env.close = served.close;
  env.settings.resolve = [...(env.settings.resolve ?? []), `*=127.0.0.1:${served.port}`];
  io.err(
    `replaying ${files.join(', ')} on 127.0.0.1:${served.port}; training on ` +
      `${sites.filter((h) => h !== heldOut).join(', ')}; crawling ${heldOut} only (relevant: ` +
      `${list(v.relevant).join(', ')}; relevance: ${mode})\n`,
  );
  env.training = { data: served.training, heldOut, key: served.cacheKey, mode };
}

/**
 * The environment of a crawl: the web or archive served (nothing for a live server), the settings
 * completed with its seeds, scope and resolve rules. Whatever is refused is refused before a server
 * listens; the caller closes it.
 */
export async function openEnvironment(plan: CrawlPlan, io: CliIo): Promise<CrawlEnvironment> {
  const env: CrawlEnvironment = {
    settings: structuredClone(plan.settings),
    served: null,
    training: null,
    close: async () => {},
  };
  if (plan.values.resume) await resumed(plan, env, io);
  else if (plan.values.web) await generated(plan, env, io);
  else if (plan.values.replay) await replayed(plan, env, io);
  return env;
}

/** The models of a learned strategy, trained on the other sites (or from the cache), and its relevance judge. */
export function train(
  plan: CrawlPlan,
  training: TrainingPlan | null,
  io: CliIo,
): Pick<StrategyContext, 'models' | 'judge'> {
  if (training === null) return {};
  const m = training.data.models(
    training.heldOut,
    loadKeywords(),
    plan.modelCache,
    training.key,
    undefined,
    training.mode === 'learned' || plan.needs === 'pages',
  );
  // says so when the models came from the cache rather than from training (as npm run model does)
  if (m.cached) io.err(`models from ${plan.modelCache} (--no-cache trains them again)\n`);
  return { models: () => m, judge: () => new RelevanceJudge(training.mode, m.pages) };
}
