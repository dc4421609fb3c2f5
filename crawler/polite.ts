/**
 * The polite client: the one way a crawl's requests reach a server, for the crawl engine and the
 * deep-web form client alike, so a form submission is exactly as polite as a page fetch. A request
 * passes, in order: robots.txt (fetched once per origin through the same gates, RFC 9309), the
 * host's gate (crawler/hosts.ts: slots, gap, Crawl-delay, AutoThrottle, back-off), every
 * politeness rule the settings turn on (crawler/politeness/: one module each, e.g. per IP), then
 * the fetch (crawler/fetcher.ts) on the dispatcher whose connections follow the resolve rules and
 * the address policy (crawler/net.ts); network errors and 5xx are retried with back-off, and
 * 429/503 wait their Retry-After, each retry through the gates again. Scope is the caller's to
 * check before it queues a URL (the engine drops out-of-scope links at admission); the client's
 * Scope is the one both use.
 *
 * Why not undici interceptors: a retry must wait for the host's gate and back-off again, and the
 * scheduler asks a host whether it is ready before taking its URL; undici's retry handler retries
 * inside one dispatch, past any gate.
 */
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import type { Dispatcher } from 'undici';
import { CrawlError, toCrawlError } from './errors.ts';
import { Fetcher, type FetchResult, type RequestBody } from './fetcher.ts';
import { HostState, type ResponseMark } from './hosts.ts';
import { connectTarget, crawlerDispatcher, parseResolveRule, type ResolveRule } from './net.ts';
import { gatesFor, type Gate, type Ticket } from './politeness/index.ts';
import { ROBOTS_MAX_AGE_MS, RobotsRules, ROBOTS_MIN_BYTES } from './robots-cache.ts';
import { Scope } from './scope.ts';
import { type SendWatch, watchSend } from './sendtime.ts';
import type { CrawlSettings } from './settings.ts';
import { normalizeUrl } from './url.ts';
import { lcg32 } from '../lib/rng.ts';
import { headOf } from '../lib/url.ts';

export interface PoliteClientOptions {
  settings: CrawlSettings;
  /** Sends every request here (e.g. the synthetic web's dispatcher); default: one built from settings.resolve. */
  dispatcher?: Dispatcher;
  /** Connections per origin of the dispatcher built here (default 64). */
  connections?: number;
  /** Sent with every request (e.g. x-crawler-region). */
  headers?: Record<string, string>;
  /** Every response received (robots.txt included), e.g. for an archive. */
  onResponse?(url: string, res: FetchResult): void;
  /** Counts robots.txt requests. */
  onRobotsFetch?(): void;
  /** A robots.txt request that gave no rules (error code or HTTP_<status>), for the summary. */
  onRobotsError?(code: string): void;
  /** A host was held back for a server error (the summary counts them). */
  onBackoff?(): void;
  /** A host was excluded from the crawl (its reason in host.skipped). */
  onSkip?(host: HostState): void;
}

/** What became of one request; only `fetched` and `failed` sent anything. */
export type Sent =
  | { kind: 'fetched'; res: FetchResult; attempts: number; ms: number }
  | { kind: 'failed'; error: CrawlError; attempts: number; ms: number }
  /** robots.txt disallows the URL. */
  | { kind: 'robots' }
  /** The host is excluded (host.skipped says why). */
  | { kind: 'skipped' }
  /** claim() said another process fetches it. */
  | { kind: 'elsewhere' }
  /** The crawl stopped before the request was sent. */
  | { kind: 'stopped' };

type Attempted = Extract<Sent, { kind: 'fetched' | 'failed' }>;

const stopped = (): CrawlError => new CrawlError('CRAWL_ERR_STOPPED', 'the crawl stopped before the request was sent');

export { sleep } from '../lib/time.ts';

/**
 * Whether the server's answer itself is malformed (crawler/errors.ts: a parse error, headers past
 * undici's limit, a body that is not its Content-Length): the same bytes come back on a retry, so
 * there is none.
 */
const malformedAnswer = (err: CrawlError): boolean => err.code === 'CRAWL_ERR_MALFORMED';

/** A status HTTP does not have (RFC 9110 15: three digits, 100-599): malformed, not a server error to retry. */
const invalidStatus = (status: number): boolean => status < 100 || status > 599;

