/**
 * Runs a deep-web experiment: per seed, the synthetic web with its search sites is served over
 * HTTP; for each site the crawler discovers the form by crawling, then each method surfaces
 * records under the same submission budget. The evaluator (here, never in crawler/) maps record
 * URLs to the site's database ids. Also: ISIT's template diagnostics, a sweep of tau, the
 * database-size sweep, and each site's politeness audit.
 */
import { readJsonFile } from '../../lib/input.ts';
import { resource } from '../../lib/paths.ts';
import { availableParallelism } from 'node:os';
import { resolveConfig } from '../../sim/config.ts';
import { SimServer } from '../../sim/server.ts';
import type { DeepSite } from '../../sim/deepweb/site.ts';
import { Web } from '../../sim/web.ts';
import {
  cartesian,
  discoverForms,
  FormClient,
  isit,
  isKeywordBox,
  probe,
  SurfaceSession,
  type DiscoveredForm,
  type IsitResult,
  type ProbePolicy,
  type TemplateReport,
} from '../../crawler/deepweb/index.ts';
import type { DeepMethod, DeepwebConfig } from './config.ts';
import { readWords } from './config.ts';
import { runInProcesses } from '../pool.ts';
import type { DeepwebData } from './rows.ts';
import { append } from '../../lib/arrays.ts';

export type { DeepwebData } from './rows.ts';

interface Words {
  keywords: Record<string, string[]>;
  dictionary: string[];
  generic: string[];
}

function loadWords(cfg: DeepwebConfig): Words {
  const keywords: Record<string, string[]> = {};
  for (const [k, f] of Object.entries(cfg.keywords)) keywords[k] = readWords(f);
  return { keywords, dictionary: readWords(cfg.dictionary), generic: readWords(cfg.generic) };
}

async function startWeb(cfg: DeepwebConfig, seed: number, records: number): Promise<SimServer> {
  // read with the checks every config gets (a regular file, its size, JSON, its limits): web=/dev/zero
  // once ran until killed at 5 GB
  const raw = readJsonFile(resource(cfg.web), cfg.web) as { deepweb?: { sites?: { records?: number }[] } };
  for (const s of raw.deepweb?.sites ?? []) s.records = records;
  const web = new Web(resolveConfig(raw), seed);
  return SimServer.start(web, { faults: false });
}

/** Valid records (detail URLs of real database rows) surfaced, and when each was first seen. */
function evaluate(site: DeepSite, session: SurfaceSession): { valid: number; at: number[] } {
  const at: number[] = [];
  let k = 0;
  for (const url of session.records.keys()) {
    const u = new URL(url);
    if (u.host === site.host && site.recordOf(u.pathname) >= 0) at.push(session.firstSeen[k]);
    k++;
  }
  return { valid: at.length, at };
}

function curve(at: number[], n: number, budget: number, every: number): { submissions: number; coverage: number }[] {
  const out: { submissions: number; coverage: number }[] = [];
  let j = 0;
  for (let s = every; s <= budget; s += every) {
    while (j < at.length && at[j] <= s) j++;
    out.push({ submissions: s, coverage: Math.round((j / n) * 1e4) / 1e4 });
  }
  return out;
}

/** First submission count at which coverage reaches target, or null. */
function toTarget(at: number[], n: number, target: number): number | null {
  const need = Math.ceil(target * n);
  return at.length >= need ? at[need - 1] : null;
}

interface MethodRun {
  session: SurfaceSession;
  stopped: string;
  detail: string;
  templates?: TemplateReport[];
  /** Queries the method's plan holds (ISIT's templates, the Cartesian product). */
  generated?: number;
  isit?: IsitResult;
}

