/**
 * Distributed crawling without timing: consistent hashing and partition ownership, and crawls
 * over the in-memory coordinator, on worker threads or in this thread over MessagePorts (no URL
 * fetched twice, the union equal to a single-process crawl, a global budget, the start barrier).
 * One crawl boots worker threads; the others run in this thread, since each thread loads tsx
 * and the crawler again (about a CPU-second). The Redis coordinator, whose
 * crawler processes are killed and joined on heartbeats, is in distributed.timing.test.ts (timing).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BfsStrategy, type CrawlSettings } from '../crawler/index.ts';
import { type Coordinator, CrawlNode, HashRing, MemoryCoordinator, Partitioner } from '../crawler/distributed/index.ts';
import { runCluster } from '../experiments/distributed/cluster.ts';
import { StrategyError } from '../experiments/strategy-registry.ts';
import { DIST_HOSTS, useFiniteWeb } from './helpers.ts';
import { scaled } from './speed.ts';

describe('partitioning', () => {
  it("moves only the joining member's share of buckets (consistent hashing)", () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `dc/${i}`);
    const before = new HashRing(['a', 'b', 'c']);
    const after = new HashRing(['a', 'b', 'c', 'd']);
    const moved = keys.filter((k) => before.owner(k) !== after.owner(k));
    expect(moved.every((k) => after.owner(k) === 'd')).toBe(true);
    expect(moved.length / keys.length).toBeGreaterThan(0.15);
    expect(moved.length / keys.length).toBeLessThan(0.35);
    const share = ['a', 'b', 'c', 'd'].map((m) => keys.filter((k) => after.owner(k) === m).length / keys.length);
    expect(Math.min(...share)).toBeGreaterThan(0.15);
  });

  it('assigns hosts to the centre of their region (geo), by hashing (hash) or to one centre (single)', () => {
    const regions: Record<string, string> = { 'a.test': 'us', 'b.test': 'eu', 'c.test': 'asia', 'd.test': 'mars' };
    const dcs = [
      { name: 'dc-us', region: 'us' },
      { name: 'dc-eu', region: 'eu' },
      { name: 'dc-asia', region: 'asia' },
    ];
    const geo = new Partitioner({ datacentres: dcs, assignment: 'geo', hostRegion: (h) => regions[h] });
    expect(['a.test', 'b.test', 'c.test'].map((h) => geo.datacentreOf(h))).toEqual(['dc-us', 'dc-eu', 'dc-asia']);
    expect(dcs.map((d) => d.name)).toContain(geo.datacentreOf('d.test')); // unknown region: hashed
    const hash = new Partitioner({ datacentres: dcs, assignment: 'hash', hostRegion: () => undefined });
    const spread = new Set(Array.from({ length: 60 }, (_, i) => hash.datacentreOf(`h${i}.test`)));
    expect(spread.size).toBe(3);
    const single = new Partitioner({ datacentres: dcs, assignment: 'single', hostRegion: () => undefined });
    expect(new Set(Array.from({ length: 20 }, (_, i) => single.datacentreOf(`h${i}.test`)))).toEqual(
      new Set(['dc-us']),
    );
    // within a centre every bucket has exactly one owner
    const members = ['p0', 'p1', 'p2'];
    const owned = members.map((m) => geo.owned('dc-us', members, m));
    expect(owned.flat().sort()).toEqual(geo.bucketsOf('dc-us').sort());
    expect(new Set(owned.flat()).size).toBe(geo.buckets);
  });
});

const TREE_PAGES = 341;

/** A tree of TREE_PAGES pages, four links each, every page linked once: a lost link is a lost subtree. */
async function treeWeb(): Promise<{ settings: Partial<CrawlSettings>; close: () => void }> {
  const server = createServer((req, res) => {
    const n = Number(req.url?.slice(1));
    if (!Number.isInteger(n) || n >= TREE_PAGES) return res.writeHead(404).end();
    const kids = [1, 2, 3, 4].map((k) => 4 * n + k).filter((k) => k < TREE_PAGES);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body>${kids.map((k) => `<a href="/${k}">page ${k}</a>`).join(' ')}</body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    settings: {
      startUrls: ['http://tree.test/0'],
      scope: ['tree.test'],
      resolve: [`tree.test=127.0.0.1:${port}`],
      delayMs: 0,
      autoThrottle: false,
      concurrency: 4,
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * The coordinator with `before` awaited ahead of every call (it may delay, throw or never
 * return) and the URLs marked done recorded in `done`.
 */
function intercepted(c: Coordinator, done: Set<string>, before: (key: string) => Promise<void>): Coordinator {
  return new Proxy(c, {
    get(target, key, receiver) {
      const f = Reflect.get(target, key, receiver);
      if (typeof f !== 'function') return f;
      return async (...args: unknown[]) => {
        await before(String(key));
        if (key === 'done') done.add(args[0] as string);
        return f.apply(target, args);
      };
    },
  });
}

describe('distributed crawls on worker threads', () => {
  const web = useFiniteWeb();
  const base = web.settings;

  it("on worker threads: the union of the processes equals one process's crawl, no URL twice, with another strategy too", async () => {
    // geo assignment, one host per region: each centre's processes crawl their own host, so the
    // union is one across processes by construction (hashed, both hosts fell to one of the
    // processes and the others fetched nothing). Regions the web does not know, so that no
    // response waits for a round trip (the web's geography: distributed.timing.test.ts). The second
    // strategy's processes run in this thread, each over its own MessagePort (threads: false):
    // each worker thread loads tsx and the crawler again (about a CPU-second), and the threads
    // are under test with the first, one per centre; two processes share a centre in the second
    const hostRegions = { [DIST_HOSTS[0]]: 'north', [DIST_HOSTS[1]]: 'south' };
    for (const [strategy, northProcesses, threads, module] of [
      ['bfs', 1, true, undefined],
      ['immediate', 2, false, undefined],
      // a researcher's strategy module, loaded by every process: one file, no registry entry
      ['depth-best-first', 1, true, 'examples/strategies/depth-best-first.ts'],
    ] as const) {
      const r = await runCluster({
        threads,
        module,
        datacentres: [
          { name: 'dc-north', region: 'north', processes: northProcesses },
          { name: 'dc-south', region: 'south', processes: 1 },
        ],
        assignment: 'geo',
        hostRegions,
        budget: 100_000,
        strategy,
        settings: base(),
      });
      const urls = r.processes.flatMap((p) => p.fetched.map((f) => f.url));
      expect(urls.length, strategy).toBe(new Set(urls).size);
      expect(new Set(urls), strategy).toEqual(web.single);
      expect(r.counters.published).toBe(r.counters.settled);
      // every process fetched only its region's host, and both centres fetched
      for (const p of r.processes)
        for (const f of p.fetched) expect(hostRegions[new URL(f.url).host], `${strategy} ${f.url}`).toBe(p.region);
      expect(new Set(r.processes.filter((p) => p.fetched.length).map((p) => p.region)), strategy).toEqual(
        new Set(['north', 'south']),
      );
    }
  });

  it('a strategy module that does not load stops the cluster before any process starts', async () => {
    const run = runCluster({
      datacentres: [{ name: 'dc-north', region: 'north', processes: 2 }],
      assignment: 'single',
      hostRegions: {},
      budget: 10,
      strategy: 'mine',
      module: 'no/such/strategy.ts',
      settings: base(),
    });
    await expect(run).rejects.toThrow(StrategyError);
    await expect(run).rejects.toThrow(/no such file/);
  });

  it('a crawl of one process (run in the calling thread) crawls what one engine crawls', async () => {
    // no worker thread to boot (experiments/distributed/process.ts): the same process code, the
    // coordinator called directly instead of through a MessagePort
    const r = await runCluster({
      datacentres: [{ name: 'dc-north', region: 'north', processes: 1 }],
      assignment: 'single',
      hostRegions: {},
      budget: 100_000,
      strategy: 'bfs',
      settings: base(),
    });
    expect(r.processes.map((p) => [p.summary.id, p.region])).toEqual([['dc-north-p0', 'north']]);
    const urls = r.processes[0].fetched.map((f) => f.url);
    expect(urls.length).toBe(new Set(urls).size);
    expect(new Set(urls)).toEqual(web.single);
    expect(r.counters.published).toBe(r.counters.settled);
  });

  it('respects a global page budget across processes', async () => {
    // one host per centre, as above: hashed, one process fetched all 150 and the budget was its own.
    // In this thread, each process over its own MessagePort: the budget travels as an argument of
    // the coordinator's claim, as it does from a worker thread
    const r = await runCluster({
      threads: false,
      datacentres: [
        { name: 'dc-north', region: 'north', processes: 1 },
        { name: 'dc-south', region: 'south', processes: 1 },
      ],
      assignment: 'geo',
      hostRegions: { [DIST_HOSTS[0]]: 'north', [DIST_HOSTS[1]]: 'south' },
      budget: 150,
      strategy: 'bfs',
      settings: base(),
    });
    const urls = r.processes.flatMap((p) => p.fetched.map((f) => f.url));
    expect(urls.length).toBe(150);
    expect(new Set(urls).size).toBe(150);
    expect(r.processes.map((p) => p.fetched.length > 0)).toEqual([true, true]);
  });

  it('a process that dies in the middle of a publish loses no links: the survivor finishes the crawl', async () => {
    // On the tree web (a lost link is a lost subtree), A's coordinator publishes slowly, so pages
    // settle meanwhile, and at A's 60th URL marked done it stops answering for good, as a SIGKILL
    // would leave it; B takes A's host over. A page that settled during a publish was once marked
    // done and acknowledged in the same round with its links still unsent: the crash lost them
    const tree = await treeWeb();
    const shared = new MemoryCoordinator();
    const done = new Set<string>();
    let marks = 0;
    const never = new Promise<never>(() => {});
    const via = (dies: boolean): Coordinator =>
      intercepted(shared, done, async (key) => {
        if (!dies) return;
        if (key === 'publish') await new Promise((r) => setTimeout(r, 15));
        if (marks >= 60 || (key === 'done' && ++marks >= 60)) await never;
      });
    const part = new Partitioner({
      datacentres: [{ name: 'dc1', region: '' }],
      assignment: 'hash',
      hostRegion: () => undefined,
      buckets: 16,
    });
    // x owns the tree's host (16 buckets): the dying process has a share to lose
    expect(part.owned('dc1', ['x', 'y'], 'x')).toContain(part.bucketOf('tree.test'));
    const node = (id: string, coordinator: Coordinator): CrawlNode =>
      new CrawlNode({
        id,
        datacentre: 'dc1',
        coordinator,
        partitioner: part,
        settings: tree.settings,
        strategy: new BfsStrategy(),
        budget: 100_000,
        expectMembers: 2,
        heartbeatMs: 50,
        deadMs: 400,
      });
    const dying = node('x', via(true));
    void dying.run();
    try {
      await node('y', via(false)).run();
      expect(marks).toBeGreaterThanOrEqual(60);
      expect(done.size).toBe(TREE_PAGES);
    } finally {
      dying.stop();
      tree.close();
    }
  });

  it('a publish that fails is sent again in the next round: nothing lost on a transport error', async () => {
    const tree = await treeWeb();
    const shared = new MemoryCoordinator();
    const done = new Set<string>();
    let publishes = 0;
    let failed = 0;
    // every third publish fails (after the first, the seeds), as a dropped connection would
    const flaky = intercepted(shared, done, async (key) => {
      if (key === 'publish' && ++publishes > 1 && publishes % 3 === 0) {
        failed++;
        throw new Error('connection reset');
      }
    });
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => errors.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      await new CrawlNode({
        id: 'x',
        datacentre: 'dc1',
        coordinator: flaky,
        partitioner: new Partitioner({
          datacentres: [{ name: 'dc1', region: '' }],
          assignment: 'hash',
          hostRegion: () => undefined,
        }),
        settings: tree.settings,
        strategy: new BfsStrategy(),
        budget: 100_000,
      }).run();
    } finally {
      process.stderr.write = write;
      tree.close();
    }
    expect(done.size).toBe(TREE_PAGES);
    // how many publishes there are depends on how pages batch (two under load, not three, in CI)
    expect(failed).toBeGreaterThan(0);
    expect(errors.some((e) => /transport error: connection reset/.test(e))).toBe(true);
  });

  it('a process still waiting at the start barrier ends when a small crawl finished without it', async () => {
    // p1 joins, then checks the barrier only every 1.5 s; p0 sees both, crawls 5 pages and leaves
    // in the meantime. p1 then counts one member: it must see that the crawl already ran.
    const c = new MemoryCoordinator();
    const part = new Partitioner({
      datacentres: [{ name: 'dc1', region: '' }],
      assignment: 'hash',
      hostRegion: () => undefined,
      buckets: 16,
    });
    const node = (i: number, heartbeatMs: number): CrawlNode =>
      new CrawlNode({
        id: `b${i}`,
        datacentre: 'dc1',
        coordinator: c,
        partitioner: part,
        settings: base(),
        strategy: new BfsStrategy(),
        budget: 5,
        expectMembers: 2,
        heartbeatMs,
        deadMs: 5000,
      });
    const slow = node(1, 1500).run();
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    const [a, b] = await Promise.all([node(0, 50).run(), slow]);
    expect(a.pages + b.pages).toBe(5);
    expect(performance.now() - t0).toBeLessThan(scaled(10_000));
  });
});
