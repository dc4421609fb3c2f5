/**
 * The distributed-crawling experiment's config ("kind": "distributed"): its fields, defaults
 * and validation, apart from the run so that the experiment CLI reads a config without loading
 * the cluster, the figures and the report.
 */
import { existsSync } from 'node:fs';
import { ASSIGNMENTS, type Assignment } from '../../crawler/distributed/index.ts';
import { ExperimentConfigError } from '../config.ts';
import { WORKER_STRATEGIES } from './cluster.ts';
import { checkNumbers, numberDefaults, type NumberField } from '../../lib/fields.ts';
import { resource } from '../../lib/paths.ts';

export interface DistributedConfig {
  kind: 'distributed';
  name: string;
  description: string;
  web: string;
  seeds: number[];
  /** Pages per run (over all processes). */
  budget: number;
  strategy: string;
  /**
   * A strategy module (a plug-in, examples/strategies/) that each crawler process loads under the name
   * `strategy`; null: a built-in. Whichever process fetched a page scores its links, so a module that
   * keeps state across pages sees only its own process's pages.
   */
  module: string | null;
  /** Multiplies the web's geographic delays (shorter runs; ratios unchanged). */
  timeScale: number;
  /** Data centres of the assignment comparison, with their processes. */
  datacentres: { name: string; region: string; processes: number }[];
  assignments: Assignment[];
  /** Processes of the scaling runs (one data centre: the first above). */
  scaling: number[];
  /** Numbers: DISTRIBUTED_NUMBERS. */
  crawl: { concurrency: number; delayMs: number; maxPagesPerHost: number; maxCrawlDelaySec: number };
  quick: Partial<Omit<DistributedConfig, 'quick' | 'name' | 'kind'>>;
}

/**
 * Every scalar numeric field of a distributed config, once: default, range and help.
 * DEFAULT_DISTRIBUTED's numbers, resolveDistributed()'s ranges and `npm run experiment -- --help`
 * derive from this table.
 */
export const DISTRIBUTED_NUMBERS: readonly NumberField[] = [
  { path: 'budget', default: 3000, min: 1, max: Infinity, integer: true, help: 'pages per run, over all processes' },
  { path: 'timeScale', default: 1, min: 0, max: 10, help: "multiplies the web's geographic delays" },
  { path: 'crawl.concurrency', default: 4, min: 1, max: 1000, integer: true, help: 'requests in flight per process' },
  { path: 'crawl.delayMs', default: 20, min: 0, max: 60_000, help: 'gap between requests to a host, ms' },
  {
    path: 'crawl.maxPagesPerHost',
    default: 400,
    min: 1,
    max: Infinity,
    integer: true,
    help: 'pages per host, at most',
  },
  {
    path: 'crawl.maxCrawlDelaySec',
    default: 0,
    min: 0,
    max: 3600,
    help: 'hosts asking for a longer Crawl-delay are skipped (one slow host would set the wall time)',
  },
];

const NUMBERS = numberDefaults(DISTRIBUTED_NUMBERS) as Pick<DistributedConfig, 'budget' | 'timeScale' | 'crawl'>;

export const DEFAULT_DISTRIBUTED: Omit<DistributedConfig, 'name'> = {
  kind: 'distributed',
  description: '',
  web: 'data/webs/small.json',
  seeds: [1, 2],
  budget: NUMBERS.budget,
  strategy: 'bfs',
  module: null,
  timeScale: NUMBERS.timeScale,
  datacentres: [
    { name: 'dc-us', region: 'us', processes: 2 },
    { name: 'dc-eu', region: 'eu', processes: 2 },
    { name: 'dc-asia', region: 'asia', processes: 2 },
  ],
  assignments: ['geo', 'hash', 'single'],
  scaling: [1, 2, 4, 8],
  crawl: NUMBERS.crawl,
  quick: {},
};

const bad = (f: string, m: string): never => {
  throw new ExperimentConfigError(`${f}: ${m}`);
};

export function isDistributedConfig(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { kind?: unknown }).kind === 'distributed';
}

export function resolveDistributed(
  raw: Record<string, unknown>,
  name: string,
  opts: { quick?: boolean; seeds?: number } = {},
): DistributedConfig {
  for (const k of Object.keys(raw))
    if (!(k in DEFAULT_DISTRIBUTED) && k !== 'name' && !k.startsWith('_')) bad(k, 'unknown field');
  let c = { ...DEFAULT_DISTRIBUTED, ...raw, name } as DistributedConfig;
  c.crawl = { ...DEFAULT_DISTRIBUTED.crawl, ...(raw.crawl as object) };
  if (opts.quick) c = { ...c, ...c.quick, crawl: { ...c.crawl, ...c.quick?.crawl } };
  if (opts.seeds) c.seeds = Array.from({ length: opts.seeds }, (_, i) => i + 1);
  if (!existsSync(resource(c.web))) bad('web', `no such file "${c.web}"`);
  if (!Array.isArray(c.seeds) || !c.seeds.length || c.seeds.some((s) => !Number.isInteger(s) || s < 0))
    bad('seeds', 'expected a list of whole numbers');
  const numbers = checkNumbers(DISTRIBUTED_NUMBERS, c);
  if (numbers) throw new ExperimentConfigError(numbers);
  if (c.module !== null) {
    if (typeof c.module !== 'string' || !existsSync(resource(c.module)))
      bad('module', `"${c.module}" is not a readable file (paths are from the working directory)`);
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(c.strategy)) bad('strategy', "a module's name must be letters, digits, - and _");
  } else if (!WORKER_STRATEGIES.includes(c.strategy))
    bad('strategy', `"${c.strategy}" is not one of ${WORKER_STRATEGIES.join(', ')}`);
  if (!Array.isArray(c.datacentres) || !c.datacentres.length)
    bad('datacentres', 'expected a list of {name, region, processes}');
  c.datacentres.forEach((d, i) => {
    if (!/^[a-z0-9-]+$/.test(d.name ?? '') || !/^[a-z0-9-]+$/.test(d.region ?? ''))
      bad(`datacentres[${i}]`, 'name and region must be lowercase letters, digits and -');
    if (!Number.isInteger(d.processes) || d.processes < 1 || d.processes > 32)
      bad(`datacentres[${i}].processes`, 'expected 1 to 32');
  });
  for (const a of c.assignments)
    if (!ASSIGNMENTS.includes(a)) bad('assignments', `"${a}" is not one of ${ASSIGNMENTS.join(', ')}`);
  for (const p of c.scaling)
    if (!Number.isInteger(p) || p < 1 || p > 32) bad('scaling', `"${p}" must be 1 to 32 processes`);
  return c;
}