async function runMethod(
  method: DeepMethod | 'isit-test',
  d: DiscoveredForm,
  client: FormClient,
  budget: number,
  cfg: DeepwebConfig,
  words: Words,
  kind: string,
  tau = cfg.isit.tau,
): Promise<MethodRun | null> {
  const session = new SurfaceSession(client, d.form, d.template, budget);
  const text = d.form.inputs.find(isKeywordBox);
  const seeds = words.keywords[kind] ?? [];
  const textValues: Record<string, string[]> = text && seeds.length ? { [text.name]: seeds } : {};
  if (method === 'isit') {
    const r = await isit(session, { ...cfg.isit, tau, textValues });
    const ranges = r.ranges.filter((p) => p.confirmed).map((p) => `range ${p.lo}/${p.hi}`);
    const typed = r.typed.filter((t) => t.type).map((t) => `${t.name} typed ${t.type}`);
    const extra = [...ranges, ...typed].join(', ');
    return {
      session,
      stopped: session.exhausted ? 'budget' : 'done',
      detail: `${r.chosen.length} templates, ${r.queries} queries${extra ? `; ${extra}` : ''}`,
      templates: r.templates,
      generated: r.queries,
      isit: r,
    };
  }
  if (method === 'cartesian') {
    const r = await cartesian(session, textValues);
    return {
      session,
      stopped: session.exhausted ? 'budget' : 'done',
      detail: `${r.size} combinations`,
      generated: r.size,
    };
  }
  if (!text) return null; // probing needs a text box
  const policy = method.slice('probe-'.length) as ProbePolicy;
  const r = await probe(session, {
    policy,
    seeds,
    dictionary: words.dictionary,
    generic: words.generic,
    ...cfg.probe,
    seed: 1,
  });
  return { session, stopped: r.stopped, detail: `${r.steps.length} keywords` };
}

export interface DeepRunOptions {
  onProgress?: (done: number, total: number, label: string) => void;
  /** Worker processes for the steps (seeds, database sizes); 0 runs them in this process. Default: the cores. */
  workers?: number;
}

/** One unit of a deep-web run: a seed's comparison of the methods, or one database size of the sweep. */
export type DeepStep = { kind: 'seed'; seed: number } | { kind: 'size'; seed: number; records: number };

/** What a step adds to the run's tables. */
export type DeepStepResult = Omit<DeepwebData, 'config' | 'wallMs'>;

const emptyTables = (): DeepStepResult => ({
  curves: [],
  summaries: [],
  templates: [],
  tau: [],
  scaling: [],
  sites: [],
  ranges: [],
  typed: [],
  audit: [],
  skippedForms: [],
});

const clientFor = (cfg: DeepwebConfig, server: SimServer, host: string): FormClient =>
  new FormClient({
    settings: {
      startUrls: [`http://${host}/`],
      delayMs: cfg.crawl.delayMs,
      autoThrottle: false,
      perHostConcurrency: 1,
      retries: 2,
    },
    dispatcher: server.dispatcher(),
  });

/**
 * Runs a deep-web experiment. Its steps (each seed, then each database size) are independent:
 * they run side by side in worker processes and their rows are merged in step order, so the
 * tables are those of a run in one process.
 */
export async function runDeepweb(cfg: DeepwebConfig, opts: DeepRunOptions = {}): Promise<DeepwebData> {
  const t0 = performance.now();
  const steps: DeepStep[] = [
    ...cfg.seeds.map((seed): DeepStep => ({ kind: 'seed', seed })),
    ...cfg.scaling.seeds.flatMap((seed) =>
      cfg.scaling.records.map((records): DeepStep => ({ kind: 'size', seed, records })),
    ),
  ];
  const sizeOf = (s: DeepStep): number => (s.kind === 'size' ? s.records : cfg.records);
  const label = (s: DeepStep): string =>
    s.kind === 'seed' ? `seed ${s.seed}` : `${s.records} records, seed ${s.seed}`;
  const results: DeepStepResult[] = new Array(steps.length);
  let done = 0;
  const workers = Math.min(opts.workers ?? availableParallelism(), steps.length);
  if (workers <= 0)
    for (const [i, step] of steps.entries()) {
      results[i] = await runDeepStep({ cfg, step });
      opts.onProgress?.(++done, steps.length, label(step));
    }
  else {
    // the largest databases first: a 100,000-record step started last kept one core busy alone
    // long after the other had finished (the merge below is by step, whatever the order run)
    const order = steps.map((_, i) => i).sort((a, b) => sizeOf(steps[b]) - sizeOf(steps[a]) || a - b);
    await runInProcesses<DeepStepResult>(
      order.map((i) => ({ module: import.meta.url, fn: 'runDeepStep', arg: { cfg, step: steps[i] } })),
      workers,
      (k, r) => {
        results[order[k]] = r;
        opts.onProgress?.(++done, steps.length, label(steps[order[k]]));
      },
    );
  }
  const data: DeepwebData = { config: cfg, ...emptyTables(), wallMs: 0 };
  for (const r of results)
    for (const k of Object.keys(r) as (keyof DeepStepResult)[]) append(data[k] as unknown[], r[k] as unknown[]);
  // whole milliseconds, as run.json keeps them: a report made again from the CSVs states the same wall time
  data.wallMs = Math.round(performance.now() - t0);
  return data;
}

