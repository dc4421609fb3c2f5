/**
 * The distributed part of `npm run crawl`: N worker-thread processes on this machine (in-memory
 * transport), or this machine's processes of a crawl coordinated by Redis. Bad flags are
 * UsageErrors (exit code 2 from the command).
 */
import { MAX_CONFIG_BYTES, readTextFile } from '../../lib/input.ts';
import { hostname } from 'node:os';
import type { CrawlSettings } from '../../crawler/index.ts';
import { ASSIGNMENTS, type Assignment } from '../../crawler/distributed/index.ts';
import { type CliIo, usage } from '../../lib/cli.ts';
import { MODEL_STRATEGIES, runCluster, WORKER_STRATEGIES, type ModelSource } from './cluster.ts';

export interface DistributedCliInput {
  /** Where the summary (stdout) and the progress lines (stderr) go: the crawl command's io. */
  io: CliIo;
  settings: Partial<CrawlSettings>;
  strategy: string;
  outDir: string;
  processes: number;
  /** The distributed flags, checked by distributedFlags(). */
  flags: DistributedFlags;
  /** For future and adaptive: the synthetic web the models were trained on. */
  models?: ModelSource;
}

function parseDatacentres(spec: string): { name: string; region: string }[] {
  return spec.split(',').map((part) => {
    const m = /^([a-z0-9-]+):([a-z0-9-]+)$/.exec(part.trim());
    if (!m) usage(`--datacentres: "${part}" must be NAME:REGION (lowercase letters, digits, -)`);
    return { name: m[1], region: m[2] };
  });
}

function readGeo(file: string): Record<string, string> {
  let text: string;
  try {
    // a host list: a megabyte is tens of thousands of hosts (and /dev/zero is refused, not read)
    text = readTextFile(file, `--geo ${file}`, MAX_CONFIG_BYTES);
  } catch (e) {
    usage((e as Error).message);
  }
  const out: Record<string, string> = {};
  text.split('\n').forEach((line, i) => {
    const t = line.trim();
    if (!t || t.startsWith('#') || (i === 0 && /^host\s*,/i.test(t))) return;
    const [host, region] = t.split(',').map((x) => x.trim());
    if (!host || !region) usage(`--geo: ${file} line ${i + 1}: expected host,region`);
    out[host.toLowerCase()] = region;
  });
  return out;
}

/** The distributed flags of one machine, checked (every refusal before anything starts). */
export interface DistributedFlags {
  assignment: Assignment;
  datacentres: { name: string; region: string }[];
  datacentre: string;
  region: string;
  hostRegions: Record<string, string>;
  redis?: { url: string; name: string; reset: boolean };
  idBase: string;
  expect: number;
}

/**
 * Checks the distributed flags and the strategy (a built-in the processes can build; one that
 * needs models only with the web they are trained on): the crawl command calls it before it starts
 * a web or trains.
 */
export function distributedFlags(
  v: Record<string, string | boolean | undefined>,
  strategy: string,
  hasModels: boolean,
): DistributedFlags {
  const s = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  if (MODEL_STRATEGIES.includes(strategy) && !hasModels)
    usage(
      `--strategy ${strategy} learns from labelled departments: give --web (each process loads the models trained on the other departments)`,
    );
  if (!WORKER_STRATEGIES.includes(strategy) && !MODEL_STRATEGIES.includes(strategy))
    usage(`--strategy ${strategy} is not available in distributed crawls`);
  const assignment = (s('assignment') ?? 'hash') as Assignment;
  if (!ASSIGNMENTS.includes(assignment))
    usage(`--assignment: "${s('assignment')}" is not one of ${ASSIGNMENTS.join(', ')}`);
  const geo = s('geo');
  if (assignment === 'geo' && !geo) usage('--assignment geo needs --geo FILE (host,region lines)');
  const datacentre = s('datacentre') ?? 'dc1';
  if (!/^[a-z0-9-]+$/.test(datacentre)) usage(`--datacentre: "${datacentre}" must be lowercase letters, digits and -`);
  const spec = s('datacentres');
  const datacentres = spec ? parseDatacentres(spec) : [{ name: datacentre, region: s('region') ?? '' }];
  const mine = datacentres.find((d) => d.name === datacentre);
  if (!mine) usage(`--datacentre ${datacentre} is not in --datacentres ${spec}`);
  const redis = s('redis');
  if (redis && !/^rediss?:\/\//.test(redis)) usage(`--redis: "${redis}" must look like redis://HOST:PORT`);
  const expect = s('expect-processes') === undefined ? 0 : Number(s('expect-processes'));
  if (!Number.isInteger(expect) || expect < 0)
    usage(`--expect-processes: "${s('expect-processes')}" must be a whole number`);
  return {
    assignment,
    datacentres,
    datacentre,
    region: s('region') ?? mine.region,
    hostRegions: geo ? readGeo(geo) : {},
    redis: redis ? { url: redis, name: s('crawl-name') ?? 'crawl', reset: !!v.fresh } : undefined,
    idBase:
      s('process-id') ??
      `${hostname()
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-')}-${process.pid}`,
    expect,
  };
}

export async function runDistributedCli(o: DistributedCliInput): Promise<void> {
  const f = o.flags;
  const budget = o.settings.maxPages ?? 1000;
  const started = Date.now();
  const r = await runCluster({
    datacentres: f.datacentres.map((d) => ({
      ...d,
      region: d.name === f.datacentre ? f.region : d.region,
      processes: d.name === f.datacentre ? o.processes : 0,
    })),
    assignment: f.assignment,
    hostRegions: f.hostRegions,
    budget,
    strategy: o.strategy,
    models: o.models,
    settings: o.settings,
    outDir: o.outDir,
    redis: f.redis,
    idPrefix: f.redis ? f.idBase : undefined,
    expectMembers: f.expect,
  });
  const pages = r.processes.reduce((a, p) => a + p.summary.pages, 0);
  for (const p of r.processes)
    o.io.err(
      `${p.summary.id}: ${p.summary.pages} pages, ${p.summary.buckets} buckets at the end, ${p.summary.published} URLs published\n`,
    );
  o.io.out(
    `${JSON.stringify(
      {
        processes: r.processes.map(({ summary: s }) => ({
          id: s.id,
          datacentre: s.datacentre,
          pages: s.pages,
          bytes: s.bytes,
          errors: s.errors,
        })),
        pages,
        counters: r.counters,
        wallMs: Math.round(r.wallMs),
      },
      null,
      2,
    )}\n`,
  );
  o.io.err(
    `crawled ${pages} pages with ${r.processes.length} process(es) ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s; logs: ${o.outDir}/<process>/crawl.jsonl\n`,
  );
}
