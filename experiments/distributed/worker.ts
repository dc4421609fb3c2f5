/**
 * One crawler process of a --processes N crawl, run in a worker thread: builds its strategy,
 * talks to the main thread's coordinator (or to Redis) and reports its summary and the pages
 * it fetched when the crawl is over.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { loadKeywords } from '../../crawler/focused/index.ts';
import {
  CrawlNode,
  Partitioner,
  RedisCoordinator,
  ThreadCoordinator,
  type Coordinator,
} from '../../crawler/distributed/index.ts';
import { makeStrategy, type StrategyContext } from '../strategies.ts';
import type { WorkerInput, WorkerOutput } from './cluster.ts';

const input = workerData as WorkerInput;
const port = input.port as MessagePort | undefined;
let coordinator: Coordinator;
if (input.redis) {
  const r = new RedisCoordinator(input.redis.url, input.redis.name);
  await r.connect();
  coordinator = r;
} else coordinator = new ThreadCoordinator(port!);
const hostRegions = new Map(Object.entries(input.hostRegions));
const keywords = ['immediate', 'future', 'adaptive'].includes(input.strategy) ? loadKeywords() : undefined;
let models: StrategyContext['models'];
if (input.models) {
  // the same leave-one-site-out models as the main process: regenerate the web, hit the model cache
  const { models: src } = input;
  const { loadConfig } = await import('../../sim/config.ts');
  const { Web } = await import('../../sim/web.ts');
  const { TrainingData, sitePages, webKey } = await import('../training.ts');
  const { DEFAULT_FUTURE } = await import('../../crawler/focused/index.ts');
  const web = new Web(loadConfig(src.web), src.seed);
  const depts = web.sites.filter((s) => s.kind === 'department').map((s) => s.host);
  const m = new TrainingData((h) => sitePages(web, h), depts, DEFAULT_FUTURE).models(
    src.heldOut,
    keywords!,
    src.cacheDir,
    `${webKey(web)}:${src.seed}:paper`,
  );
  models = () => m;
}
const fetched: WorkerOutput['fetched'] = [];
const node = new CrawlNode({
  id: input.id,
  datacentre: input.datacentre,
  coordinator,
  partitioner: new Partitioner({
    datacentres: input.datacentres,
    assignment: input.assignment,
    hostRegion: (h) => hostRegions.get(h),
  }),
  settings: input.settings,
  strategy: makeStrategy(input.strategy, { seed: input.settings.seed ?? 1, keywords, models }),
  budget: input.budget,
  expectMembers: input.expectMembers ?? 0,
  outDir: input.outDir,
  onLog: (e) => fetched.push({ url: e.url, bytes: e.bytes, status: e.status, ms: e.ms }),
});
// start together: loading a worker takes longer than a small crawl
parentPort!.postMessage('ready');
await new Promise<void>((r) => parentPort!.once('message', () => r()));
const summary = await node.run();
parentPort!.postMessage({ summary, fetched } satisfies WorkerOutput);
await coordinator.close();
