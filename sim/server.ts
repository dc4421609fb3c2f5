/**
 * Serves a generated Web over real HTTP with Fastify, bound to 127.0.0.1 only. Virtual hosts
 * by the Host header; robots.txt, redirects (and one loop), spider traps, transient 5xx, slow
 * responses and 429s as configured; a per-host politeness audit kept for the evaluator and
 * exposed at /_sim/audit on the bare address (never on a .test host, so crawlers never see it).
 *
 * A request of the web passes, in Fastify's order: the audit (onRequest: its start stamped, 429
 * to a client faster than the host allows; onSend: what went out; sim/audit.ts), fault injection
 * (preHandler: transient 5xx and slow responses for generated pages), then the handler, which
 * routes by host and path. The admin routes are a prefixed plugin with a host constraint.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { Renderer, type RenderedPage } from './content.ts';
import { effectiveRobots, parseRobots, robotsText, type RobotsRules } from './robots-profiles.ts';
import { hash32, unit } from './web-rng.ts';
import { Kind, type Site, type Web } from './web.ts';
import { listenLoopback, originForm } from './listen.ts';
import { DEFAULT_CACHE_BYTES, PageCache } from './page-cache.ts';
import { AuditBook, auditHooks, type HostAudit } from './audit.ts';
import { DeepSite } from './deepweb/site.ts';
import { geoDelayMs, siteRegion } from './geo.ts';

export type { HostAudit } from './audit.ts';

export interface SimServerOptions {
  /** 0 picks a free port. */
  port?: number;
  /** Turn off transient errors, slow responses and 429s (for tests that need a quiet web). */
  faults?: boolean;
  /** Body of the admin route /_sim/static (the benchmark's static baseline). */
  staticBody?: string;
  /** Bytes of generated pages kept ready to send (0: render every request; see PageCache). */
  cacheBytes?: number;
}

type Robots = RobotsRules;

/** A response of a site: a generated page, or a fixed one (robots.txt, a redirect, 404). */
type RoutedPage = RenderedPage & { location?: string };
/** Where a request leads: a fixed response, or a generated page (-1: none) and the delay faults gave it. */
type Target = { page: RoutedPage } | { id: number; delayMs: number };

const TRANSIENT = [500, 502, 503];
const NOT_FOUND: RoutedPage = {
  status: 404,
  contentType: 'text/html; charset=utf-8',
  body: `<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p><a href="/">home</a></p></body></html>\n`,
};

