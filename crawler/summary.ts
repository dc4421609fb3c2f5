/**
 * Crawl statistics: the summary a crawl ends with (summary.json), the counters a resumed crawl
 * continues from, and the small tallies that fill them. The engine's parts count here; only the
 * engine finishes the summary (timing, what is left in the frontier, the strategy's own figures).
 */
import type { OutOfScope } from './scope.ts';

export interface CrawlSummary {
  pages: number;
  bytes: number;
  elapsedMs: number;
  pagesPerSec: number;
  statuses: Record<string, number>;
  errors: Record<string, number>;
  outOfScope: Record<OutOfScope, number>;
  /** URLs of hosts whose address the policy refuses (each logged with CRAWL_ERR_ADDRESS_REFUSED). */
  addressRefused: number;
  robotsBlocked: number;
  robotsFetches: number;
  /** robots.txt requests that gave no rules, by error code or HTTP_<status>. */
  robotsErrors: Record<string, number>;
  skippedHosts: { host: string; reason: string; urlsDropped: number }[];
  duplicates: number;
  nofollow: number;
  depthLimited: number;
  hostCapped: number;
  discarded: number;
  /** Discarded links the strategy re-admitted (PageDecision.readmit). */
  readmitted: number;
  redirectsQueued: number;
  redirectLoops: number;
  truncated: number;
  /** Pages the parser stopped reading at maxParseTags: their later links unread (each logged linksCut). */
  linksCut: number;
  /** Links a page's meta refresh or Refresh header named (followRefresh). */
  refreshLinks: number;
  /** Pages whose body could not be decoded as its charset says (an unknown label, invalid bytes). */
  undecodable: number;
  /** Links longer than maxUrlLength (never queued), and links past maxLinksPerPage on a page. */
  urlTooLong: number;
  linksCapped: number;
  /** Times a host was held back for server errors in a row (5xx, 429 without Retry-After). */
  hostBackoffs: number;
  /** Seeds that answered with 2xx or 3xx; seedFailures says why others did not (the first 100). */
  seedsFetched: number;
  seedFailures: string[];
  frontierLeft: number;
  strategy: Record<string, number>;
  /** Present when the crawl was stopped before its end: by what ("SIGTERM", "SIGINT", "stop()"); --resume goes on. */
  stopped?: string;
  /** Present when the crawl folder could not be written (a full disk): the one line that says so. */
  writeError?: string;
  /**
   * Present when the crawl replayed an archive: what reading it gave (records read, damaged
   * stretches left out and their bytes, each warning), so a crawl of a damaged archive says so in
   * its results, not only on the terminal.
   */
  archive?: ArchiveReading;
}

/** What reading an archive gave (sim/warc-index.ts WarcArchive.reading and warnings). */
export interface ArchiveReading {
  files: string[];
  records: number;
  urls: number;
  damaged: number;
  skippedBytes: number;
  warnings: string[];
}

/** The counters a resumed crawl continues from (everything in the summary that is not timing). */
export type Counters = Omit<
  CrawlSummary,
  'elapsedMs' | 'pagesPerSec' | 'frontierLeft' | 'strategy' | 'stopped' | 'writeError' | 'archive'
>;

/** Seed failures kept in the summary (it is rewritten every step, so it must stay small). */
const MAX_SEED_FAILURES = 100;

export class CrawlStats {
  readonly summary: CrawlSummary = {
    pages: 0,
    bytes: 0,
    elapsedMs: 0,
    pagesPerSec: 0,
    statuses: {},
    errors: {},
    outOfScope: { scheme: 0, host: 0, port: 0, address: 0 },
    addressRefused: 0,
    robotsBlocked: 0,
    robotsFetches: 0,
    robotsErrors: {},
    skippedHosts: [],
    duplicates: 0,
    nofollow: 0,
    depthLimited: 0,
    hostCapped: 0,
    discarded: 0,
    readmitted: 0,
    redirectsQueued: 0,
    redirectLoops: 0,
    truncated: 0,
    linksCut: 0,
    refreshLinks: 0,
    undecodable: 0,
    urlTooLong: 0,
    linksCapped: 0,
    hostBackoffs: 0,
    seedsFetched: 0,
    seedFailures: [],
    frontierLeft: 0,
    strategy: {},
  };
  /** Log lines written: pages fetched or failed, this run and the runs it resumes. */
  pages = 0;

  /** One more of `key` in a tally (statuses, errors, robotsErrors). */
  count(map: Record<string, number>, key: string): void {
    map[key] = (map[key] ?? 0) + 1;
  }

  /** Why a seed gave no page; the first MAX_SEED_FAILURES are kept. */
  seedFailed(reason: string): void {
    if (this.summary.seedFailures.length < MAX_SEED_FAILURES) this.summary.seedFailures.push(reason);
  }

  errorTotal(): number {
    return Object.values(this.summary.errors).reduce((a, b) => a + b, 0);
  }

  /** The counters as a resumed crawl needs them (robots-blocked seeds and the like included). */
  counters(): Counters {
    const {
      elapsedMs: _e,
      pagesPerSec: _p,
      frontierLeft: _f,
      strategy: _s,
      stopped: _x,
      writeError: _w,
      ...c
    } = this.summary;
    return { ...c, pages: this.pages };
  }

  /** Continues from counters a journal saved. */
  restore(saved: Counters): void {
    Object.assign(this.summary, saved);
  }

  /** The summary as the crawl ends. */
  finish(elapsedMs: number, frontierLeft: number, strategy: Record<string, number>): CrawlSummary {
    const s = this.summary;
    s.pages = this.pages;
    s.elapsedMs = Math.round(elapsedMs);
    s.pagesPerSec = Math.round((this.pages / Math.max(1, s.elapsedMs)) * 1000 * 10) / 10;
    s.frontierLeft = frontierLeft;
    s.strategy = strategy;
    return s;
  }
}