/** One step of a deep-web run (exported for the worker processes of experiments/pool.ts). */
export async function runDeepStep({ cfg, step }: { cfg: DeepwebConfig; step: DeepStep }): Promise<DeepStepResult> {
  return step.kind === 'seed' ? seedStep(cfg, step.seed) : sizeStep(cfg, step.seed, step.records);
}

async function seedStep(cfg: DeepwebConfig, seed: number): Promise<DeepStepResult> {
  const words = loadWords(cfg);
  const data = emptyTables();
  const server = await startWeb(cfg, seed, cfg.records);
  const first = seed === cfg.seeds[0];
  for (const [host, site] of server.deepSites) {
    const kind = site.cfg.kind;
    if (first) data.sites.push(siteRow(kind, host, site));
    const client = clientFor(cfg, server, host);
    const found = await discoverForms(client, `http://${host}/`);
    for (const s of found.skipped)
      data.skippedForms.push({ seed, site: kind, page: s.pageUrl, form: s.index, reason: s.reason });
    const d = found.forms[0];
    if (!d) throw new Error(`no search form found on ${host}`);
    const runs: [string, number][] = [
      ...cfg.methods.map((m): [string, number] => [m, cfg.isit.tau]),
      ...(first ? cfg.tauSweep.map((t): [string, number] => ['tau', t]) : []),
    ];
    for (const [method, tau] of runs) {
      client.clearCache();
      const as = method === 'tau' ? 'isit' : (method as DeepMethod);
      const r = await runMethod(as, d, client, cfg.budget, cfg, words, kind, tau);
      if (r) recordRun(data, cfg, { seed, kind, site, method, tau, first }, r);
    }
    await client.close();
  }
  auditRows(data, cfg, server, seed);
  await server.close();
  return data;
}

/** A deep site as the sites table shows it (the first seed's): its size, caps and vocabulary. */
function siteRow(kind: string, host: string, site: DeepSite): DeepwebData['sites'][number] {
  const h = site.db.heaps();
  const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
  return {
    site: kind,
    host,
    records: site.db.n,
    top_k: Number.isFinite(site.topK) ? site.topK : 0,
    page_size: site.cfg.pageSize,
    distinct_words: site.db.dict.length,
    heaps_k: h && r4(h.K),
    heaps_beta: h && r4(h.beta),
  };
}

/** One method's run on one site into the tables: a tau sweep's row, or its curve, summary and diagnostics. */
function recordRun(
  data: DeepStepResult,
  cfg: DeepwebConfig,
  at: { seed: number; kind: string; site: DeepSite; method: string; tau: number; first: boolean },
  r: MethodRun,
): void {
  const { seed, kind, site, method, tau } = at;
  const ev = evaluate(site, r.session);
  const coverage = Math.round((ev.valid / site.db.n) * 1e4) / 1e4;
  if (method === 'tau') {
    const t = r.templates ?? [];
    data.tau.push({
      site: kind,
      tau,
      templates_tested: t.length,
      templates_chosen: t.filter((x) => x.informative).length,
      queries: r.generated ?? 0,
      submissions: r.session.submissions,
      coverage,
    });
    return;
  }
  for (const p of curve(ev.at, site.db.n, cfg.budget, cfg.every)) data.curves.push({ site: kind, method, seed, ...p });
  const f = r.session.fates();
  const subs = r.session.submissions;
  const s90 = toTarget(ev.at, site.db.n, 0.9);
  const firstPages = r.session.log.filter((x) => x.page === 1);
  data.summaries.push({
    site: kind,
    method,
    seed,
    records: site.db.n,
    submissions: subs,
    surfaced: ev.valid,
    coverage,
    ...f,
    wasted_share: subs ? Math.round(((f.empty + f.error + f.duplicate) / subs) * 1e4) / 1e4 : 0,
    queries: firstPages.length,
    queries_to_90: s90 === null ? null : firstPages.filter((x) => x.n <= s90).length,
    submissions_to_90: s90,
    stopped: r.stopped,
    detail: r.detail,
  });
  if (method === 'isit') isitDiagnostics(data, kind, seed, r, at.first);
}