/** The Host header's name, lowercase, without its port. */
const hostName = (req: FastifyRequest): string => (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
const pathOf = (url: string): string => {
  const qi = url.indexOf('?');
  return qi < 0 ? url : url.slice(0, qi);
};

/** Hosts the admin routes answer on: any but the web's own (.test, with or without a port). */
const ADMIN_HOST = /^(?!.*\.test(:\d+)?$)/i;

export class SimServer {
  readonly web: Web;
  readonly renderer: Renderer;
  readonly app: FastifyInstance;
  port = 0;
  private readonly faults: boolean;
  private readonly staticBody: string;
  private readonly staticPieces: string[];
  private readonly book = new AuditBook();
  private attempts: Uint8Array;
  private readonly robots = new Map<string, { parser: Robots | null; disallowAll: boolean }>();
  /** The web's vertical search sites by host (their record databases are the ground truth). */
  readonly deepSites = new Map<string, DeepSite>();
  private readonly deepRobots = new Map<string, Robots>();
  private readonly regions = new Map<string, string>();
  private readonly targets = new WeakMap<FastifyRequest, Target>();
  private readonly pages: PageCache<WirePage>;

  private constructor(web: Web, opts: SimServerOptions) {
    this.web = web;
    this.renderer = new Renderer(web);
    this.faults = opts.faults ?? true;
    this.staticBody = opts.staticBody ?? '<html><body>static</body></html>';
    this.staticPieces = this.staticBody.match(/[\s\S]{1,8}/g) ?? [];
    this.attempts = new Uint8Array(web.n);
    this.pages = new PageCache(opts.cacheBytes ?? DEFAULT_CACHE_BYTES);
    for (const cfg of web.config.deepweb.sites) {
      this.deepSites.set(cfg.host, new DeepSite(cfg, web.seed));
      this.deepRobots.set(cfg.host, parseRobots(`http://${cfg.host}/robots.txt`, 'User-agent: *\nDisallow: /admin/\n'));
    }
    this.linkDeepSites();
    this.app = Fastify({ logger: false, bodyLimit: 1 << 20, rewriteUrl: originForm });
    // search forms post urlencoded bodies; the deep-web handler parses them itself
    this.app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
    // the admin routes answer on the bare address only (find-my-way's host constraint), never on
    // a .test host: crawlers never see them
    this.app.register((admin, _opts, done) => this.adminRoutes(admin, done), { prefix: '/_sim' });
    auditHooks(this.app, this.book, {
      hostOf: (req) => {
        const host = hostName(req);
        return this.deepSites.has(host) || this.web.siteByHost(host) ? host : null;
      },
      disallowed: (req, host) => this.disallowed(req, host),
      minGapMs: (host) =>
        this.faults ? (this.deepSites.get(host)?.cfg.minGapMs ?? this.web.siteByHost(host)?.minGapMs ?? 0) : 0,
    });
    if (this.faults) this.app.addHook('preHandler', (req, reply, done) => this.injectFaults(req, reply, done));
    this.app.route({ method: ['GET', 'POST'], url: '/*', handler: (req, reply) => this.handle(req, reply) });
  }

  static async start(web: Web, opts: SimServerOptions = {}): Promise<SimServer> {
    const s = new SimServer(web, opts);
    s.renderer.warm();
    s.port = await listenLoopback(s.app, opts.port);
    return s;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    await this.app.close();
  }

  /** Forget audit counters and per-page attempt counts (between experiment runs). */
  reset(): void {
    this.book.reset();
    this.attempts.fill(0);
  }

  audit(): Record<string, HostAudit> {
    return this.book.snapshot();
  }

  /** An undici dispatcher that sends every request, whatever its host, to this server. */
  dispatcher(options: Agent.Options = {}): Dispatcher {
    return simDispatcher(this.port, options);
  }

  /** Directory sites' home pages list the search sites (every one of them, so each is reachable). */
  private linkDeepSites(): void {
    if (!this.deepSites.size) return;
    const items = [...this.deepSites.values()].map(
      (d) => `<li>Search service: <a href="http://${d.host}/">${d.cfg.kind} search at ${d.host}</a></li>`,
    );
    const homes = this.web.sites.filter((s) => s.kind === 'directory').map((s) => s.first);
    // a web without directory sites links them from the first department's home instead
    for (const home of homes.length ? homes : [this.web.sites[0].first]) this.renderer.extraItems.set(home, items);
  }

  private deep(req: FastifyRequest, reply: FastifyReply, d: DeepSite, host: string): void {
    const url = req.url;
    const qi = url.indexOf('?');
    const path = qi < 0 ? url : url.slice(0, qi);
    let params: URLSearchParams;
    if (req.method === 'POST') {
      const b = req.body;
      params = new URLSearchParams(
        typeof b === 'string' ? b : b && typeof b === 'object' ? (b as Record<string, string>) : '',
      );
    } else params = new URLSearchParams(qi < 0 ? '' : url.slice(qi + 1));
    const page = d.handle(req.method, path, params);
    const body = wireBody(page.body);
    const send = (): void => {
      reply.code(page.status).header('content-type', page.contentType);
      for (const [k, v] of Object.entries(page.headers ?? {})) reply.header(k, v);
      reply.send(body);
    };
    const delay = this.geoDelay(req, host, body.length);
    if (delay > 0) setTimeout(send, delay);
    else send();
  }

  /** The region a host sits in (ground truth of geography; crawlers get it as a GeoIP-like table). */
  regionOf(host: string): string {
    let r = this.regions.get(host);
    if (!r) this.regions.set(host, (r = siteRegion(this.web.config, this.web.seed, host)));
    return r;
  }

  /** How long the response to this request travels from the host's region to the crawler's. */
  private geoDelay(req: FastifyRequest, host: string, bytes: number): number {
    const from = req.headers['x-crawler-region'];
    return typeof from === 'string' ? geoDelayMs(this.web.config, from, this.regionOf(host), bytes) : 0;
  }

  private robotsOf(site: Site): { parser: Robots | null; disallowAll: boolean } {
    let r = this.robots.get(site.host);
    if (!r) {
      const eff = effectiveRobots(site.robots);
      r = {
        parser: eff.body ? parseRobots(`http://${site.host}/robots.txt`, eff.body) : null,
        disallowAll: eff.disallowAll,
      };
      this.robots.set(site.host, r);
    }
    return r;
  }

  /** Whether the host's robots.txt disallows the request (robots.txt itself never is). */
  private disallowed(req: FastifyRequest, host: string): boolean {
    const path = pathOf(req.url);
    const ua = String(req.headers['user-agent'] ?? '');
    const deep = this.deepRobots.get(host);
    if (deep) return path !== '/robots.txt' && !!deep.isDisallowed(`http://${host}${req.url}`, ua);
    if (path === '/robots.txt' || path === '/robots-moved.txt') return false;
    const rb = this.robotsOf(this.web.siteByHost(host)!);
    return rb.disallowAll || !!rb.parser?.isDisallowed(`http://${host}${req.url}`, ua);
  }

  /** Where a request of a site's host leads (resolved once per request: the fault hook and the handler share it). */
  private targetOf(req: FastifyRequest, site: Site): Target {
    let t = this.targets.get(req);
    if (!t) {
      const path = pathOf(req.url);
      const fixed = this.fixedRoute(site, path, req.url);
      t = fixed ? { page: fixed } : { id: this.pageId(site, path), delayMs: 0 };
      this.targets.set(req, t);
    }
    return t;
  }

  /**
   * Fault injection (preHandler): a generated page's attempt may be answered 500, 502 or 503
   * (503 with Retry-After), or slowly, decided by (seed, page, attempt) so that a web serves the
   * same faults to the same sequence of requests.
   */
  private injectFaults(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const site = this.web.siteByHost(hostName(req));
    if (!site) return done();
    const t = this.targetOf(req, site);
    if (!('id' in t) || t.id < 0) return done();
    const web = this.web;
    const f = web.config.faults;
    const attempt = this.attempts[t.id] < 255 ? this.attempts[t.id]++ : 255;
    if (unit(web.seed, t.id, attempt, 31) < f.transientErrorRate) {
      const status = TRANSIENT[hash32(web.seed, t.id, attempt, 32) % 3];
      const body = wireBody('temporary failure\n');
      const send = (): void => {
        reply.code(status).header('content-type', 'text/plain');
        if (status === 503) reply.header('retry-after', String(f.retryAfterSec));
        reply.send(body);
      };
      // the error travels like any response: as far as the crawler's region is from the site's
      const delay = this.geoDelay(req, site.host, body.length);
      if (delay > 0) setTimeout(send, delay);
      else send();
      return;
    }
    if (unit(web.seed, t.id, 33) < f.slowRate && web.kind[t.id] !== Kind.Home) t.delayMs = f.slowMs;
    done();
  }

  /**
   * A generated page as the server sends it, faults aside: from the page cache, or rendered and
   * kept there. An experiment's training reads its pages here, so each is rendered once per server.
   */
  page(id: number): WirePage {
    return this.generated(id);
  }

  /** A generated page as sent: from the cache, or rendered and kept there. */
  private generated(id: number): WirePage {
    return this.pages.get(id) ?? this.pages.put(id, wirePage(this.renderer.render(id)));
  }

  private handle(req: FastifyRequest, reply: FastifyReply): void {
    const host = hostName(req);
    if (!host.endsWith('.test')) return this.adminNotFound(reply);
    const deep = this.deepSites.get(host);
    if (deep) return this.deep(req, reply, deep, host);
    const site = this.web.siteByHost(host);
    if (!site) {
      reply.code(404).type('text/plain').send(`unknown host ${host}\n`);
      return;
    }
    const t = this.targetOf(req, site);
    const page: WirePage = 'page' in t ? wirePage(t.page) : t.id < 0 ? NOT_FOUND_WIRE : this.generated(t.id);
    const slow = 'id' in t ? t.delayMs : 0;
    const body = page.body;
    const send = (): void => {
      reply.code(page.status).header('content-type', page.contentType);
      if (page.location) reply.header('location', page.location);
      if (page.refresh) reply.header('refresh', page.refresh);
      reply.send(body);
    };
    const delay = slow + this.geoDelay(req, host, body.length);
    if (delay > 0) setTimeout(send, delay);
    else send();
  }

  /** The paths a site answers without a generated page: robots.txt, redirects, the loop, the calendar trap. */
  private fixedRoute(site: Site, path: string, rawUrl: string): RoutedPage | null {
    const web = this.web;
    if (path === '/robots.txt') {
      const r = robotsText(site.robots);
      return { status: r.status, contentType: 'text/plain; charset=utf-8', body: r.body, location: r.location };
    }
    if (path === '/robots-moved.txt' && site.robots === 'redirect')
      return { status: 200, contentType: 'text/plain', body: effectiveRobots('redirect').body };
    if (path === '/loop/a.html') return { status: 302, contentType: 'text/html', body: '', location: '/loop/b.html' };
    if (path === '/loop/b.html') return { status: 302, contentType: 'text/html', body: '', location: '/loop/a.html' };
    const cal = /^\/events\/calendar\/(\d{1,6})\/(\d{1,2})\/$/.exec(path);
    if (cal && site.kind === 'department') {
      const m = Number(cal[2]);
      if (m >= 1 && m <= 12) return this.renderer.calendar(site.host, Number(cal[1]), m);
    }
    if (path.startsWith('/old/'))
      return {
        status: 302,
        contentType: 'text/html',
        body: '',
        location: path.slice(4) + (rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?')) : ''),
      };
    // a home directory without its slash (/~login, /people/login: the site's convention) is moved
    if (/\/~?[a-z]+\d+$/.test(path)) {
      const id = this.renderer.resolve(site.host, `${path}/`);
      const k = id >= 0 ? web.kind[id] : -1;
      if (k === Kind.Faculty || k === Kind.Student)
        return { status: 301, contentType: 'text/html', body: '', location: `${path}/` };
    }
    return null;
  }

  /** The generated page at a path of a site, or -1. */
  private pageId(site: Site, path: string): number {
    try {
      return this.renderer.resolve(site.host, decodeURIComponent(path));
    } catch {
      return -1;
    }
  }

  private adminRoutes(admin: FastifyInstance, done: (err?: Error) => void): void {
    const constraints = { host: ADMIN_HOST };
    const html = 'text/html; charset=utf-8';
    admin.get('/static', { constraints }, (_req, reply) => reply.type(html).send(this.staticBody));
    // the static body assembled from 8-byte pieces on every request and sent as generated pages
    // are: what building any page costs before a single word of it is chosen
    admin.get('/fresh', { constraints }, (_req, reply) => reply.type(html).send(wireBody(this.staticPieces.join(''))));
    admin.get('/audit', { constraints }, (_req, reply) => reply.send(this.audit()));
    admin.get('/hosts', { constraints }, (_req, reply) =>
      reply.send([
        ...this.web.sites.map((s) => ({
          host: s.host,
          kind: s.kind,
          pages: s.count,
          robots: s.robots,
          region: this.regionOf(s.host),
        })),
        ...[...this.deepSites.values()].map((d) => ({ host: d.host, kind: `search:${d.cfg.kind}`, records: d.db.n })),
      ]),
    );
    admin.post('/reset', { constraints }, (_req, reply) => {
      this.reset();
      reply.send({ ok: true });
    });
    done();
  }

  /** Any other request on the bare address. */
  private adminNotFound(reply: FastifyReply): void {
    reply
      .code(404)
      .type('text/plain')
      .send('admin routes: /_sim/audit, /_sim/hosts, POST /_sim/reset, /_sim/static, /_sim/fresh\n');
  }
}

/** A response ready for the socket: its body already encoded. */
export type WirePage = RoutedPage & { body: Buffer };

const wirePage = (p: RoutedPage): WirePage => ({ ...p, body: wireBody(p.body) });
const NOT_FOUND_WIRE = wirePage(NOT_FOUND);

/**
 * The bytes of a response body. Sockets write a Buffer far faster than a string (a string is
 * transcoded inside writev, and Fastify measures its byte length first); a string that is all
 * ASCII, the common case, copies straight across as latin1.
 */
function wireBody(body: string | Buffer): Buffer {
  if (typeof body !== 'string') return body;
  return Buffer.byteLength(body, 'utf8') === body.length ? Buffer.from(body, 'latin1') : Buffer.from(body, 'utf8');
}

/** An undici Agent that connects every origin to 127.0.0.1:port (like curl --resolve '*:port'). */
export function simDispatcher(port: number, options: Agent.Options = {}): Dispatcher {
  const connect = buildConnector({});
  return new Agent({
    ...options,
    connect: (opts, cb) =>
      connect({ ...opts, hostname: '127.0.0.1', host: `127.0.0.1:${port}`, port: String(port) }, cb),
  });
}
