/**
 * Crawl settings: every knob of the engine, its default and its allowed range, in one place
 * (like Scrapy's default_settings). Defaults are polite enough to point at someone else's
 * server; experiments on the synthetic web override them in their config files.
 */
import { CrawlError } from './errors.ts';
import { DEFAULT_MAX_URL_LENGTH } from './url.ts';

export interface CrawlSettings {
  /** Start URLs. */
  seeds: string[];
  /** Host patterns in scope ("example.org", "*.test", "host:port"); empty = the seeds' origins. */
  scope: string[];
  /** curl-style resolve rules "HOST:PORT:ADDR" or "PATTERN=ADDR:PORT" ("*.test=127.0.0.1:8080"). */
  resolve: string[];
  /** Fetch private, link-local and cloud-metadata addresses (never by default; loopback is always allowed). */
  allowPrivateAddresses: boolean;
  userAgent: string;
  /** Which strategy orders the frontier (the engine gets the object; the CLI maps this name). */
  strategy: string;
  maxPages: number;
  maxPagesPerHost: number;
  maxDepth: number;
  /** Requests in flight over all hosts. */
  concurrency: number;
  /** Requests in flight per host. */
  perHostConcurrency: number;
  /** Minimum gap between requests to one host, ms (the larger of this and Crawl-delay applies). */
  delayMs: number;
  /** Hosts whose Crawl-delay exceeds this many seconds are skipped and reported (Nutch: 30). */
  maxCrawlDelaySec: number;
  /** AutoThrottle (Scrapy): delay follows latency / targetConcurrency, never below delayMs. */
  autoThrottle: boolean;
  autoThrottleTarget: number;
  autoThrottleMaxDelayMs: number;
  /** Upper bound on a Retry-After the engine will wait for; longer ones drop the URL. */
  maxRetryAfterSec: number;
  connectTimeoutMs: number;
  /** Idle timeouts: until the response headers, and between two chunks of the body. */
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /**
   * Total deadline of one response, headers and body (robots.txt too): a body that drips a byte
   * at a time beats the idle timeouts but not this. Cut, logged CRAWL_ERR_DEADLINE, not retried.
   */
  maxResponseMs: number;
  /** Longer URLs are refused (counted as urlTooLong, never queued or fetched). */
  maxUrlLength: number;
  /** Links kept per page (in page order); the rest are counted as linksCapped. */
  maxLinksPerPage: number;
  /** Bodies are cut at this size; the page is kept (truncated) and counted. */
  maxBodyBytes: number;
  maxRedirects: number;
  /** Retries on network errors and 5xx, with exponential backoff and jitter. */
  retries: number;
  retryBaseMs: number;
  /**
   * Most a host is held back after server errors in a row (5xx, 429 without Retry-After): the
   * hold starts at max(gap, retryBaseMs) and doubles with each error (condition: Heritrix-like
   * back-off of the whole host; no published constant transfers).
   */
  hostBackoffMaxMs: number;
  /** Query parameters removed during normalisation (session ids, tracking). Prefix match with "*". */
  stripParams: string[];
  /** Same config and seed give the same fetch order and log whatever the timing (batches). */
  deterministic: boolean;
  /** Seed of the crawler's own randomness (random strategy, jitter). */
  seed: number;
  /** Words on each side of a link kept as its context. */
  aroundWords: number;
  /** Robots.txt fetch retries on 5xx, 429 and network errors before the host is disallowed for a while. */
  robotsRetries: number;
  /** An unreachable robots.txt (5xx, 429, network error) disallows the host this long, then is fetched again. */
  robotsUnreachableMs: number;
  /** Pages between checkpoints of strategy state (the frontier is journaled continuously). */
  checkpointEvery: number;
  /** Region this crawler runs in, sent as x-crawler-region (the synthetic web delays by distance); '' = none. */
  region: string;
}

