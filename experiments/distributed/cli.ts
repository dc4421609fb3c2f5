/**
 * The distributed part of `npm run crawl`: N worker-thread processes on this machine (in-memory
 * transport), or this machine's processes of a crawl coordinated by Redis. Bad flags are
 * UsageErrors (exit code 2 from the command).
 */
import { readFileSync } from 'node:fs';
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
  values: Record<string, string | undefined>;
  quiet: boolean;
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
    text = readFileSync(file, 'utf8');
  } catch (e) {
    usage(`--geo: cannot read ${file}: ${(e as Error).message}`);
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

export async function runDistributedCli(o: DistributedCliInput): Promise<void> {
  const v = o.values;
  if (MODEL_STRATEGIES.includes(o.strategy) && !o.models)
    usage(
      `--strategy ${o.strategy} learns from labelled departments: give --web (each process loads the models trained on the other departments)`,
    );
  if (!WORKER_STRATEGIES.includes(o.strategy) && !MODEL_STRATEGIES.includes(o.strategy))
    usage(`--strategy ${o.strategy} is not available in distributed crawls`);
  const assignment = (v.assignment ?? 'hash') as Assignment;
  if (!ASSIGNMENTS.includes(assignment))
    usage(`--assignment: "${v.assignment}" is not one of ${ASSIGNMENTS.join(', ')}`);
  if (assignment === 'geo' && !v.geo) usage('--assignment geo needs --geo FILE (host,region lines)');
  const dcName = v.datacentre ?? 'dc1';
  if (!/^[a-z0-9-]+$/.test(dcName)) usage(`--datacentre: "${dcName}" must be lowercase letters, digits and -`);
  const datacentres = v.datacentres ? parseDatacentres(v.datacentres) : [{ name: dcName, region: v.region ?? '' }];
  const mine = datacentres.find((d) => d.name === dcName);
  if (!mine) usage(`--datacentre ${dcName} is not in --datacentres ${v.datacentres}`);
  const region = v.region ?? mine.region;
  if (v.redis && !/^rediss?:\/\//.test(v.redis)) usage(`--redis: "${v.redis}" must look like redis://HOST:PORT`);
  const expect = v['expect-processes'] === undefined ? 0 : Number(v['expect-processes']);
  if (!Number.isInteger(expect) || expect < 0)
    usage(`--expect-processes: "${v['expect-processes']}" must be a whole number`);
  const budget = o.settings.maxPages ?? 1000;
  const idBase =
    v['process-id'] ??
    `${hostname()
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')}-${process.pid}`;
  const started = Date.now();
  const r = await runCluster({
    datacentres: datacentres.map((d) => ({
      ...d,
      region: d.name === dcName ? region : d.region,
      processes: d.name === dcName ? o.processes : 0,
    })),
    assignment,
    hostRegions: v.geo ? readGeo(v.geo) : {},
    budget,
    strategy: o.strategy,
    models: o.models,
    settings: o.settings,
    outDir: o.outDir,
    redis: v.redis ? { url: v.redis, name: v['crawl-name'] ?? 'crawl', reset: !!v.fresh } : undefined,
    idPrefix: v.redis ? idBase : undefined,
    expectMembers: expect,
  });
  const pages = r.processes.reduce((a, p) => a + p.summary.pages, 0);
  for (const p of r.processes)
    o.io.err(
      `${p.summary.id}: ${p.summary.pages} pages, ${p.summary.buckets} buckets at the end, ${p.summary.published} URLs published\n`,
    );
  o.io.out(
    `${JSON.stringify({ processes: r.processes.map((p) => ({ id: p.summary.id, datacentre: p.summary.datacentre, pages: p.summary.pages, bytes: p.summary.bytes, errors: p.summary.errors })), pages, counters: r.counters, wallMs: Math.round(r.wallMs) }, null, 2)}\n`,
  );
  o.io.err(
    `crawled ${pages} pages with ${r.processes.length} process(es) in ${((Date.now() - started) / 1000).toFixed(1)} s; logs: ${o.outDir}/<process>/crawl.jsonl\n`,
  );
}
