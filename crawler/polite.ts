/**
 * One polite request: the per-host gate (slot and gap), retries with backoff on network errors
 * and 5xx, Retry-After on 429/503, and robots.txt fetched through the same gate. The crawl
 * engine and the deep-web form client both go through here, so a form submission is exactly as
 * polite as a page fetch.
 */
import { CrawlError, toCrawlError } from './errors.ts';
import { Fetcher, type FetchResult, type RequestBody } from './fetcher.ts';
import type { HostState } from './hosts.ts';
import { ROBOTS_MAX_AGE_MS, RobotsRules, ROBOTS_MIN_BYTES } from './robots-cache.ts';
import type { Scope } from './scope.ts';
import { watchSend } from './sendtime.ts';
import type { CrawlSettings } from './settings.ts';
import { normalizeUrl } from './url.ts';
import { lcg32 } from '../lib/rng.ts';
import { headOf } from '../lib/url.ts';

export interface GateContext {
  fetcher: Fetcher;
  settings: CrawlSettings;
  scope: Scope;
  /** Milliseconds to wait before retry number `attempt` (1-based). */
  backoff(attempt: number): number;
  /** Every response received (robots.txt included), e.g. for an archive. */
  onResponse?(url: string, res: FetchResult): void;
  /** Counts robots.txt requests. */
  onRobotsFetch?(): void;
  /** A robots.txt request that gave no rules (error code or HTTP_<status>), for the summary. */
  onRobotsError?(code: string): void;
  /** The politeness state of another host (a robots.txt redirect's target); none: the same host's. */
  hostState?(name: string): HostState;
}

const stopped = (): CrawlError => new CrawlError('CRAWL_ERR_STOPPED', 'the crawl stopped before the request was sent');

export type PoliteOutcome =
  | { ok: true; res: FetchResult; attempts: number; ms: number }
  | { ok: false; error: CrawlError; attempts: number; ms: number };

export { sleep } from '../lib/time.ts';

/**
 * Exponential backoff with jitter for GateContext.backoff: retryBaseMs x 2^(attempt - 1) x a
 * factor in [0.75, 1.25), drawn from a stream seeded by the crawl's seed (the jitter only moves
 * timing, never results).
 */
export function retryBackoff(settings: Pick<CrawlSettings, 'seed' | 'retryBaseMs'>): (attempt: number) => number {
  const jitter = lcg32(settings.seed);
  return (attempt) => settings.retryBaseMs * 2 ** (attempt - 1) * (jitter() * 0.5 + 0.75);
}

/** Fetches url through the host's gate, retrying as the settings say; HTTP errors are results. */
export async function politeFetch(
  ctx: GateContext,
  h: HostState,
  url: string,
  post?: RequestBody,
): Promise<PoliteOutcome> {
  const t0 = performance.now();
  const { settings } = ctx;
  let attempts = 0;
  for (;;) {
    const watch = await h.acquire();
    if (!watch) return { ok: false, error: stopped(), attempts, ms: performance.now() - t0 };
    attempts++;
    let res: FetchResult;
    try {
      res = await watchSend(watch, () => ctx.fetcher.fetch(url, post));
    } catch (e) {
      h.release(watch, null);
      const err = toCrawlError(e);
      // a deadline is the server's doing (a drip): trying again would wait as long again
      if (
        attempts <= settings.retries &&
        err.code !== 'CRAWL_ERR_DEADLINE' &&
        err.code !== 'CRAWL_ERR_ADDRESS_REFUSED'
      ) {
        await h.pause(ctx.backoff(attempts));
        continue;
      }
      return { ok: false, error: err, attempts, ms: performance.now() - t0 };
    }
    h.release(watch, res);
    if ((res.status === 429 || res.status === 503) && res.retryAfterMs !== undefined) {
      if (res.retryAfterMs > settings.maxRetryAfterSec * 1000) {
        return {
          ok: false,
          error: new CrawlError(
            'CRAWL_ERR_HTTP',
            `Retry-After ${Math.round(res.retryAfterMs / 1000)} s exceeds the maximum`,
          ),
          attempts,
          ms: performance.now() - t0,
        };
      }
      h.backoff(res.retryAfterMs);
      // a 429 is the server asking us to slow down, not a failure of this URL: no retry limit below 10
      if (attempts <= Math.max(settings.retries, 10)) continue;
    } else if ((res.status >= 500 || res.status === 429) && attempts <= settings.retries) {
      // the host as a whole is held back by release(); this retry waits for that too
      await h.pause(ctx.backoff(attempts));
      continue;
    }
    return { ok: true, res, attempts, ms: performance.now() - t0 };
  }
}

/**
 * robots.txt through the gate of the host it is fetched from, each redirect hop as its own
 * request (at most 5, across hosts and schemes, RFC 9309 2.3.1.2). Fails closed: a redirect out
 * of the crawl's scope skips the host (the crawler never reaches outside its scope, and a
 * robots.txt it cannot read permits nothing); 5xx, 429 and network errors are retried, then
 * disallow everything for robotsUnreachableMs; a refused address marks the host refused.
 * Throws CRAWL_ERR_STOPPED when the crawl stops meanwhile.
 */
