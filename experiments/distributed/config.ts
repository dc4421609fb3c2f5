/**
 * The distributed-crawling experiment's config ("kind": "distributed"): its fields, defaults
 * and validation, apart from the run so that the experiment CLI reads a config without loading
 * the cluster, the figures and the report.
 */
import { existsSync } from 'node:fs';
import { ASSIGNMENTS, type Assignment } from '../../crawler/distributed/index.ts';
import { ExperimentConfigError } from '../config.ts';
import { WORKER_STRATEGIES } from './cluster.ts';

export interface DistributedConfig {
  kind: 'distributed';
  name: string;
  description: string;
  web: string;
  seeds: number[];
  /** Pages per run (over all processes). */
  budget: number;
  strategy: string;
  /** Multiplies the web's geographic delays (shorter runs; ratios unchanged). */
  timeScale: number;
  /** Data centres of the assignment comparison, with their processes. */
  datacentres: { name: string; region: string; processes: number }[];
  assignments: Assignment[];
  /** Processes of the scaling runs (one data centre: the first above). */
  scaling: number[];
  /** Hosts asking for a longer Crawl-delay are skipped (one slow host would otherwise set the wall time). */
  crawl: { concurrency: number; delayMs: number; maxPagesPerHost: number; maxCrawlDelaySec: number };
  quick: Partial<Omit<DistributedConfig, 'quick' | 'name' | 'kind'>>;
}

export const DEFAULT_DISTRIBUTED: Omit<DistributedConfig, 'name'> = {
  kind: 'distributed',
  description: '',
  web: 'data/webs/small.json',
  seeds: [1, 2],
  budget: 3000,
  strategy: 'bfs',
  timeScale: 1,
  datacentres: [
    { name: 'dc-us', region: 'us', processes: 2 },
    { name: 'dc-eu', region: 'eu', processes: 2 },
    { name: 'dc-asia', region: 'asia', processes: 2 },
  ],
  assignments: ['geo', 'hash', 'single'],
  scaling: [1, 2, 4, 8],
  crawl: { concurrency: 4, delayMs: 20, maxPagesPerHost: 400, maxCrawlDelaySec: 0 },
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
  if (!existsSync(c.web)) bad('web', `no such file "${c.web}"`);
  if (!Array.isArray(c.seeds) || !c.seeds.length || c.seeds.some((s) => !Number.isInteger(s) || s < 0))
    bad('seeds', 'expected a list of whole numbers');
  if (!Number.isInteger(c.budget) || c.budget < 1) bad('budget', 'expected a whole number >= 1');
  if (!WORKER_STRATEGIES.includes(c.strategy))
    bad('strategy', `"${c.strategy}" is not one of ${WORKER_STRATEGIES.join(', ')}`);
  if (typeof c.timeScale !== 'number' || c.timeScale < 0 || c.timeScale > 10)
    bad('timeScale', 'expected a number from 0 to 10');
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
