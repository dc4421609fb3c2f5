/**
 * What a distributed crawl on this machine is started with (cluster.ts runCluster), and what each
 * of its crawler processes is given and gives back (process.ts, process-thread.ts): types of their own, so
 * that the cluster and its processes import them without importing each other.
 */
import type { CrawlSettings } from '../../crawler/index.ts';
import type { Assignment, DataCentre, NodeSummary } from '../../crawler/distributed/index.ts';

export interface ClusterOptions {
  datacentres: (DataCentre & { processes: number })[];
  assignment: Assignment;
  /** Host -> region: the GeoIP-like table geo-affinity uses. */
  hostRegions: Record<string, string>;
  /** Pages over all processes. */
  budget: number;
  /** Any strategy; future and adaptive need `models`. */
  strategy: string;
  /** A strategy module loaded under `strategy` by every process (experiments/strategy-registry.ts loadStrategyModule). */
  module?: string;
  /** Where future and adaptive get their link classifier: each process regenerates the web and loads the trained models (from the cache when warm). */
  models?: ModelSource;
  settings: Partial<CrawlSettings>;
  /** Each process writes its journal to outDir/<process id>. */
  outDir?: string;
  /** Connect through Redis instead of in memory; name = the crawl's key prefix; reset deletes its keys first. */
  redis?: { url: string; name: string; reset?: boolean };
  /** Process ids start with this (default the data centre's name). */
  idPrefix?: string;
  /** Each process waits for this many processes of its centre before crawling (Redis: across machines). */
  expectMembers?: number;
  /**
   * false: every process crawls in this thread, each talking to the in-memory coordinator over
   * its own MessagePort as a worker thread does (the same messages), or over its own Redis
   * connection. No thread to boot (tsx and the crawler loaded again, about a CPU-second each):
   * for tests of the crawl rather than of the threads, and for profiling. Wall times then share
   * one core. Default true.
   */
  threads?: boolean;
}

export interface ModelSource {
  web: string;
  seed: number;
  /** The department held out of training (the one crawled). */
  heldOut: string;
  cacheDir: string | null;
}

/** What one crawler process is started with: the cluster's options for its own centre. */
export interface WorkerInput
  extends Pick<
    ClusterOptions,
    | 'assignment'
    | 'hostRegions'
    | 'budget'
    | 'strategy'
    | 'module'
    | 'models'
    | 'settings'
    | 'outDir'
    | 'redis'
    | 'expectMembers'
  > {
  id: string;
  datacentre: string;
  datacentres: DataCentre[];
  /** The MessagePort to the in-memory coordinator (none with Redis). */
  port?: unknown;
}

export interface WorkerOutput {
  summary: NodeSummary;
  fetched: { url: string; bytes: number; status: number | null; ms?: number }[];
}
