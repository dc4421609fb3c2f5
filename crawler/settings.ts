/**
 * Crawl settings: every knob of the engine, its default and its allowed range, in one place
 * (like Scrapy's default_settings): the numeric ones in one descriptor table, NUMBER_SETTINGS. Defaults are polite enough to point at someone else's
 * server; experiments on the synthetic web override them in their config files.
 */
import { CrawlError } from './errors.ts';
import { DEFAULT_MAX_URL_LENGTH } from './url.ts';
import { numberProblem } from '../lib/fields.ts';

/** Numeric settings are documented, with default and range, in NUMBER_SETTINGS below. */
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
  concurrency: number;
  perHostConcurrency: number;
  delayMs: number;
  maxCrawlDelaySec: number;
  /** AutoThrottle (Scrapy): delay follows latency / targetConcurrency, never below delayMs. */
  autoThrottle: boolean;
  autoThrottleTarget: number;
  autoThrottleMaxDelayMs: number;
  maxRetryAfterSec: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxResponseMs: number;
  maxUrlLength: number;
  maxLinksPerPage: number;
  maxLinkBytesPerPage: number;
  maxBodyBytes: number;
  maxRedirects: number;
  retries: number;
  retryBaseMs: number;
  hostBackoffMaxMs: number;
  /** Query parameters removed during normalisation (session ids, tracking). Prefix match with "*". */
  stripParams: string[];
  /** Same config and seed give the same fetch order and log whatever the timing (batches). */
  deterministic: boolean;
  seed: number;
  aroundWords: number;
  robotsRetries: number;
  robotsUnreachableMs: number;
  checkpointEvery: number;
  /** Region this crawler runs in, sent as x-crawler-region (the synthetic web delays by distance); '' = none. */
  region: string;
}

type NumKey = { [K in keyof CrawlSettings]: CrawlSettings[K] extends number ? K : never }[keyof CrawlSettings];

/**
 * Every numeric setting, once: its default, its range, whether it is a whole number, its
 * command-line flag (if the crawl CLI has one) and its help. DEFAULT_SETTINGS, the validation of
 * resolveSettings, `npm run crawl -- --help` and the CLI's parser are derived from this table.
 */
export interface NumberSetting {
  key: NumKey;
  default: number;
  min: number;
  max: number;
  integer?: boolean;
  /** The crawl CLI's flag (without --), which takes a whole number >= min. */
  flag?: string;
  help: string;
}

