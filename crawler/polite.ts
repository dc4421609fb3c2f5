/**
 * One polite request: the per-host gate (slot and gap), retries with backoff on network errors
 * and 5xx, Retry-After on 429/503, and robots.txt fetched through the same gate. The crawl
 * engine and the deep-web form client both go through here, so a form submission is exactly as
 * polite as a page fetch.
 */
import { CrawlError, toCrawlError } from './errors.ts';
import { Fetcher, type FetchResult, type RequestBody } from './fetcher.ts';
import type { HostState } from './hosts.ts';
import { RobotsRules, ROBOTS_MIN_BYTES } from './robots.ts';
import type { Scope } from './scope.ts';
import { watchSend } from './sendtime.ts';
import type { CrawlSettings } from './settings.ts';
import { normalizeUrl } from './url.ts';

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
}

export type PoliteOutcome =
  | { ok: true; res: FetchResult; attempts: number; ms: number }
  | { ok: false; error: CrawlError; attempts: number; ms: number };

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Fetches url through the host's gate, retrying as the settings say; HTTP errors are results. */
export async function politeFetch(ctx: GateContext, h: HostState, url: string, post?: RequestBody): Promise<PoliteOutcome> {
  const t0 = performance.now();
  const { settings } = ctx;
  let attempts = 0;
  for (;;) {
    attempts++;
    const watch = await h.acquire();
    let res: FetchResult;
    try {
      res = await watchSend(watch, () => ctx.fetcher.fetch(url, 0, undefined, post));
    } catch (e) {
      h.release(watch, null, null);
      const err = toCrawlError(e);
      if (attempts <= settings.retries) {
        await sleep(ctx.backoff(attempts));
        continue;
      }
      return { ok: false, error: err, attempts, ms: performance.now() - t0 };
    }
    h.release(watch, res.latencyMs, res.status);
    if ((res.status === 429 || res.status === 503) && res.retryAfterMs !== undefined) {
      if (res.retryAfterMs > settings.maxRetryAfterSec * 1000) {
        return { ok: false, error: new CrawlError('CRAWL_ERR_HTTP', `Retry-After ${Math.round(res.retryAfterMs / 1000)} s exceeds the maximum`), attempts, ms: performance.now() - t0 };
      }
      h.backoff(res.retryAfterMs);
      // a 429 is the server asking us to slow down, not a failure of this URL: no retry limit below 10
      if (attempts <= Math.max(settings.retries, 10)) continue;
    } else if (res.status >= 500 && attempts <= settings.retries) {
      await sleep(ctx.backoff(attempts));
      continue;
    }
    return { ok: true, res, attempts, ms: performance.now() - t0 };
  }
}

/** robots.txt through the host's politeness gate, each redirect hop as its own request (at most 5, in scope). */
export async function fetchRobots(ctx: GateContext, h: HostState, origin: string): Promise<RobotsRules> {
  const { settings } = ctx;
  const agent = RobotsRules.token(settings.userAgent);
  const robotsUrl = `${origin}/robots.txt`;
  const fetcher = new Fetcher(ctx.fetcher.dispatcherOf(), { ...settings, headers: ctx.fetcher.headers, maxBodyBytes: Math.max(ROBOTS_MIN_BYTES, settings.maxBodyBytes), maxRedirects: 0 });
  for (let attempt = 0; ; attempt++) {
    let url = robotsUrl;
    const chain: string[] = [];
    for (;;) {
      const watch = await h.acquire();
      ctx.onRobotsFetch?.();
      let res: FetchResult;
      try {
        res = await watchSend(watch, () => fetcher.fetch(url, 0));
      } catch {
        h.release(watch, null, null);
        break; // network error: retry below
      }
      h.release(watch, res.latencyMs, res.status);
      ctx.onResponse?.(url, res);
      const loc = res.headers.location;
      if (res.status >= 300 && res.status < 400 && loc) {
        const next = normalizeUrl(loc, url, settings);
        // RFC 9309: follow at least five redirects; a target out of scope is not fetched (treated as unavailable: 4xx)
        if (!next || chain.length >= 5 || chain.includes(next) || next === robotsUrl) return RobotsRules.fromResponse(robotsUrl, 404, '', agent);
        if (ctx.scope.check(new URL(next)) !== null) return RobotsRules.fromResponse(robotsUrl, 404, '', agent);
        chain.push(next);
        url = next;
        continue;
      }
      if (res.status < 500) return RobotsRules.fromResponse(robotsUrl, res.status, res.body.toString('utf8'), agent);
      break; // 5xx: retry below
    }
    if (attempt >= settings.robotsRetries) return RobotsRules.unreachable(agent);
    await sleep(ctx.backoff(attempt + 1));
  }
}

/**
 * The host's robots rules, fetched once (concurrent callers share the request). Applies
 * Crawl-delay to the gate, or marks the host skipped when it asks for more than the maximum.
 */
export function robotsFor(ctx: GateContext, h: HostState, url: string, onSkip?: (h: HostState) => void): Promise<RobotsRules> {
  if (h.robots && !h.robots.expired) return Promise.resolve(h.robots);
  if (!h.robotsPending) {
    h.robotsPending = fetchRobots(ctx, h, new URL(url).origin).then((r) => {
      h.robots = r;
      h.robotsPending = null;
      const delay = r.crawlDelaySec();
      if (delay !== undefined) {
        if (delay > ctx.settings.maxCrawlDelaySec) {
          h.skipped = `Crawl-delay ${delay} s exceeds the maximum of ${ctx.settings.maxCrawlDelaySec} s`;
          onSkip?.(h);
        } else {
          h.crawlDelayMs = delay * 1000;
          h.backoff(h.crawlDelayMs); // the robots.txt request itself counts
        }
      }
      return r;
    });
  }
  return h.robotsPending;
}
