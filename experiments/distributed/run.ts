/**
 * The distributed-crawling experiment (experiments/configs/distributed.json, "kind":
 * "distributed"): geo-affine against hash assignment against a single data centre, with the
 * same number of crawler processes, on a web whose sites sit in regions; then 1, 2, 4, 8
 * processes in one centre. Measures the wall time to crawl N pages, bytes fetched across
 * regions and the load balance over processes; writes runs.csv, processes.csv, figures and
 * report.md.
 */
import { readFileSync } from 'node:fs';
import { resource } from '../../lib/paths.ts';
import { ResultsFolder } from '../results-folder.ts';
import type { TopLevelSpec } from 'vega-lite';
import { resolveConfig } from '../../sim/config.ts';
import { SimServer } from '../../sim/server.ts';
import { Web } from '../../sim/web.ts';
import type { Assignment } from '../../crawler/distributed/index.ts';
import { meanCi, pmText } from '../intervals.ts';
import { themeConfig } from '../figures.ts';
import { runCluster } from './cluster.ts';
import type { DistributedConfig } from './config.ts';

export interface RunRow {
  experiment: string;
  variant: string;
  seed: number;
  processes: number;
  wall_ms: number;
  pages: number;
  pages_per_s: number;
  bytes: number;
  cross_region_bytes: number;
  cross_region_share: number;
  max_over_mean: number;
  cv: number;
  duplicates: number;
}
export interface ProcessRow {
  variant: string;
  seed: number;
  process: string;
  datacentre: string;
  region: string;
  pages: number;
  bytes: number;
}
export interface DistributedData {
  config: DistributedConfig;
  runs: RunRow[];
  processes: ProcessRow[];
  wallMs: number;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

export async function runDistributedExperiment(
  cfg: DistributedConfig,
  onProgress?: (done: number, total: number, label: string) => void,
): Promise<DistributedData> {
  const t0 = performance.now();
  const data: DistributedData = { config: cfg, runs: [], processes: [], wallMs: 0 };
  const plan = clusterPlan(cfg);
  let done = 0;
  for (const seed of cfg.seeds) {
    const raw = JSON.parse(readFileSync(resource(cfg.web), 'utf8')) as Record<string, unknown>;
    const webCfg = resolveConfig(raw);
    webCfg.geo.timeScale = cfg.timeScale;
    const server = await SimServer.start(new Web(webCfg, seed), { faults: false });
    const hostRegions = Object.fromEntries(server.web.sites.map((s) => [s.host, server.regionOf(s.host)]));
    // every site's home page: enough hosts that processes, not politeness gaps, limit the crawl
    const startUrls = server.web.sites.map((s) => `http://${s.host}/`);
    for (const p of plan) {
      const r = await runCluster({
        datacentres: p.dcs,
        assignment: p.assignment,
        hostRegions,
        budget: cfg.budget,
        strategy: cfg.strategy,
        module: cfg.module ?? undefined,
        settings: {
          startUrls,
          scope: ['*.test'],
          resolve: [`*.test=127.0.0.1:${server.port}`],
          delayMs: cfg.crawl.delayMs,
          autoThrottle: false,
          concurrency: cfg.crawl.concurrency,
          perHostConcurrency: 1,
          maxPagesPerHost: cfg.crawl.maxPagesPerHost,
          maxCrawlDelaySec: cfg.crawl.maxCrawlDelaySec,
          retries: 1,
        },
      });
      recordCluster(data, `${p.experiment}:${p.variant}`, seed, r);
      data.runs.push({ experiment: p.experiment, variant: p.variant, seed, ...clusterRow(r, hostRegions) });
      onProgress?.(++done, cfg.seeds.length * plan.length, `seed ${seed} ${p.experiment} ${p.variant}`);
    }
    await server.close();
  }
  data.wallMs = performance.now() - t0;
  return data;
}

interface PlannedCluster {
  experiment: string;
  variant: string;
  assignment: Assignment;
  dcs: DistributedConfig['datacentres'];
}

/** The clusters each seed runs: one per assignment over the data centres, then one per scaling size. */
function clusterPlan(cfg: DistributedConfig): PlannedCluster[] {
  const plan: PlannedCluster[] = [];
  const total = cfg.datacentres.reduce((a, d) => a + d.processes, 0);
  for (const a of cfg.assignments) {
    // a single data centre gets every process, in the first centre's region
    plan.push({
      experiment: 'assignment',
      variant: a,
      assignment: a,
      dcs: a === 'single' ? [{ ...cfg.datacentres[0], processes: total }] : cfg.datacentres,
    });
  }
  for (const p of cfg.scaling)
    plan.push({
      experiment: 'scaling',
      variant: `${p}`,
      assignment: 'single',
      dcs: [{ ...cfg.datacentres[0], processes: p }],
    });
  return plan;
}

type ClusterRun = Awaited<ReturnType<typeof runCluster>>;

/** Each process of a cluster run as a processes.csv row: its pages and bytes. */
function recordCluster(data: DistributedData, variant: string, seed: number, r: ClusterRun): void {
  for (const pr of r.processes) {
    let pb = 0;
    for (const f of pr.fetched) pb += f.bytes;
    data.processes.push({
      variant,
      seed,
      process: pr.summary.id,
      datacentre: pr.summary.datacentre,
      region: pr.region,
      pages: pr.fetched.length,
      bytes: pb,
    });
  }
}

/** A cluster run's row of runs.csv (after its experiment, variant and seed): pace, bytes across regions, balance. */
function clusterRow(
  r: ClusterRun,
  hostRegions: Record<string, string>,
): Omit<DistributedData['runs'][number], 'experiment' | 'variant' | 'seed'> {
  let bytes = 0;
  let cross = 0;
  const urls: string[] = [];
  for (const pr of r.processes)
    for (const f of pr.fetched) {
      urls.push(f.url);
      bytes += f.bytes;
      if (hostRegions[new URL(f.url).host] !== pr.region) cross += f.bytes;
    }
  const loads = r.processes.map((pr) => pr.fetched.length);
  const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
  const sd = Math.sqrt(loads.reduce((a, x) => a + (x - mean) ** 2, 0) / loads.length);
  return {
    processes: loads.length,
    wall_ms: Math.round(r.wallMs),
    pages: urls.length,
    pages_per_s: Math.round((urls.length / r.wallMs) * 1000),
    bytes,
    cross_region_bytes: cross,
    cross_region_share: r3(bytes ? cross / bytes : 0),
    max_over_mean: r3(mean ? Math.max(...loads) / mean : 0),
    cv: r3(mean ? sd / mean : 0),
    duplicates: urls.length - new Set(urls).size,
  };
}

function barSpec(rows: RunRow[], field: keyof RunRow, yTitle: string): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 230,
    height: 150,
    data: { values: rows.map((r) => ({ variant: r.variant, value: r[field] })) },
    layer: [
      {
        mark: { type: 'bar', color: '#0072B2' },
        encoding: {
          x: { field: 'variant', type: 'nominal', title: 'assignment', sort: ['geo', 'hash', 'single'] },
          y: { aggregate: 'mean', field: 'value', type: 'quantitative', title: yTitle },
        },
      },
      {
        mark: { type: 'point', color: 'black', filled: true, size: 20 },
        encoding: {
          x: { field: 'variant', type: 'nominal', sort: ['geo', 'hash', 'single'] },
          y: { field: 'value', type: 'quantitative' },
        },
      },
    ],
    config: themeConfig(),
  } as TopLevelSpec;
}

