/**
 * Crawl settings: every knob of the engine, its default and its allowed range, in one place
 * (like Scrapy's default_settings): CrawlSettingsSchema (lib/schema.ts), from which the type, the
 * defaults, the validation, the crawl CLI's flags and help, and schemas/crawl.schema.json derive.
 * Defaults are polite enough to point at someone else's server; an experiment on the synthetic web
 * that wants otherwise says so in its config file's "crawl" section.
 */
import { CrawlError } from './errors.ts';
import { RULE_SETTINGS } from './politeness/index.ts';
import { DEFAULT_MAX_URL_LENGTH } from './url.ts';
import { DEFAULT_STRIP_PARAMS } from '../lib/url.ts';
import { bool, defaultsOf, list, num, numberFieldsOf, obj, problemOf, type Static, str, Type } from '../lib/schema.ts';

/** The engine's own settings; the politeness rules beyond the per-host gate declare theirs (./politeness/). */
const ENGINE_SETTINGS = {
  startUrls: list(Type.String(), { default: [], help: 'the URLs the crawl starts from (its seeds)' }),
  scope: list(Type.String(), {
    default: [],
    help: 'host patterns in scope ("example.org", "*.test", "host:port"); empty: the start URLs\' origins',
  }),
  resolve: list(Type.String(), {
    default: [],
    help: 'curl-style resolve rules "HOST:PORT:ADDR" or "PATTERN=ADDR:PORT" ("*.test=127.0.0.1:8080")',
  }),
  allowPrivateAddresses: bool({
    default: false,
    help: 'fetch private, link-local and cloud-metadata addresses (never by default; loopback is always allowed)',
  }),
  userAgent: str({ default: 'harness-bot/0.1 (+https://example.invalid/crawler-harness)', help: 'User-Agent header' }),
  strategy: str({
    default: 'bfs',
    help: 'which strategy orders the frontier (the engine gets the object; the CLI maps this name)',
  }),
  autoThrottle: bool({
    default: true,
    help: 'AutoThrottle (Scrapy): the delay follows latency / autoThrottleTarget, never below delayMs',
  }),
  stripParams: list(Type.String(), {
    default: [...DEFAULT_STRIP_PARAMS],
    help: 'query parameters removed during normalisation (session ids, tracking); prefix match with "*"',
  }),
  followRefresh: bool({
    default: true,
    help:
      'a <meta http-equiv="refresh"> or Refresh header naming a URL is a link of the page (counted ' +
      'refreshLinks), as Scrapy, Heritrix and Nutch follow it',
  }),
  deterministic: bool({
    default: false,
    help: 'same config and seed give the same fetch order and log whatever the timing (batches)',
  }),
  region: str({
    default: '',
    pattern: '^[a-z0-9-]{0,40}$',
    expected: 'lowercase letters, digits and - (at most 40)',
    help: 'region this crawler runs in, sent as x-crawler-region (the synthetic web delays by distance); empty: none',
  }),
  maxPages: num({
    default: 1000,
    min: 1,
    max: Infinity,
    integer: true,
    flag: 'max-pages',
    help: 'pages to fetch (requests, retries not counted)',
  }),
  maxPagesPerHost: num({
    default: Infinity,
    min: 1,
    max: Infinity,
    integer: true,
    flag: 'max-pages-per-host',
    help: 'per-host page cap',
  }),
  linkOrderSeed: num({
    default: 0,
    min: 0,
    max: 2 ** 31,
    integer: true,
    flag: 'link-order-seed',
    help:
      "the order in which a page's new links reach the strategy and the frontier (ties in the frontier go by it): " +
      "0 the page's order; k > 0 a permutation seeded by k and the page's URL",
  }),
  maxDepth: num({
    default: Infinity,
    min: 0,
    max: Infinity,
    integer: true,
    flag: 'max-depth',
    help: 'link depth limit',
  }),
  concurrency: num({
    default: 16,
    min: 1,
    max: 10_000,
    integer: true,
    flag: 'concurrency',
    help: 'requests in flight overall',
  }),
  perHostConcurrency: num({
    default: 1,
    min: 1,
    max: 1000,
    integer: true,
    flag: 'per-host',
    help: 'requests in flight per host (one while a gap applies)',
  }),
  delayMs: num({
    default: 1000,
    min: 0,
    max: 3_600_000,
    flag: 'delay-ms',
    help: 'minimum gap between requests to a host, ms (or Crawl-delay if longer)',
  }),
  maxCrawlDelaySec: num({
    default: 30,
    min: 0,
    max: 86_400,
    flag: 'max-crawl-delay',
    help: 'skip hosts whose Crawl-delay is longer, s (Nutch: 30)',
  }),
  autoThrottleTarget: num({
    default: 1,
    min: 0.1,
    max: 1000,
    help: 'AutoThrottle: delay follows latency / this target concurrency',
  }),
  autoThrottleMaxDelayMs: num({ default: 60_000, min: 0, max: 3_600_000, help: 'AutoThrottle: the longest delay, ms' }),
  maxRetryAfterSec: num({
    default: 120,
    min: 0,
    max: 86_400,
    help: 'longest Retry-After waited for, s; longer ones drop the URL',
  }),
  connectTimeoutMs: num({ default: 10_000, min: 1, max: 600_000, help: 'TCP connect timeout, ms' }),
  headersTimeoutMs: num({
    default: 15_000,
    min: 1,
    max: 600_000,
    help: 'idle timeout until the response headers, ms (--timeout-ms sets it and the body timeout)',
  }),
  bodyTimeoutMs: num({ default: 30_000, min: 1, max: 600_000, help: 'idle timeout between two body chunks, ms' }),
  strategyTimeoutMs: num({
    default: 30_000,
    min: 1,
    max: 3_600_000,
    flag: 'strategy-timeout-ms',
    help: 'longest a strategy may take on one page, ms; over it the crawl stops (crawler/strategy-guard.ts)',
  }),
  maxResponseMs: num({
    default: 60_000,
    min: 1,
    max: 3_600_000,
    flag: 'max-response-ms',
    help: 'total time for one response (headers and body), ms; a drip is cut: CRAWL_ERR_DEADLINE',
  }),
  maxUrlLength: num({
    default: DEFAULT_MAX_URL_LENGTH,
    min: 64,
    max: 1 << 20,
    integer: true,
    flag: 'max-url-length',
    help: 'longer links are dropped and counted (urlTooLong)',
  }),
  maxLinksPerPage: num({
    default: 10_000,
    min: 1,
    max: 10_000_000,
    integer: true,
    flag: 'max-links-per-page',
    help: 'links kept per page, in page order (the rest: linksCapped)',
  }),
  maxLinkBytesPerPage: num({
    default: 1024 * 1024,
    min: 1024,
    max: 1024 ** 3,
    integer: true,
    flag: 'max-link-bytes-per-page',
    help:
      'characters of link URLs kept per page, in page order (the rest: linksCapped); a ' +
      'condition of this harness: an ordinary page holds a few KB of links, a hostile one (an 8 ' +
      'KB <base> and 10,000 relative links) 80 MB',
  }),
  maxParseTags: num({
    default: 1_000_000,
    min: 1,
    max: 1e9,
    integer: true,
    flag: 'max-parse-tags',
    help:
      'tags the parser reads of one HTML page; past it the rest stays unread and the page counts ' +
      'linksCut. Work, not time: the same page gives the same links on any machine (a 2 MiB page ' +
      'holds at most about 700,000 tags, so the default cuts none under the default maxBodyBytes)',
  }),
  maxBodyBytes: num({
    default: 2 * 1024 * 1024,
    min: 1024,
    max: 1 << 30,
    integer: true,
    flag: 'max-body-bytes',
    help: 'bodies are cut at this size (kept, marked truncated)',
  }),
  maxRedirects: num({
    default: 5,
    min: 0,
    max: 50,
    integer: true,
    flag: 'max-redirects',
    help: 'redirect hops followed from one URL',
  }),
  retries: num({
    default: 2,
    min: 0,
    max: 20,
    integer: true,
    flag: 'retries',
    help: 'retries on network errors, 5xx and 429, with exponential back-off and jitter',
  }),
  retryBaseMs: num({
    default: 500,
    min: 0,
    max: 600_000,
    flag: 'retry-base-ms',
    help: 'first retry back-off, ms (doubled per retry)',
  }),
  hostBackoffMaxMs: num({
    default: 60_000,
    min: 0,
    max: 3_600_000,
    help: 'most a host is held back after server errors in a row, ms: max(gap, retryBaseMs) doubled per error (a condition: Heritrix-like)',
  }),
  seed: num({
    default: 1,
    min: 0,
    max: 2 ** 32 - 1,
    integer: true,
    flag: 'crawl-seed',
    help: "seed of the crawler's own randomness (random strategy, jitter)",
  }),
  aroundWords: num({
    default: 6,
    min: 0,
    max: 100,
    integer: true,
    help: 'words on each side of a link kept as its context',
  }),
  robotsRetries: num({
    default: 2,
    min: 0,
    max: 20,
    integer: true,
    help: 'robots.txt retries on 5xx, 429 and network errors',
  }),
  robotsUnreachableMs: num({
    default: 600_000,
    min: 0,
    max: 86_400_000,
    help: 'an unreachable robots.txt disallows its host this long, then is fetched again, ms',
  }),
  journalFlushMs: num({
    default: 25,
    min: 0,
    max: 60_000,
    integer: true,
    flag: 'journal-flush-ms',
    help:
      'the journal is written at most this often (ms; 0: after every event-loop turn); ' +
      'a kill loses the pages of the last interval, fetched again on resume',
  }),
  checkpointEvery: num({
    default: 500,
    min: 1,
    max: 1e9,
    integer: true,
    help: 'pages between strategy checkpoints (the frontier is journalled continuously)',
  }),
};