/**
 * Exponential backoff with jitter between retries: retryBaseMs x 2^(attempt - 1) x a factor in
 * [0.75, 1.25), drawn from a stream seeded by the crawl's seed (the jitter only moves timing,
 * never results).
 */
export function retryBackoff(settings: Pick<CrawlSettings, 'seed' | 'retryBaseMs'>): (attempt: number) => number {
  const jitter = lcg32(settings.seed);
  return (attempt) => settings.retryBaseMs * 2 ** (attempt - 1) * (jitter() * 0.5 + 0.75);
}

/** A host's slot and the rules' tickets, held while one request is on its way. */
interface Pass {
  watch: SendWatch;
  tickets: readonly Ticket[];
}

const NO_TICKETS: readonly Ticket[] = [];

export class PoliteClient {
  readonly settings: CrawlSettings;
  readonly scope: Scope;
  private readonly fetcher: Fetcher;
  /** robots.txt's fetcher: the same, with a body cap of at least what RFC 9309 asks to read. */
  private readonly robotsFetcher: Fetcher;
  private readonly dispatcher: Dispatcher;
  private readonly ownDispatcher: boolean;
  private readonly hosts = new Map<string, HostState>();
  private readonly gates: Gate[];
  private readonly rules: readonly ResolveRule[];
  private readonly backoff: (attempt: number) => number;

  constructor(private readonly opts: PoliteClientOptions) {
    const s = opts.settings;
    this.settings = s;
    this.scope = new Scope(s.scope, s.startUrls, s.allowPrivateAddresses);
    this.rules = s.resolve.map(parseResolveRule);
    this.ownDispatcher = !opts.dispatcher;
    this.dispatcher =
      opts.dispatcher ??
      crawlerDispatcher(this.rules, s.allowPrivateAddresses, {
        connectTimeoutMs: s.connectTimeoutMs,
        connections: opts.connections,
      });
    const fetchOptions = {
      userAgent: s.userAgent,
      headersTimeoutMs: s.headersTimeoutMs,
      bodyTimeoutMs: s.bodyTimeoutMs,
      maxResponseMs: s.maxResponseMs,
      maxBodyBytes: s.maxBodyBytes,
      headers: opts.headers,
    };
    this.fetcher = new Fetcher(this.dispatcher, fetchOptions);
    this.robotsFetcher = new Fetcher(this.dispatcher, {
      ...fetchOptions,
      maxBodyBytes: Math.max(ROBOTS_MIN_BYTES, s.maxBodyBytes),
    });
    this.backoff = retryBackoff(s);
    this.gates = gatesFor(s, { addressOf: (url) => this.addressOf(url) });
  }

  /** The politeness state of a host (made on first use). */
  host(name: string): HostState {
    let h = this.hosts.get(name);
    if (!h) this.hosts.set(name, (h = new HostState(name, this.settings, this.opts.onBackoff)));
    return h;
  }

  /**
   * Sends url (of `host`, already in scope) through robots.txt, the gates and the retries. claim:
   * asked after robots.txt, just before the request; false leaves it unsent ("elsewhere"). Never
   * throws for what a server or the network did.
   */
  async send(url: string, host: string, post?: RequestBody, claim?: (url: string) => Promise<boolean>): Promise<Sent> {
    const h = this.host(host);
    let rules: RobotsRules;
    try {
      rules = await this.robotsFor(h, url);
    } catch (e) {
      if (e instanceof CrawlError && e.code === 'CRAWL_ERR_STOPPED') return { kind: 'stopped' };
      throw e;
    }
    if (h.skipped) return { kind: 'skipped' };
    if (h.refused)
      return {
        kind: 'failed',
        error: new CrawlError('CRAWL_ERR_ADDRESS_REFUSED', h.refused),
        attempts: 0,
        ms: 0,
      };
    if (!rules.isAllowed(url)) return { kind: 'robots' };
    if (claim && !(await claim(url))) return { kind: 'elsewhere' };
    const o = await this.politeFetch(h, url, post);
    if (o.kind === 'failed' && o.error.code === 'CRAWL_ERR_STOPPED') return { kind: 'stopped' };
    return o;
  }