function scalingSpec(rows: RunRow[]): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 250,
    height: 150,
    data: { values: rows.map((r) => ({ processes: r.processes, pps: r.pages_per_s })) },
    layer: [
      {
        mark: { type: 'line', point: true, color: '#D55E00' },
        encoding: {
          x: {
            field: 'processes',
            type: 'quantitative',
            scale: { type: 'log', base: 2 },
            title: 'crawler processes',
            axis: { values: [...new Set(rows.map((r) => r.processes))], format: 'd' },
          },
          y: { aggregate: 'mean', field: 'pps', type: 'quantitative', title: 'pages per second' },
        },
      },
      {
        mark: { type: 'point', color: 'black', size: 20 },
        encoding: { x: { field: 'processes', type: 'quantitative' }, y: { field: 'pps', type: 'quantitative' } },
      },
    ],
    config: themeConfig(),
  } as TopLevelSpec;
}

/** The run in a few lines: geo-affinity's speed-up over each other assignment, the scaling, duplicates. */
function summaryLines(d: DistributedData, assign: RunRow[], scale: RunRow[]): string[] {
  const by = (rows: RunRow[], v: string): RunRow[] => rows.filter((r) => r.variant === v);
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const lines: string[] = [];
  const geo = mean(by(assign, 'geo').map((r) => r.wall_ms));
  for (const other of ['hash', 'single']) {
    const o = mean(by(assign, other).map((r) => r.wall_ms));
    if (geo && o)
      lines.push(
        `geo-affinity speed-up over ${other}: ${(o / geo).toFixed(2)}x (wall time ${Math.round(o)} ms vs ${Math.round(geo)} ms)`,
      );
  }
  const base = mean(by(scale, String(d.config.scaling[0])).map((r) => r.pages_per_s));
  for (const p of d.config.scaling) {
    const v = mean(by(scale, String(p)).map((r) => r.pages_per_s));
    if (base)
      lines.push(
        `${p} process(es): ${Math.round(v)} pages/s, ${(v / base).toFixed(2)}x ` +
          `of ${d.config.scaling[0]} (efficiency ${((v / base / (p / d.config.scaling[0])) * 100).toFixed(0)}%)`,
      );
  }
  const dups = d.runs.reduce((a, r) => a + r.duplicates, 0);
  lines.push(`URLs fetched twice: ${dups} over ${d.runs.reduce((a, r) => a + r.pages, 0)} pages`);
  return lines;
}

