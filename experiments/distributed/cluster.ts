/**
 * Runs a distributed crawl on this machine: one worker thread per crawler process, grouped in
 * data centres (each process declares its centre's region to the servers it fetches from),
 * connected by the in-memory coordinator served from this thread, or by Redis. A crawl of one
 * process here (a machine's share of a Redis crawl, as `npm run crawl -- --redis` runs it) crawls
 * in this thread instead, and so does every process with `threads: false`.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import {
  MemoryCoordinator,
  serveCoordinator,
  RedisCoordinator,
  ThreadCoordinator,
  type Coordinator,
} from '../../crawler/distributed/index.ts';
import { crawlerProcess } from './process.ts';
import type { ClusterOptions, WorkerInput, WorkerOutput } from './options.ts';
import { BUILT_INS, loadStrategyModule } from '../strategy-registry.ts';
import { moduleUrl, RUNS_SOURCES } from '../../lib/paths.ts';

export type { ClusterOptions, ModelSource, WorkerInput, WorkerOutput } from './options.ts';

export interface ProcessResult extends WorkerOutput {
  region: string;
}

export interface ClusterResult {
  wallMs: number;
  processes: ProcessResult[];
  counters: { published: number; settled: number; pages: number };
}

/**
 * Strategies a crawler process builds from keywords alone, and those that also need ModelSource:
 * the built-ins whose descriptors say they run distributed (experiments/strategy-registry.ts BUILT_INS).
 */
export const WORKER_STRATEGIES = BUILT_INS.filter((d) => d.distributed && !d.needs).map((d) => d.name);
export const MODEL_STRATEGIES = BUILT_INS.filter((d) => d.distributed && d.needs === 'models').map((d) => d.name);

