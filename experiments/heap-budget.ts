/**
 * The heap a job process is given (issue #70): one rule for experiment workers, queue job processes
 * and npm run bench:scale, so that the bench measures with the flags the experiment runs with.
 *
 * A job process holds one seed's generated web, its served pages and the models trained on it, and
 * one strategy's crawl at a time. Measured by bench:scale (docs/benchmarks.md): 78.6 KB of peak
 * resident memory per page at 10^4 pages, 23.6 KB at 10^5, 5.0 KB at 10^6, falling as the fixed
 * costs spread. The rule: BASE_MB plus KB_PER_PAGE for every page of the web (the 10^6 figure with a
 * fifth more), and never less than Node's usual 4 GB, which every smaller web runs within. A web
 * whose need exceeds the machine's memory shared among the processes is refused with the number,
 * before anything is generated, rather than found out of memory an hour in.
 */
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { ExperimentConfigError } from '../lib/errors.ts';
import { loadConfig, type WebConfig } from '../sim/config.ts';
import { MIN_HEAP_MB } from './pool.ts';

/** Memory per page of the web, KB: 5.0 KB measured at 10^6 pages (all four strategies and the oracle), a fifth more. */
export const KB_PER_PAGE = 6;
/** What a job process holds whatever the web's size (code, buffers, the smallest web's models), MB. */
export const BASE_MB = 512;
/** The share of the machine's memory job processes may take together (the rest: the system, the parent). */
const MACHINE_SHARE = 0.9;

/** Pages of a generated web: its departments', and its background sites' at their mean size. */
export function webPages(web: Pick<WebConfig, 'departments' | 'background'>): number {
  const b = web.background;
  return web.departments.reduce((a, d) => a + d.pages, 0) + Math.round((b.sites * (b.pagesMin + b.pagesMax)) / 2);
}

/** The memory a job process needs for a web of `pages` pages, MB. */
export const needMb = (pages: number): number => Math.ceil(BASE_MB + (pages * KB_PER_PAGE) / 1024);

/**
 * The heap each of `processes` job processes gets for a web of `pages` pages (MB), or an
 * ExperimentConfigError (exit 2) that says what it would need and how many processes fit.
 */
export function heapMb(pages: number, processes: number, machineMb = totalmem() / 2 ** 20): number {
  const need = needMb(pages);
  const n = Math.max(1, processes);
  const each = Math.floor((machineMb * MACHINE_SHARE) / n);
  if (need > each) {
    const fit = Math.floor((machineMb * MACHINE_SHARE) / need);
    throw new ExperimentConfigError(
      `a web of ${pages.toLocaleString('en')} pages needs about ${need.toLocaleString('en')} MB per job process ` +
        `(${BASE_MB} MB + ${KB_PER_PAGE} KB a page, measured by npm run bench:scale); this machine's ` +
        `${Math.round(machineMb).toLocaleString('en')} MB give ${n} process${n === 1 ? '' : 'es'} ` +
        `${each.toLocaleString('en')} MB each: ` +
        (fit >= 1 ? `run with --workers ${fit}` : 'it does not fit this machine (a smaller web, or more memory)'),
    );
  }
  return Math.max(MIN_HEAP_MB, need);
}

/** The pages of the web a focused config generates (0 for an archive: its pages are few and read from disk). */
export const configPages = (cfg: { web: string; archive: unknown }): number =>
  cfg.archive ? 0 : webPages(loadConfig(cfg.web));

/**
 * The heap of `processes` job processes for a focused config's web (MB); with no process of its
 * own (workers 0), refused when this process's heap is smaller than the web needs.
 */
export function jobHeapMb(cfg: { web: string; archive: unknown }, processes: number): number {
  const pages = configPages(cfg);
  if (processes > 0) return heapMb(pages, processes);
  const own = Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20);
  if (needMb(pages) > own)
    throw new ExperimentConfigError(
      `a web of ${pages.toLocaleString('en')} pages needs about ${needMb(pages).toLocaleString('en')} MB of heap ` +
        `and this process has ${own.toLocaleString('en')} MB: run with --workers 1 or more (each worker is given ` +
        'the heap it needs)',
    );
  return own;
}