export async function writeDistributedOutputs(
  d: DistributedData,
  dir: string,
  /** The command that made the run (family.ts rerunCommand; default: by name). */
  made = `npm run experiment -- ${d.config.name}`,
): Promise<{ files: string[]; lines: string[] }> {
  const out = new ResultsFolder(dir);
  out.csv('runs.csv', d.runs);
  out.csv('processes.csv', d.processes);
  out.config({ ...d.config }, made);
  const assign = d.runs.filter((r) => r.experiment === 'assignment');
  const scale = d.runs.filter((r) => r.experiment === 'scaling');
  for (const [name, spec] of [
    ['fig-wall-time', barSpec(assign, 'wall_ms', 'wall time (ms)')],
    ['fig-cross-region', barSpec(assign, 'cross_region_share', 'share of bytes across regions')],
    ['fig-scaling', scalingSpec(scale)],
  ] as const) {
    if (name === 'fig-scaling' ? !scale.length : !assign.length) continue;
    await out.figure(name, spec);
  }
  const lines = summaryLines(d, assign, scale);
  out.report(distributedReport(d, assign, scale, lines).join('\n'));
  return { files: out.files, lines };
}

const pm = (xs: number[], digits = 0): string => pmText(meanCi(xs), digits);
const byVariant = (rows: RunRow[], v: string): RunRow[] => rows.filter((r) => r.variant === v);

