/**
 * One crawler process of a --processes N crawl, run in a worker thread: builds its strategy,
 * talks to the main thread's coordinator (or to Redis) and reports its summary and the pages
 * it fetched when the crawl is over.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { loadKeywords } from '../../crawler/focused/topic.ts';
import { CrawlNode, Partitioner, RedisCoordinator, ThreadCoordinator, type Coordinator } from '../../crawler/distributed/index.ts';
import { makeStrategy } from '../strategies.ts';
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
const fetched: WorkerOutput['fetched'] = [];
const node = new CrawlNode({
  id: input.id,
  datacentre: input.datacentre,
  coordinator,
  partitioner: new Partitioner({ datacentres: input.datacentres, assignment: input.assignment, hostRegion: (h) => hostRegions.get(h) }),
  settings: input.settings,
  strategy: makeStrategy(input.strategy, { seed: input.settings.seed ?? 1, keywords: input.strategy === 'immediate' ? loadKeywords() : undefined }),
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
