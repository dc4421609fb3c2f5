/**
 * The scope guard: which URLs a crawl may fetch. A URL is in scope when its scheme is http(s),
 * its host and port match a scope pattern (by default the start URLs' own origins), and, if its host
 * is an IP literal, the address policy allows it. Everything else is counted, never fetched.
 */
import { isIP } from 'node:net';
import { addressAllowed, classifyAddress, hostMatches } from './net.ts';
import { headOf } from '../lib/url.ts';

export type OutOfScope = 'scheme' | 'host' | 'port' | 'address';

interface Pattern {
  host: string;
  port: number | undefined;
}

export class Scope {
  private readonly patterns: Pattern[];
  constructor(
    patterns: readonly string[],
    startUrls: readonly string[],
    private readonly allowPrivate: boolean,
  ) {
    this.patterns = patterns.length
      ? patterns.map((p) => {
          const m = /^(.*?)(?::(\d+))?$/.exec(p.toLowerCase())!;
          return { host: m[1], port: m[2] ? Number(m[2]) : undefined };
        })
      : startUrls.map((s) => {
          const u = new URL(s);
          return { host: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) };
        });
  }

  private readonly byOrigin = new Map<string, OutOfScope | null>();

  /**
   * check() of a normalised absolute URL (crawler/url.ts) by its origin, remembered: the verdict
   * depends on scheme, host and port only, and a page's links share a few origins, so most links
   * need no URL parse (one parse per link was a twentieth of a crawl's CPU). At most 4,096
   * origins are kept; past that the memory is cleared, which a page of distinct hosts forces.
   */
  checkHref(href: string): OutOfScope | null {
    const origin = headOf(href);
    if (origin === null) return this.check(new URL(href));
    let why = this.byOrigin.get(origin);
    if (why === undefined) {
      why = this.check(new URL(origin));
      if (this.byOrigin.size >= 4096) this.byOrigin.clear();
      this.byOrigin.set(origin, why);
    }
    return why;
  }

  /** null when the URL may be fetched, else why not. */
  check(url: URL): OutOfScope | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      if (!addressAllowed(classifyAddress(host), this.allowPrivate)) return 'address';
    }
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    let hostOk = false;
    for (const p of this.patterns) {
      if (!hostMatches(p.host, host)) continue;
      hostOk = true;
      // a pattern without a port admits the scheme's default ports only
      if (p.port === undefined ? port === 80 || port === 443 : p.port === port) return null;
    }
    return hostOk ? 'port' : 'host';
  }
}