/** The report: the setup, assignment of hosts to data centres, scaling in one, and the summary lines. */
function distributedReport(d: DistributedData, assign: RunRow[], scale: RunRow[], lines: string[]): string[] {
  const cfg = d.config;
  return [
    `# Distributed crawling: ${cfg.name}`,
    '',
    cfg.description,
    '',
    '## Setup',
    '',
    setupText(d),
    '',
    '## Assignment of hosts to data centres',
    '',
    'Mean ± 95% CI over seeds.',
    '',
    '![wall time](fig-wall-time.png)',
    '',
    `*Wall time to crawl ${cfg.budget} pages by assignment of hosts to data centres; bars: ` +
      `mean over ${cfg.seeds.length} seeds, dots: single runs. Also .svg and .pdf.*`,
    '',
    '![cross-region bytes](fig-cross-region.png)',
    '',
    `*Share of bytes fetched across regions by assignment; bars: mean over ${cfg.seeds.length} seeds, dots: single runs.*`,
    '',
    ...assignmentTable(cfg, assign),
    '',
    '## Scaling in one data centre',
    '',
    '![scaling](fig-scaling.png)',
    '',
    `*Pages per second against crawler processes in one data centre (log 2 axis); line: mean ` +
      `over ${cfg.seeds.length} seeds, dots: single runs. Also .svg and .pdf.*`,
    '',
    ...scalingTable(cfg, scale),
    '',
    '## Summary',
    '',
    ...lines.map((l) => `- ${l}`),
    '',
    'This machine has 2 cores: beyond two processes, more processes add concurrency (requests ' +
      'in flight waiting on simulated distance and politeness gaps), not CPU.',
    '',
  ];
}

/** What the runs were: the web, regions, budget, strategy, processes and data centres, how time counts. */
function setupText(d: DistributedData): string {
  const cfg = d.config;
  return (
    `Web \`${cfg.web}\` (sites placed in regions by \`geo.siteShares\`; round trips and ` +
    `bandwidth from \`geo\`, times ${cfg.timeScale}), seeds ${cfg.seeds.join(', ')}; ` +
    `${cfg.budget} pages per run, strategy ` +
    `${cfg.strategy}${cfg.module ? ` (module \`${cfg.module}\`)` : ''}, from the department ` +
    `home pages over every \`.test\` host. Each crawler process is a worker thread with ` +
    `${cfg.crawl.concurrency} requests in flight, one per host, ${cfg.crawl.delayMs} ms apart, ` +
    `at most ${cfg.crawl.maxPagesPerHost} pages per host; processes are connected by the ` +
    `in-memory coordinator (the Redis one behaves the same; see the tests). Data centres: ` +
    `${cfg.datacentres.map((x) => `${x.name} (${x.region}, ${x.processes} processes)`).join(', ')}; ` +
    `"single" puts all ${total(cfg)} processes in ${cfg.datacentres[0].name}. Wall ` +
    `time counts from the moment every process is loaded. Total ${(d.wallMs / 1000).toFixed(1)} s.`
  );
}

function assignmentTable(cfg: DistributedConfig, assign: RunRow[]): string[] {
  return [
    '| assignment | wall time (ms) | pages/s | bytes across regions | max / mean pages per process | coefficient of variation |',
    '|---|---|---|---|---|---|',
    ...cfg.assignments.map((a) => {
      const rs = byVariant(assign, a);
      const cross = pm(
        rs.map((r) => r.cross_region_share),
        3,
      );
      const balance = `${pm(
        rs.map((r) => r.max_over_mean),
        2,
      )} | ${pm(
        rs.map((r) => r.cv),
        2,
      )}`;
      return `| ${a} | ${pm(rs.map((r) => r.wall_ms))} | ${pm(rs.map((r) => r.pages_per_s))} | ${cross} | ${balance} |`;
    }),
  ];
}

function scalingTable(cfg: DistributedConfig, scale: RunRow[]): string[] {
  return [
    '| processes | wall time (ms) | pages/s | max / mean pages per process |',
    '|---|---|---|---|',
    ...cfg.scaling.map((p) => {
      const rs = byVariant(scale, String(p));
      const balance = pm(
        rs.map((r) => r.max_over_mean),
        2,
      );
      return `| ${p} | ${pm(rs.map((r) => r.wall_ms))} | ${pm(rs.map((r) => r.pages_per_s))} | ${balance} |`;
    }),
  ];
}

function total(cfg: DistributedConfig): number {
  return cfg.datacentres.reduce((a, d) => a + d.processes, 0);
}
