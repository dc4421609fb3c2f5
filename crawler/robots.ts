/**
 * robots.txt per RFC 9309 with robots-parser: fetched once per host and cached (24 h at most),
 * up to 5 redirects followed, at least 500 KiB parsed; 4xx allows everything; 5xx or a network
 * error disallows everything until a retry succeeds. Crawl-delay (not in the RFC) is read for
 * the engine, which honours it up to a maximum and skips hosts asking for more (like Nutch).
 */
import { createRequire } from 'node:module';

/** The parts of robots-parser we use (its bundled types do not resolve under NodeNext). */
interface RobotsParser {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, text: string) => RobotsParser;

export const ROBOTS_MAX_AGE_MS = 24 * 3600 * 1000;
export const ROBOTS_MIN_BYTES = 512 * 1024;

export type RobotsState = 'rules' | 'allow-all' | 'disallow-all';

export class RobotsRules {
  readonly fetchedAt = Date.now();
  private constructor(
    readonly state: RobotsState,
    readonly status: number | 'error',
    private readonly parser: RobotsParser | null,
    private readonly agent: string,
  ) {}

  static fromResponse(robotsUrl: string, status: number, body: string, agent: string): RobotsRules {
    if (status >= 200 && status < 300) return new RobotsRules('rules', status, robotsParser(robotsUrl, body), agent);
    if (status >= 400 && status < 500) return new RobotsRules('allow-all', status, null, agent);
    // 5xx (and anything unexpected, such as an unfollowed 3xx): assume complete disallow
    return new RobotsRules('disallow-all', status, null, agent);
  }

  static unreachable(agent: string): RobotsRules {
    return new RobotsRules('disallow-all', 'error', null, agent);
  }

  /** The agent token robots.txt groups are matched against: the product name of the User-Agent. */
  static token(userAgent: string): string {
    return userAgent.split(/[\s/]/)[0];
  }

  isAllowed(url: string): boolean {
    if (this.state === 'allow-all') return true;
    if (this.state === 'disallow-all') return false;
    return this.parser!.isAllowed(url, this.agent) !== false;
  }

  /** Crawl-delay in seconds for our agent, if any. */
  crawlDelaySec(): number | undefined {
    return this.parser?.getCrawlDelay(this.agent);
  }

  get expired(): boolean {
    return Date.now() - this.fetchedAt > ROBOTS_MAX_AGE_MS;
  }
}