  /** The crawl stops: no request is sent any more, waits end at once. */
  halt(): void {
    for (const h of this.hosts.values()) h.halt();
    for (const g of this.gates) g.halt();
  }

  /** Halts, and closes the dispatcher when the client built it. */
  async close(): Promise<void> {
    this.halt();
    if (this.ownDispatcher) await this.dispatcher.close();
  }

  /** Waits for the host's slot, then every rule's ticket; null: the crawl is stopping. */
  private async enter(h: HostState, url: string): Promise<Pass | null> {
    const watch = await h.acquire();
    if (!watch) return null;
    if (this.gates.length === 0) return { watch, tickets: NO_TICKETS };
    const tickets: Ticket[] = [];
    for (const g of this.gates) {
      const t = await g.acquire({ host: h.name, url });
      if (!t) {
        this.leave(h, { watch, tickets }, null);
        return null;
      }
      tickets.push(t);
    }
    return { watch, tickets };
  }

  private leave(h: HostState, pass: Pass, res: ResponseMark | null): void {
    for (const t of pass.tickets) t.release(res);
    h.release(pass.watch, res);
  }

  /** The address a host's connections go to, for the rules that count by address. */
  private async addressOf(url: string): Promise<string> {
    const { hostname, host, port, protocol } = new URL(url);
    const { address } = connectTarget(this.rules, hostname, Number(port || (protocol === 'https:' ? 443 : 80)));
    if (isIP(address)) return address;
    // a dispatcher the caller built sends where it likes: DNS would not say where
    if (!this.ownDispatcher) return host;
    try {
      return (await lookup(address)).address;
    } catch {
      return host;
    }
  }

