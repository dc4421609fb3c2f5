/**
 * npm run bench:sim : pages/s served by the synthetic web next to a static Fastify route on the
 * same server in the same run (target: at least 60% of it), and start-up time and resident
 * memory with a 1,000,000-page web (target: under 1 GB). The load comes from a child process.
 *
 * Requests per second alone mislead on two cores: the static route is limited by the load
 * generator (the server idles part of the time), generated pages by the server. So each run
 * also prints the server's CPU time per request, and the renderer's cost without HTTP.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../sim/config.ts';
import { SimServer } from '../sim/server.ts';
import { Web } from '../sim/web.ts';
import { Renderer } from '../sim/content.ts';
import { makeRng } from '../sim/web-rng.ts';
import { type CliIo, parseCommand, runAsProcess } from '../lib/cli.ts';

const USAGE = `Usage: npm run bench:sim   (BENCH_SECONDS=N per load run, default 5)\n`;

export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {});
  if (!p) return 0;
  const log = (...parts: unknown[]): void => io.out(`${parts.join(' ')}\n`);

  const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
  const CONCURRENCY = 32;
  const loadgen = fileURLToPath(new URL('./loadgen.ts', import.meta.url));

  // asynchronous: the server under test runs in this process and must keep serving
  interface LoadResult {
    rps: number;
    requests: number;
    errors: number;
    bytes: number;
    clientCpu: number;
    serverUs: number;
  }
  async function load(port: number, targets: [string, string][]): Promise<LoadResult> {
    const file = join(tmpdir(), `loadgen-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ port, concurrency: CONCURRENCY, seconds: SECONDS, targets }));
    const cpu0 = process.cpuUsage();
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', loadgen, file], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    const cpu = process.cpuUsage(cpu0);
    rmSync(file);
    const out = JSON.parse(stdout) as Omit<LoadResult, 'serverUs'>;
    // this process is the server (the load comes from the child), so its CPU time is the server's
    return { ...out, serverUs: (cpu.user + cpu.system) / out.requests };
  }

  /** Microseconds per page spent rendering the targets in process (no HTTP), first and second visit. */
  function renderCost(web: Web, targets: [string, string][]): [number, number] {
    const r = new Renderer(web);
    r.warm();
    const ids = targets.map(([h, p]) => r.resolve(h, p));
    const pass = (): number => {
      const t0 = performance.now();
      for (const id of ids) r.render(id);
      return ((performance.now() - t0) * 1000) / ids.length;
    };
    return [pass(), pass()];
  }

  function sample(web: Web, count: number): [string, string][] {
    const r = new Renderer(web);
    const rng = makeRng('bench');
    const out: [string, string][] = [];
    while (out.length < count) {
      const id = rng.int(web.n);
      if (!web.isHtml(id)) continue; // pages, as a crawler mostly fetches
      out.push([web.sites[web.siteOf[id]].host, r.path(id)]);
    }
    return out;
  }

  const mb = (b: number): string => `${Math.round(b / 2 ** 20)} MB`;

  // 1. throughput: generated pages against a static route of the same mean size, same server
  {
    const web = new Web(loadConfig('data/webs/paper.json'), 1);
    const targets = sample(web, 20_000);
    const r = new Renderer(web);
    const mean = Math.round(
      targets.slice(0, 1000).reduce((a, [h, p]) => a + r.render(r.resolve(h, p)).body.length, 0) / 1000,
    );
    // a static route with a body of the same mean size, served by the same Fastify instance
    const staticBody = `<html><body>${'x'.repeat(Math.max(0, mean - 26))}</body></html>`;
    // no page cache: the figure is the generator's, and the 20,000 sampled pages repeat within a run
    const s2 = await SimServer.start(web, { faults: false, staticBody, cacheBytes: 0 });
    const st = await load(s2.port, [['127.0.0.1', '/_sim/static']]);
    const fresh = await load(s2.port, [['127.0.0.1', '/_sim/fresh']]);
    const dyn = await load(s2.port, targets);
    await s2.close();
    const [cold, warm] = renderCost(web, targets);
    const line = (what: string, x: LoadResult): string =>
      `${what}: ${Math.round(x.rps)} req/s; server ${x.serverUs.toFixed(1)} us CPU per request, load generator at ${Math.round(100 * x.clientCpu)}% of a core`;
    log(
      `web "paper": ${web.n} pages; ${CONCURRENCY} concurrent requests for ${SECONDS} s each, load from a child process`,
    );
    log(`  ${line(`static route (${mean} B)`, st)}`);
    log(`  ${line(`the same body rebuilt per request (${mean} B, no generation)`, fresh)}`);
    log(`  ${line(`generated pages (mean ${mean} B)`, dyn)}; ${dyn.errors} errors`);
    log(
      `  rendering alone (no HTTP): ${cold.toFixed(1)} us per page on first visit, ${warm.toFixed(1)} us on the second`,
    );
    log(
      `  ratio: ${((100 * dyn.rps) / st.rps).toFixed(1)}% of the static route's req/s (target ` +
        `>= 60%); by server CPU per request ${((100 * st.serverUs) / dyn.serverUs).toFixed(1)}%`,
    );
  }

  // 2. scale: a 1,000,000-page web
  {
    const t0 = performance.now();
    const web = new Web(loadConfig('data/webs/million.json'), 1);
    const gen = performance.now() - t0;
    const server = await SimServer.start(web, { faults: false, cacheBytes: 0 });
    const dyn = await load(server.port, sample(web, 20_000));
    const rss = process.memoryUsage().rss;
    await server.close();
    log(`web "million": ${web.n} pages, ${web.outTarget.length} links, generated in ${(gen / 1000).toFixed(1)} s`);
    log(`  served ${Math.round(dyn.rps)} pages/s; resident memory after serving: ${mb(rss)} (target < 1 GB)`);
  }
  return 0;
}

await runAsProcess(main, import.meta);
