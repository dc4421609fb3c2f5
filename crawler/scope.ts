/**
 * The scope guard: which URLs a crawl may fetch. A URL is in scope when its scheme is http(s),
 * its host and port match a scope pattern (by default the seeds' own origins), and, if its host
 * is an IP literal, the address policy allows it. Everything else is counted, never fetched.
 */
import { isIP } from 'node:net';
import { addressAllowed, classifyAddress, hostMatches } from './net.ts';

export type OutOfScope = 'scheme' | 'host' | 'port' | 'address';

interface Pattern {
  host: string;
  port: number | undefined;
}

export class Scope {
  private readonly patterns: Pattern[];
  constructor(
    patterns: readonly string[],
    seeds: readonly string[],
    private readonly allowPrivate: boolean,
  ) {
    this.patterns = patterns.length
      ? patterns.map((p) => {
          const m = /^(.*?)(?::(\d+))?$/.exec(p.toLowerCase())!;
          return { host: m[1], port: m[2] ? Number(m[2]) : undefined };
        })
      : seeds.map((s) => {
          const u = new URL(s);
          return { host: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) };
        });
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