  /** Fetches url through the gates, retrying as the settings say; HTTP errors are results. */
  private async politeFetch(h: HostState, url: string, post?: RequestBody): Promise<Attempted> {
    const t0 = performance.now();
    const { settings } = this;
    let attempts = 0;
    for (;;) {
      const pass = await this.enter(h, url);
      if (!pass) return { kind: 'failed', error: stopped(), attempts, ms: performance.now() - t0 };
      attempts++;
      let res: FetchResult;
      try {
        res = await watchSend(pass.watch, () => this.fetcher.fetch(url, post));
      } catch (e) {
        this.leave(h, pass, null);
        const err = toCrawlError(e);
        // a deadline is the server's doing (a drip): trying again would wait as long again
        if (
          attempts <= settings.retries &&
          err.code !== 'CRAWL_ERR_DEADLINE' &&
          err.code !== 'CRAWL_ERR_ADDRESS_REFUSED' &&
          !malformedAnswer(err)
        ) {
          await h.pause(this.backoff(attempts));
          continue;
        }
        return { kind: 'failed', error: err, attempts, ms: performance.now() - t0 };
      }
      this.leave(h, pass, res);
      if (invalidStatus(res.status))
        return {
          kind: 'failed',
          error: new CrawlError('CRAWL_ERR_MALFORMED', `status ${res.status} is outside 100-599`),
          attempts,
          ms: performance.now() - t0,
        };
      if ((res.status === 429 || res.status === 503) && res.retryAfterMs !== undefined) {
        if (res.retryAfterMs > settings.maxRetryAfterSec * 1000) {
          return {
            kind: 'failed',
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
        await h.pause(this.backoff(attempts));
        continue;
      }
      return { kind: 'fetched', res, attempts, ms: performance.now() - t0 };
    }
  }

  /**
   * robots.txt through the gates of the host it is fetched from, each redirect hop as its own
   * request (at most 5, across hosts and schemes, RFC 9309 2.3.1.2). Fails closed: a redirect out
   * of the crawl's scope skips the host (the crawler never reaches outside its scope, and a
   * robots.txt it cannot read permits nothing); 5xx, 429 and network errors are retried, then
   * disallow everything for robotsUnreachableMs; a refused address marks the host refused.
   * Throws CRAWL_ERR_STOPPED when the crawl stops meanwhile.
   */
  private async fetchRobots(h: HostState, origin: string): Promise<RobotsRules> {
    const { settings, opts } = this;
    const agent = RobotsRules.token(settings.userAgent);
    const robotsUrl = `${origin}/robots.txt`;
    let last = '';
    const fail = (code: string, message: string): void => {
      opts.onRobotsError?.(code);
      last = `${code}: ${message}`;
    };
    const unreachable = (maxAgeMs = settings.robotsUnreachableMs): RobotsRules =>
      RobotsRules.unreachable(agent, maxAgeMs, last);
    for (let attempt = 0; ; attempt++) {
      let url = robotsUrl;
      let gate = h;
      const chain: string[] = [];
      for (;;) {
        const pass = await this.enter(gate, url);
        if (!pass) throw stopped();
        opts.onRobotsFetch?.();
        let res: FetchResult;
        try {
          res = await watchSend(pass.watch, () => this.robotsFetcher.fetch(url));
        } catch (e) {
          this.leave(gate, pass, null);
          const err = toCrawlError(e);
          fail(err.code, err.message);
          if (err.code === 'CRAWL_ERR_ADDRESS_REFUSED') {
            h.refused = err.message;
            return unreachable();
          }
          // a robots.txt that drips past the deadline would drip as long again, a malformed one
          // come back the same
          if (err.code === 'CRAWL_ERR_DEADLINE' || malformedAnswer(err)) return unreachable();
          break; // network error: retry below
        }
        this.leave(gate, pass, res);
        opts.onResponse?.(url, res);
        if (invalidStatus(res.status)) {
          fail('CRAWL_ERR_MALFORMED', `robots.txt answered status ${res.status}, outside 100-599`);
          return unreachable();
        }
        const loc = res.headers.location;
        if (res.status >= 300 && res.status < 400 && loc) {
          const next = normalizeUrl(loc, url, settings);
          if (!next || chain.length >= 5 || chain.includes(next) || next === robotsUrl) {
            fail('CRAWL_ERR_TOO_MANY_REDIRECTS', `robots.txt redirects loop or exceed 5 (${loc})`);
            return unreachable();
          }
          const target = new URL(next);
          if (this.scope.check(target) !== null) {
            fail('CRAWL_ERR_OUT_OF_SCOPE', `robots.txt redirects out of scope to ${next}`);
            h.skipped = `robots.txt redirects out of scope to ${next}`;
            return unreachable(ROBOTS_MAX_AGE_MS);
          }
          chain.push(next);
          url = next;
          gate = this.host(target.host);
          continue;
        }
        if (res.status < 500 && res.status !== 429)
          return RobotsRules.fromResponse(robotsUrl, res.status, res.body.toString('utf8'), agent, res.truncated);
        fail(`HTTP_${res.status}`, `robots.txt answered ${res.status}`);
        break; // 5xx, 429: retry below (the host back-off of release() applies)
      }
      if (attempt >= settings.robotsRetries) return unreachable();
      await h.pause(this.backoff(attempt + 1));
    }
  }

  /**
   * The rules of a URL's origin, fetched once per origin (concurrent callers share the request).
   * Applies Crawl-delay to the host's gate, or marks the host skipped when it asks for more than
   * the maximum.
   */
  private robotsFor(h: HostState, url: string): Promise<RobotsRules> {
    const origin = originOf(url);
    const have = h.robotsByOrigin.get(origin);
    if (have && !have.expired) return Promise.resolve(have);
    let pending = h.robotsPending.get(origin);
    if (!pending) {
      pending = this.fetchRobots(h, origin).then(
        (r) => {
          h.robotsByOrigin.set(origin, r);
          h.robots = r;
          h.robotsPending.delete(origin);
          this.applyCrawlDelay(h, r);
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

  private applyCrawlDelay(h: HostState, r: RobotsRules): void {
    const delay = r.crawlDelaySec();
    if (h.skipped) this.opts.onSkip?.(h);
    else if (delay !== undefined) {
      if (delay > this.settings.maxCrawlDelaySec) {
        h.skipped = `Crawl-delay ${delay} s exceeds the maximum of ${this.settings.maxCrawlDelaySec} s`;
        this.opts.onSkip?.(h);
      } else {
        // one host, one gate: the longest Crawl-delay of its origins
        h.crawlDelayMs = Math.max(...[...h.robotsByOrigin.values()].map((x) => (x.crawlDelaySec() ?? 0) * 1000));
        h.backoff(h.crawlDelayMs); // the robots.txt request itself counts
      }
    }
  }
}

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
