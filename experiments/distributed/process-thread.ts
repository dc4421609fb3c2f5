/**
 * One crawler process of a --processes N crawl, run in a worker thread: connects to the main
 * thread's coordinator (or to Redis), crawls (process.ts) and reports its summary and the pages
 * it fetched when the crawl is over.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { RedisCoordinator, ThreadCoordinator, type Coordinator } from '../../crawler/distributed/index.ts';
import type { WorkerInput, WorkerOutput } from './options.ts';
import { crawlerProcess } from './process.ts';

const input = workerData as WorkerInput;
let coordinator: Coordinator;
if (input.redis) {
  const r = new RedisCoordinator(input.redis.url, input.redis.name);
  await r.connect();
  coordinator = r;
} else coordinator = new ThreadCoordinator(input.port as MessagePort);
const out = await crawlerProcess(input, coordinator, async () => {
  // start together: loading a worker takes longer than a small crawl
  parentPort!.postMessage('ready');
  await new Promise<void>((r) => parentPort!.once('message', () => r()));
});
parentPort!.postMessage(out satisfies WorkerOutput);
await coordinator.close();
