/**
 * npm run bench:crawl : crawler throughput on the synthetic web (BFS, 200+ hosts, politeness set
 * for throughput) next to the ceiling: the same server driven by a minimal fetch loop (undici +
 * htmlparser2 + a Set), in the same run. Prints pages/s, CPU time per page, peak memory.
 * The server runs in a child process so crawler and server each have a core. Every built-in
 * strategy is measured on the same web (BENCH_STRATEGIES=a,b,... for some of them).
 */
import { Agent, buildConnector, request } from 'undici';
import { Parser } from 'htmlparser2';
import { CrawlEngine, BfsStrategy, type Strategy } from '../crawler/index.ts';
import { loadConfig } from '../sim/config.ts';
import { Web } from '../sim/web.ts';
import { startSimProcess } from './simproc.ts';
import { loadKeywords } from '../crawler/focused/topic.ts';
import { DEFAULT_FUTURE } from '../crawler/focused/training.ts';
import { sitePages, TrainingData, webKey } from '../experiments/training.ts';
import { makeStrategy, strategyNames } from '../experiments/strategies.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 20_000);
const CONCURRENCY = 32;
const WEB = 'data/webs/paper.json';

export interface Measured {
  pages: number;
  seconds: number;
  cpuMs: number;
  peakRss: number;
  extra?: Record<string, number>;
}

async function measure(
  fn: () => Promise<number | { pages: number; extra: Record<string, number> }>,
): Promise<Measured> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await fn();
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const pages = typeof r === 'number' ? r : r.pages;
  return {
    pages,
    seconds,
    cpuMs: (c.user + c.system) / 1000,
    peakRss: peak,
    extra: typeof r === 'number' ? undefined : r.extra,
  };
}

/** The ceiling: the least a crawler must do. Queue, Set, undici, htmlparser2 for hrefs. */
async function minimalLoop(port: number, seeds: string[]): Promise<number> {
  const connect = buildConnector({});
  const agent = new Agent({
    connections: 8,
    connect: (o, cb) => connect({ ...o, hostname: '127.0.0.1', host: `127.0.0.1:${port}`, port: String(port) }, cb),
  });
  const seen = new Set<string>(seeds);
  const queue = [...seeds];
  let fetched = 0;
  let active = 0;
  await new Promise<void>((done) => {
    const pump = (): void => {
      while (active < CONCURRENCY && queue.length && fetched + active < PAGES) {
        const url = queue.shift()!;
        active++;
        request(url, { dispatcher: agent })
          .then(async (res) => {
            const type = String(res.headers['content-type'] ?? '');
            const body = await res.body.text();
            if (type.startsWith('text/html')) {
              const p = new Parser({
                onopentag(name, a) {
                  if (name !== 'a' || !a.href) return;
                  try {
                    const u = new URL(a.href, url);
                    u.hash = '';
                    if (u.hostname.endsWith('.test') && !seen.has(u.href)) {
                      seen.add(u.href);
                      queue.push(u.href);
                    }
                  } catch {
                    /* bad href */
                  }
                },
              });
              p.write(body);
              p.end();
            }
          })
          .catch(() => {})
          .finally(() => {
            active--;
            fetched++;
            if (fetched >= PAGES || (active === 0 && !queue.length)) done();
            else pump();
          });
      }
    };
    pump();
  });
  await agent.close();
  return fetched;
}

export async function crawlWith(
  port: number,
  seeds: string[],
  strategy: Strategy,
): Promise<{ pages: number; extra: Record<string, number> }> {
  const engine = CrawlEngine.create({
    settings: {
      seeds,
      scope: ['*.test'],
      resolve: [`*.test=127.0.0.1:${port}`],
      maxPages: PAGES,
      concurrency: CONCURRENCY,
      perHostConcurrency: 8,
      delayMs: 0,
      autoThrottle: false,
      retries: 1,
      retryBaseMs: 10,
      robotsRetries: 0,
    },
    strategy,
  });
  let linksScored = 0;
  const orig = strategy.onPage.bind(strategy);
  strategy.onPage = (page, cands) => {
    linksScored += cands.length;
    return orig(page, cands);
  };
  const s = await engine.run();
  return { pages: s.pages, extra: { linksScored } };
}

const fmt = (m: Measured): string =>
  `${Math.round(m.pages / m.seconds)} pages/s, ${((m.cpuMs / m.pages) * 1000).toFixed(0)} us CPU/page, peak RSS ${Math.round(m.peakRss / 2 ** 20)} MB (${m.pages} pages in ${m.seconds.toFixed(1)} s)`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const web = new Web(loadConfig(WEB), 1);
  const seeds = web.sites.map((s) => `http://${s.host}/`);
  const sim = await startSimProcess(WEB, 1, ['--no-faults']);
  try {
    console.log(
      `bench:crawl on "${WEB}" (${web.sites.length} hosts), ${PAGES} pages, ${CONCURRENCY} concurrent; server in a child process, faults off`,
    );
    const ceiling = await measure(() => minimalLoop(sim.port, seeds));
    console.log(`  ceiling (undici + htmlparser2 + Set): ${fmt(ceiling)}`);
    const bfs = await measure(() => crawlWith(sim.port, seeds, new BfsStrategy()));
    console.log(`  crawler, BFS:                         ${fmt(bfs)}`);
    console.log(
      `  crawler / ceiling: ${((100 * (bfs.pages / bfs.seconds)) / (ceiling.pages / ceiling.seconds)).toFixed(0)}% (target >= 50%)`,
    );
    // every strategy on the same web and server; future and adaptive use a model trained on
    // three departments (training time not counted)
    const hosts = web.sites.filter((s) => s.kind === 'department').map((s) => s.host);
    const keywords = loadKeywords();
    const models = new TrainingData((h) => sitePages(web, h), hosts, DEFAULT_FUTURE).models(
      hosts[0],
      keywords,
      '.cache/models',
      `bench:${webKey(web)}`,
      undefined,
      true,
    );
    console.log('  per strategy (same web, same server):');
    let bfsRate = 0;
    const only = process.env.BENCH_STRATEGIES?.split(',');
    for (const name of strategyNames().filter((n) => n === 'bfs' || !only || only.includes(n))) {
      const strategy = makeStrategy(name, { seed: 1, keywords, models: () => models });
      const m = await measure(() => crawlWith(sim.port, seeds, strategy));
      const rate = m.pages / m.seconds;
      if (name === 'bfs') bfsRate = rate;
      console.log(
        `    ${name.padEnd(13)} ${Math.round(rate)} pages/s (${((100 * rate) / bfsRate).toFixed(0)}% of BFS), ${Math.round((m.extra?.linksScored ?? 0) / m.seconds)} links scored/s, ${((m.cpuMs / m.pages) * 1000).toFixed(0)} us CPU/page`,
      );
    }
  } finally {
    sim.stop();
  }
}