/** What the server saw of each deep site: requests, concurrency, gaps, disallowed paths, 429s, violations. */
function auditRows(data: DeepStepResult, cfg: DeepwebConfig, server: SimServer, seed: number): void {
  const audit = server.audit();
  for (const host of server.deepSites.keys()) {
    const a = audit[host];
    if (!a) continue;
    const violations =
      a.disallowed +
      (a.maxConcurrent > 1 ? 1 : 0) +
      (cfg.crawl.delayMs > 0 && (a.minGapMs ?? Infinity) < cfg.crawl.delayMs * 0.9 ? 1 : 0) +
      a.sent429;
    data.audit.push({
      seed,
      host,
      requests: a.requests,
      max_concurrent: a.maxConcurrent,
      min_gap_ms: a.minGapMs === null ? -1 : Math.round(a.minGapMs * 1000) / 1000,
      disallowed: a.disallowed,
      sent429: a.sent429,
      violations,
    });
  }
}

async function sizeStep(cfg: DeepwebConfig, scalingSeed: number, records: number): Promise<DeepStepResult> {
  const words = loadWords(cfg);
  const data = emptyTables();
  const server = await startWeb(cfg, scalingSeed, records);
  for (const [host, site] of server.deepSites) {
    const kind = site.cfg.kind;
    const client = clientFor(cfg, server, host);
    const d = (await discoverForms(client, `http://${host}/`)).forms[0];
    for (const method of ['isit', 'cartesian'] as const) {
      client.clearCache();
      const r = (await runMethod(method, d, client, cfg.scaling.budget, cfg, words, kind))!;
      const ev = evaluate(site, r.session);
      data.scaling.push({
        site: kind,
        seed: scalingSeed,
        records,
        method,
        generated: r.generated ?? 0,
        submissions_to_target: toTarget(ev.at, site.db.n, cfg.scaling.target),
        coverage_at_budget: Math.round((ev.valid / site.db.n) * 1e4) / 1e4,
        submissions: r.session.submissions,
      });
    }
    await client.close();
  }
  await server.close();
  return data;
}

/** What ISIT found on a site: the ranges and input types of the first seed, every seed's templates. */
function isitDiagnostics(
  data: DeepStepResult,
  kind: string,
  seed: number,
  r: NonNullable<Awaited<ReturnType<typeof runMethod>>>,
  first: boolean,
): void {
  if (first && r.isit) {
    for (const p of r.isit.ranges)
      data.ranges.push({
        site: kind,
        seed,
        lo: p.lo,
        hi: p.hi,
        evidence: p.evidence,
        values: p.values.length,
        confirmed: p.confirmed,
        probe: p.probe,
      });
    for (const t of r.isit.typed)
      for (const x of t.tests)
        data.typed.push({
          site: kind,
          seed,
          input: t.name,
          type: x.type,
          tested: x.tested,
          distinct: x.distinct,
          ratio: Math.round(x.ratio * 1e4) / 1e4,
          informative: x.informative,
          chosen: t.type === x.type,
        });
  }
  for (const t of r.templates ?? [])
    data.templates.push({
      site: kind,
      seed,
      template: t.inputs.join('+'),
      dimension: t.dimension,
      size: t.size,
      tested: t.tested,
      distinct: t.distinct,
      ratio: Math.round(t.ratio * 1e4) / 1e4,
      informative: t.informative,
    });
}
