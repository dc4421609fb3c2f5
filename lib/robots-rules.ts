/**
 * robots.txt rules per RFC 9309, for the crawler (what it may fetch) and the synthetic web's
 * audit (what it saw disallowed): one implementation, so the two cannot disagree.
 *
 * Written here rather than taken from robots-parser (which the harness used before) for two
 * reasons a hostile server made concrete (issue #38):
 * - Matching time. robots-parser matches like Google's reference parser, in time proportional to
 *   the pattern's length times the path's: "Allow: /" followed by 500,000 "*" cost about 1 ms
 *   per path character per URL check, on the event loop, and stalled every host of the crawl.
 *   Here a run of "*" is one wildcard (the same language), and a pattern is matched by its
 *   literal pieces, each found with indexOf after the previous one (greedy leftmost is exact for
 *   patterns whose only specials are "*" and a final "$"): about linear in the path.
 * - Percent-encoding. RFC 9309 2.2.2: octets outside US-ASCII are compared percent-encoded, and
 *   a percent-encoded unreserved character (RFC 3986 2.3: letters, digits, "-", ".", "_", "~")
 *   is compared decoded, in the rule and in the URL; so "Disallow: /%62locked" blocks
 *   "/blocked". Google's parser compares such escapes as written (it would allow "/blocked"
 *   there); this follows the RFC.
 *
 * Groups (2.1, 2.2.1): consecutive user-agent lines open a group, which the next user-agent line
 * after a rule closes; groups naming the crawler's product token (case-insensitively) combine;
 * without one, the "*" groups apply; records other than user-agent, allow, disallow and
 * crawl-delay end nothing. The most specific match wins (the longest pattern, in octets of its
 * normalised form), allow on a tie (2.2.2); an empty disallow is no rule; /robots.txt itself is
 * always allowed (2.2.5). Crawl-delay (not in the RFC) is read from the groups that apply.
 */

export interface RobotsRules {
  /** undefined: the URL is not of the origin this robots.txt was fetched from (RFC 9309 2.3). */
  isAllowed(url: string, ua?: string): boolean | undefined;
  isDisallowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}

interface Rule {
  allow: boolean;
  /** Literal pieces between wildcards (a run of "*" is one). */
  pieces: string[];
  /** The pattern ended in "$": the path must end where it does. */
  anchored: boolean;
  /** Octets of the normalised pattern: precedence. */
  length: number;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelay?: number;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * A path or pattern in the form RFC 9309 compares: non-ASCII (and control or space) characters
 * percent-encoded as UTF-8, escapes of unreserved characters decoded, the others upper-cased.
 */
export function normalizeRobotsPath(s: string): string {
  // the common path, printable US-ASCII without a percent sign, is already normal: returned as is
  // rather than rebuilt a character at a time (a crawl checks every URL it fetches)
  let plain = true;
  for (let i = 0; i < s.length && plain; i++) {
    const code = s.charCodeAt(i);
    plain = code > 0x20 && code < 0x7f && code !== 0x25;
  }
  if (plain) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      const ch = String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 3), 16));
      out += UNRESERVED.test(ch) ? ch : `%${s.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
      continue;
    }
    const code = c.charCodeAt(0);
    if (code > 0x20 && code < 0x7f) {
      out += c;
      continue;
    }
    // a character outside printable US-ASCII: its UTF-8 octets, encoded (a surrogate pair at once)
    const cp = s.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (ch.length === 2) i++;
    for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function compile(allow: boolean, value: string): Rule {
  let p = normalizeRobotsPath(value).replace(/\*+/g, '*');
  const anchored = p.endsWith('$');
  if (anchored) p = p.slice(0, -1);
  return { allow, pieces: p.split('*'), anchored, length: p.length + (anchored ? 1 : 0) };
}

/** Whether a rule matches a normalised path: its pieces in order, the first at the start. */
function matches(r: Rule, path: string): boolean {
  const { pieces } = r;
  if (!path.startsWith(pieces[0])) return false;
  let pos = pieces[0].length;
  if (pieces.length === 1) return !r.anchored || pos === path.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const at = path.indexOf(pieces[i], pos);
    if (at < 0) return false;
    pos = at + pieces[i].length;
  }
  const last = pieces[pieces.length - 1];
  if (r.anchored) return path.length - last.length >= pos && path.endsWith(last);
  return path.indexOf(last, pos) >= 0;
}

/** The product token of an agent value or User-Agent, lower-cased: "Mybot/1.2 (+url)" -> "mybot". */
export function agentToken(ua: string): string {
  return ua.trim().split(/[\s/]/)[0].toLowerCase();
}

function parseGroups(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '');
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value === '*' ? '*' : agentToken(value));
      lastWasAgent = true;
      continue;
    }
    if (key !== 'allow' && key !== 'disallow' && key !== 'crawl-delay') continue;
    lastWasAgent = false;
    if (!current) continue; // a rule before any user-agent line belongs to no group
    if (key === 'crawl-delay') {
      const d = Number(value);
      // "Infinity" (or 1e999) is a delay no crawl can keep: kept, so that the host is skipped (maxCrawlDelaySec)
      if (d >= 0 && current.crawlDelay === undefined) current.crawlDelay = d;
    } else if (value) current.rules.push(compile(key === 'allow', value));
  }
  return groups;
}

class Rules implements RobotsRules {
  private readonly groups: Group[];
  private readonly origin: string;
  private readonly cache = new Map<string, { rules: Rule[]; crawlDelay?: number }>();

  constructor(robotsUrl: string, text: string) {
    this.origin = new URL(robotsUrl).origin;
    this.groups = parseGroups(text);
  }

  /** The rules that apply to an agent: its groups combined, else the "*" groups. */
  private forAgent(ua: string): { rules: Rule[]; crawlDelay?: number } {
    const token = agentToken(ua || '*');
    let hit = this.cache.get(token);
    if (!hit) {
      let gs = this.groups.filter((g) => g.agents.includes(token));
      if (!gs.length) gs = this.groups.filter((g) => g.agents.includes('*'));
      hit = {
        // longest first: the first rule that matches is the most specific; allow first among equals
        rules: gs.flatMap((g) => g.rules).sort((a, b) => b.length - a.length || Number(b.allow) - Number(a.allow)),
        crawlDelay: gs.find((g) => g.crawlDelay !== undefined)?.crawlDelay,
      };
      this.cache.set(token, hit);
    }
    return hit;
  }

  isAllowed(url: string, ua = '*'): boolean | undefined {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return undefined;
    }
    if (u.origin !== this.origin) return undefined;
    const path = normalizeRobotsPath(`${u.pathname}${u.search}`);
    if (path === '/robots.txt') return true;
    for (const r of this.forAgent(ua).rules) if (matches(r, path)) return r.allow;
    return true;
  }

  isDisallowed(url: string, ua = '*'): boolean | undefined {
    const a = this.isAllowed(url, ua);
    return a === undefined ? undefined : !a;
  }

  getCrawlDelay(ua = '*'): number | undefined {
    return this.forAgent(ua).crawlDelay;
  }
}

/** Parses a robots.txt served at `url`. */
export function parseRobots(url: string, text: string): RobotsRules {
  return new Rules(url, text);
}
