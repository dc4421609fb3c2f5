/**
 * The minimal fetch loop of bench:crawl (undici + htmlparser2 + a Set) as a program of its own, so
 * that it runs cold in a fresh process as the crawl command does (bench/crawl-cold.ts):
 *   node --import tsx bench/minimal-loop.ts PORT PAGES CONCURRENCY SCOPE START_URL...
 * SCOPE is a host, or "*.suffix". Prints one JSON line: pages, seconds and CPU ms by its own clock
 * (from the first request, as the crawl command's summary counts).
 */
import { minimalLoop } from './minimal-loop-core.ts';

const [port, pages, concurrency, scope, ...startUrls] = process.argv.slice(2);
const inScope = scope.startsWith('*.') ? (h: string) => h.endsWith(scope.slice(1)) : (h: string) => h === scope;
const c0 = process.cpuUsage();
const t0 = performance.now();
const fetched = await minimalLoop(Number(port), {
  startUrls,
  inScope,
  pages: Number(pages),
  concurrency: Number(concurrency),
});
const seconds = (performance.now() - t0) / 1000;
const c = process.cpuUsage(c0);
process.stdout.write(`${JSON.stringify({ pages: fetched, seconds, cpuMs: (c.user + c.system) / 1000 })}\n`);