for (const k of Object.keys(RULE_SETTINGS))
  if (k in ENGINE_SETTINGS) throw new Error(`a politeness rule declares ${k}, an engine setting`);

export const CrawlSettingsSchema = obj({ ...ENGINE_SETTINGS, ...RULE_SETTINGS });

/** The engine's settings (the schema above documents each, with default and range). */
export type CrawlSettings = Static<typeof CrawlSettingsSchema>;

/** A numeric setting as a descriptor row: the crawl CLI makes a flag of those that name one. */
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

type NumKey = { [K in keyof CrawlSettings]: CrawlSettings[K] extends number ? K : never }[keyof CrawlSettings];

export const NUMBER_SETTINGS: readonly NumberSetting[] = numberFieldsOf(CrawlSettingsSchema).map(({ path, ...f }) => ({
  key: path as NumKey,
  ...f,
  default: f.default as number,
}));

export const DEFAULT_SETTINGS: CrawlSettings = defaultsOf(CrawlSettingsSchema) as CrawlSettings;

/** Merges overrides onto the defaults and validates; throws CRAWL_ERR_SETTINGS naming the field. */
export function resolveSettings(given: Partial<CrawlSettings>): CrawlSettings {
  const over = startUrlsOf(given);
  for (const k of Object.keys(over))
    if (!(k in DEFAULT_SETTINGS)) throw new CrawlError('CRAWL_ERR_SETTINGS', `${k}: unknown setting`);
  const s = { ...DEFAULT_SETTINGS, ...over } as CrawlSettings;
  const why = problemOf(CrawlSettingsSchema, s);
  if (why) throw new CrawlError('CRAWL_ERR_SETTINGS', why);
  if (!Array.isArray(s.startUrls) || s.startUrls.length === 0)
    throw new CrawlError('CRAWL_ERR_SETTINGS', 'startUrls: at least one start URL is required');
  for (const u of s.startUrls) {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new CrawlError('CRAWL_ERR_SETTINGS', `startUrls: "${u}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CrawlError('CRAWL_ERR_SETTINGS', `startUrls: "${u}" must be http or https`);
  }
  return s;
}

/**
 * The settings with start URLs under their name: "seeds", their name before, is read as
 * startUrls (crawl directories journalled then, and programs written then, still resume and run);
 * in an experiment "seeds" are random seeds, hence the new name.
 */
function startUrlsOf(given: Partial<CrawlSettings>): Partial<CrawlSettings> {
  if ('maxParseMs' in given) {
    // a crawl journalled before issue #84 resumes: its parse deadline (the clock) is now a budget of
    // tags (maxParseTags), which gives the same links on any machine
    const { maxParseMs: _, ...rest } = given as Partial<CrawlSettings> & { maxParseMs?: number };
    given = rest;
  }
  if (!('seeds' in given)) return given;
  const { seeds, ...rest } = given as Partial<CrawlSettings> & { seeds?: string[] };
  if (rest.startUrls !== undefined)
    throw new CrawlError('CRAWL_ERR_SETTINGS', 'seeds: the former name of startUrls; give startUrls alone');
  return { ...rest, startUrls: seeds };
}