export const DEFAULT_SETTINGS: CrawlSettings = {
  seeds: [],
  scope: [],
  resolve: [],
  allowPrivateAddresses: false,
  userAgent: 'harness-bot/0.1 (+https://example.invalid/crawler-harness)',
  strategy: 'bfs',
  maxPages: 1000,
  maxPagesPerHost: Infinity,
  maxDepth: Infinity,
  concurrency: 16,
  perHostConcurrency: 1,
  delayMs: 1000,
  maxCrawlDelaySec: 30,
  autoThrottle: true,
  autoThrottleTarget: 1,
  autoThrottleMaxDelayMs: 60_000,
  maxRetryAfterSec: 120,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  maxResponseMs: 60_000,
  maxUrlLength: DEFAULT_MAX_URL_LENGTH,
  maxLinksPerPage: 10_000,
  maxBodyBytes: 2 * 1024 * 1024,
  maxRedirects: 5,
  retries: 2,
  retryBaseMs: 500,
  hostBackoffMaxMs: 60_000,
  stripParams: ['sid', 'sessionid', 'jsessionid', 'phpsessid', 'aspsessionid', 'utm_*', 'fbclid', 'gclid'],
  deterministic: false,
  seed: 1,
  aroundWords: 6,
  robotsRetries: 2,
  robotsUnreachableMs: 600_000,
  checkpointEvery: 500,
  region: '',
};

type NumKey = { [K in keyof CrawlSettings]: CrawlSettings[K] extends number ? K : never }[keyof CrawlSettings];
const RANGES: Partial<Record<NumKey, [number, number, boolean?]>> = {
  maxPages: [1, Infinity, true], maxPagesPerHost: [1, Infinity, true], maxDepth: [0, Infinity, true],
  concurrency: [1, 10_000, true], perHostConcurrency: [1, 1000, true], delayMs: [0, 3_600_000],
  maxCrawlDelaySec: [0, 86_400], autoThrottleTarget: [0.1, 1000], autoThrottleMaxDelayMs: [0, 3_600_000],
  maxRetryAfterSec: [0, 86_400], connectTimeoutMs: [1, 600_000], headersTimeoutMs: [1, 600_000],
  bodyTimeoutMs: [1, 600_000], maxResponseMs: [1, 3_600_000], maxUrlLength: [64, 1 << 20, true],
  maxLinksPerPage: [1, 10_000_000, true], maxBodyBytes: [1024, 1 << 30, true], maxRedirects: [0, 50, true],
  retries: [0, 20, true], retryBaseMs: [0, 600_000], seed: [0, 2 ** 32 - 1, true], aroundWords: [0, 100, true],
  robotsRetries: [0, 20, true], robotsUnreachableMs: [0, 86_400_000], hostBackoffMaxMs: [0, 3_600_000], checkpointEvery: [1, 1e9, true],
};

/** Merges overrides onto the defaults and validates; throws CRAWL_ERR_SETTINGS naming the field. */
export function resolveSettings(over: Partial<CrawlSettings>): CrawlSettings {
  const s = { ...DEFAULT_SETTINGS, ...over } as CrawlSettings;
  for (const k of Object.keys(over)) if (!(k in DEFAULT_SETTINGS)) throw new CrawlError('CRAWL_ERR_SETTINGS', `${k}: unknown setting`);
  for (const [k, r] of Object.entries(RANGES) as [NumKey, [number, number, boolean?]][]) {
    const v = s[k];
    if (typeof v !== 'number' || Number.isNaN(v)) throw new CrawlError('CRAWL_ERR_SETTINGS', `${k}: expected a number, got ${JSON.stringify(v)}`);
    if (r[2] && Number.isFinite(v) && !Number.isInteger(v)) throw new CrawlError('CRAWL_ERR_SETTINGS', `${k}: expected a whole number, got ${v}`);
    if (v < r[0] || v > r[1]) throw new CrawlError('CRAWL_ERR_SETTINGS', `${k}: ${v} is out of range [${r[0]}, ${r[1]}]`);
  }
  if (typeof s.region !== 'string' || !/^[a-z0-9-]{0,40}$/.test(s.region)) throw new CrawlError('CRAWL_ERR_SETTINGS', `region: "${s.region}" must be lowercase letters, digits and -`);
  if (!Array.isArray(s.seeds) || s.seeds.length === 0) throw new CrawlError('CRAWL_ERR_SETTINGS', 'seeds: at least one seed URL is required');
  for (const u of s.seeds) {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new CrawlError('CRAWL_ERR_SETTINGS', `seeds: "${u}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CrawlError('CRAWL_ERR_SETTINGS', `seeds: "${u}" must be http or https`);
  }
  return s;
}
