/**
 * The politeness audit a server keeps per host, for the evaluator: requests, most requests in
 * flight at once, the smallest gap between request starts, requests to paths robots.txt
 * disallows for the requesting agent, 429s and 5xx sent, bytes. Shared by the synthetic web's
 * server and the WARC replay server, each of which installs it as Fastify hooks (auditHooks):
 * onRequest stamps the request's start (and answers 429 to a client faster than its host
 * allows), onSend records what went out, so no route can forget either.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

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

/** What a server tells the audit hooks about a request. */
export interface AuditPolicy {
  /** The audited host a request is for; null: not audited (admin routes, unknown hosts). */
  hostOf(req: FastifyRequest): string | null;
  /** Whether the host's robots.txt disallows the request for its user agent. */
  disallowed(req: FastifyRequest, host: string): boolean | Promise<boolean>;
  /**
   * The gap a host wants between request starts, ms: a client closer than 90% of it gets 429 and
   * Retry-After (10% grace: the server's clock reads late when its event loop is busy, and a
   * polite client must not pay for it). 0: no limit.
   */
  minGapMs?(host: string): number;
}

const AUDITED = new WeakMap<FastifyRequest, string>();

/** Installs the audit as hooks on every route of `app` (the admin routes are not audited: hostOf says null). */
export function auditHooks(app: FastifyInstance, book: AuditBook, policy: AuditPolicy): void {
  // callback hooks, not async ones: every request of the web passes here, and a promise per
  // request and hook is measurable in bench:sim
  app.addHook('onRequest', (req, reply, done) => {
    const host = policy.hostOf(req);
    if (host === null) return done();
    AUDITED.set(req, host);
    const stamp = (disallowed: boolean): void => {
      const gap = book.begin(host, disallowed, reply.raw);
      const minGap = policy.minGapMs?.(host) ?? 0;
      if (minGap > 0 && gap < minGap * 0.9)
        reply
          .code(429)
          .header('retry-after', String(Math.max(1, Math.ceil(minGap / 1000))))
          .type('text/plain')
          .send('slow down\n');
      else done();
    };
    const d = policy.disallowed(req, host);
    if (typeof d === 'boolean') stamp(d);
    else d.then(stamp, done);
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    const host = AUDITED.get(req);
    if (host !== undefined) book.sent(host, reply.statusCode, payloadBytes(payload));
    done(null, payload);
  });
}

/** Bytes of a body as Fastify hands it to onSend (a Buffer, a string, or nothing). */
function payloadBytes(payload: unknown): number {
  if (Buffer.isBuffer(payload)) return payload.length;
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  return 0;
}