export const NUMBER_SETTINGS: readonly NumberSetting[] = [
  {
    key: 'maxPages',
    default: 1000,
    min: 1,
    max: Infinity,
    integer: true,
    flag: 'max-pages',
    help: 'pages to fetch (requests, retries not counted)',
  },
  {
    key: 'maxPagesPerHost',
    default: Infinity,
    min: 1,
    max: Infinity,
    integer: true,
    flag: 'max-pages-per-host',
    help: 'per-host page cap',
  },
  {
    key: 'maxDepth',
    default: Infinity,
    min: 0,
    max: Infinity,
    integer: true,
    flag: 'max-depth',
    help: 'link depth limit',
  },
  {
    key: 'concurrency',
    default: 16,
    min: 1,
    max: 10_000,
    integer: true,
    flag: 'concurrency',
    help: 'requests in flight overall',
  },
  {
    key: 'perHostConcurrency',
    default: 1,
    min: 1,
    max: 1000,
    integer: true,
    flag: 'per-host',
    help: 'requests in flight per host (one while a gap applies)',
  },
  {
    key: 'delayMs',
    default: 1000,
    min: 0,
    max: 3_600_000,
    flag: 'delay-ms',
    help: 'minimum gap between requests to a host, ms (or Crawl-delay if longer)',
  },
  {
    key: 'maxCrawlDelaySec',
    default: 30,
    min: 0,
    max: 86_400,
    flag: 'max-crawl-delay',
    help: 'skip hosts whose Crawl-delay is longer, s (Nutch: 30)',
  },
  {
    key: 'autoThrottleTarget',
    default: 1,
    min: 0.1,
    max: 1000,
    help: 'AutoThrottle: delay follows latency / this target concurrency',
  },
  {
    key: 'autoThrottleMaxDelayMs',
    default: 60_000,
    min: 0,
    max: 3_600_000,
    help: 'AutoThrottle: the longest delay, ms',
  },
  {
    key: 'maxRetryAfterSec',
    default: 120,
    min: 0,
    max: 86_400,
    help: 'longest Retry-After waited for, s; longer ones drop the URL',
  },
  { key: 'connectTimeoutMs', default: 10_000, min: 1, max: 600_000, help: 'TCP connect timeout, ms' },
  {
    key: 'headersTimeoutMs',
    default: 15_000,
    min: 1,
    max: 600_000,
    help: 'idle timeout until the response headers, ms (--timeout-ms sets it and the body timeout)',
  },
  { key: 'bodyTimeoutMs', default: 30_000, min: 1, max: 600_000, help: 'idle timeout between two body chunks, ms' },
  {
    key: 'maxResponseMs',
    default: 60_000,
    min: 1,
    max: 3_600_000,
    flag: 'max-response-ms',
    help: 'total time for one response (headers and body), ms; a drip is cut: CRAWL_ERR_DEADLINE',
  },
  {
    key: 'maxUrlLength',
    default: DEFAULT_MAX_URL_LENGTH,
    min: 64,
    max: 1 << 20,
    integer: true,
    flag: 'max-url-length',
    help: 'longer links are dropped and counted (urlTooLong)',
  },
  {
    key: 'maxLinksPerPage',
    default: 10_000,
    min: 1,
    max: 10_000_000,
    integer: true,
    flag: 'max-links-per-page',
    help: 'links kept per page, in page order (the rest: linksCapped)',
  },
  {
    key: 'maxLinkBytesPerPage',
    default: 1024 * 1024,
    min: 1024,
    max: 1024 ** 3,
    integer: true,
    flag: 'max-link-bytes-per-page',
    help: 'characters of link URLs kept per page, in page order (the rest: linksCapped); a condition of this harness: an ordinary page holds a few KB of links, a hostile one (an 8 KB <base> and 10,000 relative links) 80 MB',
  },
  {
    key: 'maxBodyBytes',
    default: 2 * 1024 * 1024,
    min: 1024,
    max: 1 << 30,
    integer: true,
    flag: 'max-body-bytes',
    help: 'bodies are cut at this size (kept, marked truncated)',
  },
  { key: 'maxRedirects', default: 5, min: 0, max: 50, integer: true, help: 'redirect hops followed from one URL' },
  {
    key: 'retries',
    default: 2,
    min: 0,
    max: 20,
    integer: true,
    flag: 'retries',
    help: 'retries on network errors, 5xx and 429, with exponential back-off and jitter',
  },
  {
    key: 'retryBaseMs',
    default: 500,
    min: 0,
    max: 600_000,
    flag: 'retry-base-ms',
    help: 'first retry back-off, ms (doubled per retry)',
  },
  {
    key: 'hostBackoffMaxMs',
    default: 60_000,
    min: 0,
    max: 3_600_000,
    help: 'most a host is held back after server errors in a row, ms: max(gap, retryBaseMs) doubled per error (a condition: Heritrix-like)',
  },
  {
    key: 'seed',
    default: 1,
    min: 0,
    max: 2 ** 32 - 1,
    integer: true,
    flag: 'crawl-seed',
    help: "seed of the crawler's own randomness (random strategy, jitter)",
  },
  {
    key: 'aroundWords',
    default: 6,
    min: 0,
    max: 100,
    integer: true,
    help: 'words on each side of a link kept as its context',
  },
  {
    key: 'robotsRetries',
    default: 2,
    min: 0,
    max: 20,
    integer: true,
    help: 'robots.txt retries on 5xx, 429 and network errors',
  },
  {
    key: 'robotsUnreachableMs',
    default: 600_000,
    min: 0,
    max: 86_400_000,
    help: 'an unreachable robots.txt disallows its host this long, then is fetched again, ms',
  },
  {
    key: 'checkpointEvery',
    default: 500,
    min: 1,
    max: 1e9,
    integer: true,
    help: 'pages between strategy checkpoints (the frontier is journalled continuously)',
  },
];

export const DEFAULT_SETTINGS: CrawlSettings = {
  seeds: [],
  scope: [],
  resolve: [],
  allowPrivateAddresses: false,
  userAgent: 'harness-bot/0.1 (+https://example.invalid/crawler-harness)',
  strategy: 'bfs',
  autoThrottle: true,
  stripParams: ['sid', 'sessionid', 'jsessionid', 'phpsessid', 'aspsessionid', 'utm_*', 'fbclid', 'gclid'],
  deterministic: false,
  region: '',
  ...(Object.fromEntries(NUMBER_SETTINGS.map((d) => [d.key, d.default])) as Record<NumKey, number>),
};

/** Merges overrides onto the defaults and validates; throws CRAWL_ERR_SETTINGS naming the field. */
export function resolveSettings(over: Partial<CrawlSettings>): CrawlSettings {
  const s = { ...DEFAULT_SETTINGS, ...over } as CrawlSettings;
  for (const k of Object.keys(over))
    if (!(k in DEFAULT_SETTINGS)) throw new CrawlError('CRAWL_ERR_SETTINGS', `${k}: unknown setting`);
  for (const f of NUMBER_SETTINGS) {
    const why = numberProblem(f, s[f.key]);
    if (why) throw new CrawlError('CRAWL_ERR_SETTINGS', `${f.key}: ${why}`);
  }
  if (typeof s.region !== 'string' || !/^[a-z0-9-]{0,40}$/.test(s.region))
    throw new CrawlError('CRAWL_ERR_SETTINGS', `region: "${s.region}" must be lowercase letters, digits and -`);
  if (!Array.isArray(s.seeds) || s.seeds.length === 0)
    throw new CrawlError('CRAWL_ERR_SETTINGS', 'seeds: at least one seed URL is required');
  for (const u of s.seeds) {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new CrawlError('CRAWL_ERR_SETTINGS', `seeds: "${u}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CrawlError('CRAWL_ERR_SETTINGS', `seeds: "${u}" must be http or https`);
  }
  return s;
}