// a worker thread does not inherit tsx's loader: from sources, or when a researcher's strategy module
// (maybe TypeScript) is to be loaded, register it, then load the worker; built, the worker is JavaScript
const WORKER = JSON.stringify(moduleUrl(import.meta.url, './process-thread').href);
const boot = (tsx: boolean): string =>
  tsx
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => m.register()).then(() => import(${WORKER}))`
    : `import(${WORKER})`;

export async function runCluster(o: ClusterOptions): Promise<ClusterResult> {
  await checkStrategy(o);
  const coordinator = await clusterCoordinator(o);
  const total = o.datacentres.reduce((a, d) => a + d.processes, 0);
  if (!total) throw new Error('no crawler processes to run');
  const launch = new Launch(total);
  const jobs: Promise<ProcessResult>[] = [];
  const ports: MessagePort[] = [];
  const dcs = o.datacentres.map(({ name, region }) => ({ name, region }));
  for (const dc of o.datacentres) {
    for (let i = 0; i < dc.processes; i++) {
      const input = processInput(o, dc, i, dcs);
      let port: MessagePort | undefined;
      if (!o.redis && total > 1) {
        const ch = new MessageChannel();
        serveCoordinator(coordinator, ch.port1);
        ports.push(ch.port1);
        port = ch.port2;
      }
      if (total === 1 || o.threads === false) {
        const own = await ownCoordinator(o, coordinator, port);
        jobs.push(launch.inThisThread(input, own, coordinator, dc.region));
      } else jobs.push(launch.inWorker(input, o, port, dc.region));
    }
  }
  const processes = await Promise.all(jobs).finally(() => ports.forEach((p) => p.close()));
  const wallMs = performance.now() - launch.t0;
  const counters = await coordinator.counters();
  await coordinator.close();
  return { wallMs, processes, counters };
}

/** A strategy the processes can build: a module that loads (it fails here, once), or a built-in with what it needs. */
async function checkStrategy(o: ClusterOptions): Promise<void> {
  if (o.module)
    await loadStrategyModule(o.strategy, o.module); // a module that does not load fails here, once
  else if (MODEL_STRATEGIES.includes(o.strategy) && !o.models)
    throw new Error(
      `strategy "${o.strategy}" learns from labelled departments: crawl the synthetic web (--web) so each process can load the trained models`,
    );
  else if (!WORKER_STRATEGIES.includes(o.strategy) && !MODEL_STRATEGIES.includes(o.strategy))
    throw new Error(`strategy "${o.strategy}" is not one of ${[...WORKER_STRATEGIES, ...MODEL_STRATEGIES].join(', ')}`);
}

/** The cluster's coordinator: Redis when given (reset when asked), else in memory. */
async function clusterCoordinator(o: ClusterOptions): Promise<Coordinator> {
  if (!o.redis) return new MemoryCoordinator();
  const r = new RedisCoordinator(o.redis.url, o.redis.name);
  await r.connect();
  if (o.redis.reset) await r.reset();
  return r;
}

/** The coordinator a process in this thread talks to: its own Redis connection, its MessagePort, or the shared one. */
async function ownCoordinator(
  o: ClusterOptions,
  shared: Coordinator,
  port: MessagePort | undefined,
): Promise<Coordinator> {
  if (o.redis) {
    const own = new RedisCoordinator(o.redis.url, o.redis.name);
    await own.connect();
    return own;
  }
  return port ? new ThreadCoordinator(port) : shared;
}

/** What crawler process i of data centre dc is started with. */
function processInput(
  o: ClusterOptions,
  dc: ClusterOptions['datacentres'][number],
  i: number,
  dcs: { name: string; region: string }[],
): WorkerInput {
  const id = `${o.idPrefix ?? dc.name}-p${i}`;
  return {
    id,
    datacentre: dc.name,
    datacentres: dcs,
    assignment: o.assignment,
    hostRegions: o.hostRegions,
    budget: o.budget,
    strategy: o.strategy,
    module: o.module,
    models: o.models,
    settings: { ...o.settings, region: dc.region },
    outDir: o.outDir ? `${o.outDir}/${id}` : undefined,
    redis: o.redis,
    // without a barrier the first process to start takes every bucket, then hands most back after deadMs
    expectMembers: o.expectMembers ?? (o.redis ? 0 : dc.processes),
  };
}

/** Starts the crawler processes; the wall time counts from the moment every one is loaded (t0). */
class Launch {
  t0 = 0;
  private ready = 0;
  private readonly workers: Worker[] = [];
  constructor(private readonly total: number) {}

  /**
   * A process in this thread (process.ts), with its own Redis connection or MessagePort, as a
   * worker has (ownCoordinator); a single process calls the in-memory coordinator directly.
   */
  inThisThread(input: WorkerInput, own: Coordinator, shared: Coordinator, region: string): Promise<ProcessResult> {
    return crawlerProcess(input, own, async () => {
      this.t0 ||= performance.now();
    })
      .then((out) => ({ ...out, region }))
      .finally(() => (own === shared ? undefined : own.close()));
  }

  /** A process in a worker thread; every one starts crawling once all are loaded. */
  inWorker(
    input: WorkerInput,
    o: ClusterOptions,
    port: MessagePort | undefined,
    region: string,
  ): Promise<ProcessResult> {
    const transfer = [];
    if (port) {
      input.port = port;
      transfer.push(port);
    }
    const worker = new Worker(boot(RUNS_SOURCES || o.module !== undefined), {
      eval: true,
      workerData: input,
      transferList: transfer,
    });
    this.workers.push(worker);
    return new Promise<ProcessResult>((resolve, reject) => {
      let out: WorkerOutput | null = null;
      worker.on('message', (m: WorkerOutput | 'ready') => {
        if (m !== 'ready') out = m;
        else if (++this.ready === this.total) {
          // wall time counts from the moment every process is loaded
          this.t0 = performance.now();
          for (const w of this.workers) w.postMessage('go');
        }
      });
      worker.on('error', reject);
      worker.on('exit', (code) =>
        out
          ? resolve({ ...out, region })
          : reject(new Error(`crawler process ${input.id} exited with code ${code} before reporting`)),
      );
    });
  }
}
