/**
 * One crawler process of a distributed crawl: builds its strategy (and, for future and adaptive,
 * loads the trained models), runs its CrawlNode against a coordinator and returns its summary
 * and the pages it fetched. Run in a worker thread (process-thread.ts), or, when this machine runs only
 * one process (`npm run crawl -- --redis URL`), in the calling thread: a worker thread loads tsx
 * and the crawler again (seconds to boot), for nothing when there is no other process to
 * isolate it from.
 */
import { loadKeywords } from '../../crawler/focused/index.ts';
import { CrawlNode, Partitioner, type Coordinator } from '../../crawler/distributed/index.ts';
import { loadStrategyModule, makeStrategy, type StrategyContext, strategyDescriptor } from '../strategy-registry.ts';
import type { WorkerInput, WorkerOutput } from './options.ts';

/**
 * Crawls as process `input.id`. `ready` is awaited once the process is built and before it
 * crawls: the start barrier of a cluster (loading a worker takes longer than a small crawl).
 */
export async function crawlerProcess(
  input: WorkerInput,
  coordinator: Coordinator,
  ready: () => Promise<void> = async () => {},
): Promise<WorkerOutput> {
  const hostRegions = new Map(Object.entries(input.hostRegions));
  // a module is loaded in this process too (a worker thread shares no modules); it gets the topic, as in an experiment
  if (input.module) await loadStrategyModule(input.strategy, input.module);
  const keywords = input.module || strategyDescriptor(input.strategy)?.reads === 'topic' ? loadKeywords() : undefined;
  let models: StrategyContext['models'];
  if (input.models) {
    // the same leave-one-site-out models as the main process: regenerate the web, hit the model cache
    const { models: src } = input;
    const { loadConfig } = await import('../../sim/config.ts');
    const { Web } = await import('../../sim/web.ts');
    const { TrainingData, sitePages, webKey } = await import('../web-training.ts');
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
  await ready();
  return { summary: await node.run(), fetched };
}
