/**
 * robots.txt per RFC 9309 (rules matched by lib/robots-rules.ts): fetched once per host and cached (24 h at most),
 * up to 5 redirects followed, at least 500 KiB parsed; 4xx other than 429 allows everything;
 * 5xx, 429 or a network error disallows everything until a later fetch succeeds (fail closed).
 * Crawl-delay (not in the RFC) is read for the engine, which honours it up to a maximum and
 * skips hosts asking for more (like Nutch).
 *
 * Only the group members (user-agent, allow, disallow, and crawl-delay, read by many engines)
 * are passed on, so other records cannot end a group (2.2.4: "Sitemap:" between two
 * "User-agent:" lines), and a file cut at the size cap loses its partial last line instead of
 * parsing it as a rule.
 */
import { parseRobots as robotsParser, type RobotsRules as RobotsParser } from '../lib/robots-rules.ts';

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
    private readonly maxAgeMs = ROBOTS_MAX_AGE_MS,
    /** Why everything is disallowed, when it is. */
    readonly reason = '',
  ) {}

  static fromResponse(robotsUrl: string, status: number, body: string, agent: string, truncated = false): RobotsRules {
    if (status >= 200 && status < 300)
      return new RobotsRules('rules', status, robotsParser(robotsUrl, groupLines(body, truncated)), agent);
    if (status >= 400 && status < 500 && status !== 429) return new RobotsRules('allow-all', status, null, agent);
    // 5xx, 429 (and anything unexpected, such as an unfollowed 3xx): assume complete disallow
    return new RobotsRules(
      'disallow-all',
      status,
      null,
      agent,
      status === 429 || status >= 500 ? UNREACHABLE_MAX_AGE_MS : ROBOTS_MAX_AGE_MS,
      `HTTP ${status}`,
    );
  }

  /**
   * No usable answer (network error, 5xx or 429 after the retries, a redirect that cannot be
   * followed): disallow all, fetch again after maxAgeMs; reason says what happened.
   */
  static unreachable(agent: string, maxAgeMs = UNREACHABLE_MAX_AGE_MS, reason = 'unreachable'): RobotsRules {
    return new RobotsRules('disallow-all', 'error', null, agent, maxAgeMs, reason);
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
    return Date.now() - this.fetchedAt > this.maxAgeMs;
  }
}

/** Default lifetime of a disallow-all from an unreachable robots.txt (the setting robotsUnreachableMs). */
const UNREACHABLE_MAX_AGE_MS = 10 * 60 * 1000;

const GROUP_MEMBER = /^\s*(user-agent|allow|disallow|crawl-delay)\s*:/i;

/** The lines the matcher should see: group members only; after a cut, no partial last line. */
export function groupLines(body: string, truncated: boolean): string {
  const end = truncated ? Math.max(body.lastIndexOf('\n'), body.lastIndexOf('\r')) : body.length;
  const text = end < 0 ? '' : body.slice(0, end);
  return text
    .split(/\r\n|\r|\n/)
    .filter((l) => GROUP_MEMBER.test(l))
    .join('\n');
}
