/**
 * The politeness audit a server keeps per host, for the evaluator: requests, most requests in
 * flight at once, the smallest gap between request starts, requests to paths robots.txt
 * disallows for the requesting agent, 429s and 5xx sent, bytes. Shared by the synthetic web's
 * server and the WARC replay server.
 */
import type { ServerResponse } from 'node:http';

export interface HostAudit {
  requests: number;
  /** Most requests in flight at once. */
  maxConcurrent: number;
  /** Smallest gap between the starts of two successive requests, ms (null with < 2 requests). */
  minGapMs: number | null;
  /** Requests to paths the host's robots.txt disallows for the requesting agent. */
  disallowed: number;
  sent429: number;
  sent5xx: number;
  bytes: number;
}

interface HostState extends HostAudit {
  inFlight: number;
  lastStart: number;
}

export class AuditBook {
  private hosts = new Map<string, HostState>();

  /**
   * Records the start of a request; returns the ms since the host's previous request started
   * (Infinity for the first), for servers that rate-limit.
   */
  begin(host: string, disallowed: boolean, res: ServerResponse): number {
    let s = this.hosts.get(host);
    if (!s) {
      s = {
        requests: 0,
        maxConcurrent: 0,
        minGapMs: null,
        disallowed: 0,
        sent429: 0,
        sent5xx: 0,
        bytes: 0,
        inFlight: 0,
        lastStart: 0,
      };
      this.hosts.set(host, s);
    }
    const st = s;
    const now = performance.now();
    const gap = st.requests > 0 ? now - st.lastStart : Infinity;
    if (st.requests > 0 && (st.minGapMs === null || gap < st.minGapMs)) st.minGapMs = Math.round(gap * 1000) / 1000;
    st.lastStart = now;
    st.requests++;
    st.inFlight++;
    if (st.inFlight > st.maxConcurrent) st.maxConcurrent = st.inFlight;
    if (disallowed) st.disallowed++;
    res.once('close', () => {
      st.inFlight--;
    });
    return gap;
  }

  /** Records what was sent. */
  sent(host: string, status: number, bytes: number): void {
    const s = this.hosts.get(host);
    if (!s) return;
    if (status === 429) s.sent429++;
    if (status >= 500) s.sent5xx++;
    s.bytes += bytes;
  }

  reset(): void {
    this.hosts.clear();
  }

  snapshot(): Record<string, HostAudit> {
    const out: Record<string, HostAudit> = {};
    for (const [host, s] of [...this.hosts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const { inFlight: _i, lastStart: _l, ...rest } = s;
      out[host] = rest;
    }
    return out;
  }
}