async function fetchRobots(ctx: GateContext, h: HostState, origin: string): Promise<RobotsRules> {
  const { settings } = ctx;
  const agent = RobotsRules.token(settings.userAgent);
  const robotsUrl = `${origin}/robots.txt`;
  const fetcher = new Fetcher(ctx.fetcher.dispatcherOf(), {
    ...settings,
    headers: ctx.fetcher.headers,
    maxBodyBytes: Math.max(ROBOTS_MIN_BYTES, settings.maxBodyBytes),
  });
  let last = '';
  const fail = (code: string, message: string): void => {
    ctx.onRobotsError?.(code);
    last = `${code}: ${message}`;
  };
  const unreachable = (maxAgeMs = settings.robotsUnreachableMs): RobotsRules =>
    RobotsRules.unreachable(agent, maxAgeMs, last);
  for (let attempt = 0; ; attempt++) {
    let url = robotsUrl;
    let gate = h;
    const chain: string[] = [];
    for (;;) {
      const watch = await gate.acquire();
      if (!watch) throw stopped();
      ctx.onRobotsFetch?.();
      let res: FetchResult;
      try {
        res = await watchSend(watch, () => fetcher.fetch(url));
      } catch (e) {
        gate.release(watch, null);
        const err = toCrawlError(e);
        fail(err.code, err.message);
        if (err.code === 'CRAWL_ERR_ADDRESS_REFUSED') {
          h.refused = err.message;
          return unreachable();
        }
        // a robots.txt that drips past the deadline would drip as long again
        if (err.code === 'CRAWL_ERR_DEADLINE') return unreachable();
        break; // network error: retry below
      }
      gate.release(watch, res);
      ctx.onResponse?.(url, res);
      const loc = res.headers.location;
      if (res.status >= 300 && res.status < 400 && loc) {
        const next = normalizeUrl(loc, url, settings);
        if (!next || chain.length >= 5 || chain.includes(next) || next === robotsUrl) {
          fail('CRAWL_ERR_TOO_MANY_REDIRECTS', `robots.txt redirects loop or exceed 5 (${loc})`);
          return unreachable();
        }
        const target = new URL(next);
        if (ctx.scope.check(target) !== null) {
          fail('CRAWL_ERR_OUT_OF_SCOPE', `robots.txt redirects out of scope to ${next}`);
          h.skipped = `robots.txt redirects out of scope to ${next}`;
          return unreachable(ROBOTS_MAX_AGE_MS);
        }
        chain.push(next);
        url = next;
        gate = ctx.hostState?.(target.host) ?? h;
        continue;
      }
      if (res.status < 500 && res.status !== 429)
        return RobotsRules.fromResponse(robotsUrl, res.status, res.body.toString('utf8'), agent, res.truncated);
      fail(`HTTP_${res.status}`, `robots.txt answered ${res.status}`);
      break; // 5xx, 429: retry below (the host back-off of release() applies)
    }
    if (attempt >= settings.robotsRetries) return unreachable();
    await h.pause(ctx.backoff(attempt + 1));
  }
}

/**
 * The rules of a URL's origin, fetched once per origin (concurrent callers share the request). Applies
 * Crawl-delay to the gate, or marks the host skipped when it asks for more than the maximum.
 */
const origins = new Map<string, string>();

/**
 * URL's origin of an absolute URL, parsed once per distinct text before the path (a crawl asks
 * for every URL it fetches, and one parse per URL was a fiftieth of its CPU): that text holds the
 * whole authority, so its origin is the URL's. At most 4,096 are kept; past that the memory is
 * cleared.
 */
export function originOf(url: string): string {
  const head = headOf(url);
  if (head === null) return new URL(url).origin;
  let o = origins.get(head);
  if (o === undefined) {
    o = new URL(head).origin;
    if (origins.size >= 4096) origins.clear();
    origins.set(head, o);
  }
  return o;
}

export function robotsFor(
  ctx: GateContext,
  h: HostState,
  url: string,
  onSkip?: (h: HostState) => void,
): Promise<RobotsRules> {
  const origin = originOf(url);
  const have = h.robotsByOrigin.get(origin);
  if (have && !have.expired) return Promise.resolve(have);
  let pending = h.robotsPending.get(origin);
  if (!pending) {
    pending = fetchRobots(ctx, h, origin).then(
      (r) => {
        h.robotsByOrigin.set(origin, r);
        h.robots = r;
        h.robotsPending.delete(origin);
        const delay = r.crawlDelaySec();
        if (h.skipped) onSkip?.(h);
        else if (delay !== undefined) {
          if (delay > ctx.settings.maxCrawlDelaySec) {
            h.skipped = `Crawl-delay ${delay} s exceeds the maximum of ${ctx.settings.maxCrawlDelaySec} s`;
            onSkip?.(h);
          } else {
            // one host, one gate: the longest Crawl-delay of its origins
            h.crawlDelayMs = Math.max(...[...h.robotsByOrigin.values()].map((x) => (x.crawlDelaySec() ?? 0) * 1000));
            h.backoff(h.crawlDelayMs); // the robots.txt request itself counts
          }
        }
        return r;
      },
      (e: unknown) => {
        h.robotsPending.delete(origin);
        throw e;
      },
    );
    h.robotsPending.set(origin, pending);
  }
  return pending;
}
