/**
 * Serves WARC archives over HTTP with Fastify on 127.0.0.1, like the synthetic web's server:
 * every archived response at its original URL under its original host (virtual hosts by the
 * Host header, so crawlers reach it through --resolve), with its archived status and headers;
 * URLs not in the archive give 404; under an ArchiveWeb policy (sim/archive-web.ts) known documents
 * are served as placeholders and, with closed holes, links to holes are not offered. The politeness audit is kept by the same hooks
 * (sim/audit.ts), robots.txt rules taken from the archived robots.txt of each host. Admin
 * routes on the bare address.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Agent, Dispatcher } from 'undici';
import { listenLoopback, originForm } from './listen.ts';
import { AuditBook, auditHooks, type HostAudit } from './audit.ts';
import { parseRobots, type RobotsRules } from './robots-profiles.ts';
import { simDispatcher } from './server.ts';
import { ArchiveWeb } from './archive-web.ts';
import type { WarcArchive } from './warc-index.ts';

const ADMIN_HOSTS = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

export class ReplayServer {
  readonly app: FastifyInstance;
  port = 0;
  private readonly book = new AuditBook();
  private readonly robots = new Map<string, Promise<RobotsRules | null>>();

  readonly archive: WarcArchive;

  private constructor(readonly web: ArchiveWeb) {
    this.archive = web.archive;
    this.app = Fastify({ logger: false, rewriteUrl: originForm });
    auditHooks(this.app, this.book, {
      hostOf: (req) => {
        const host = (req.headers.host ?? '').toLowerCase();
        return !host || ADMIN_HOSTS.test(host) ? null : host.replace(/:80$/, '');
      },
      disallowed: async (req, host) => {
        if (req.url.split('?')[0] === '/robots.txt') return false;
        const rules = await this.rulesFor(host);
        return !!rules?.isDisallowed(`http://${host}${req.url}`, String(req.headers['user-agent'] ?? ''));
      },
    });
    this.app.route({ method: ['GET'], url: '/*', handler: (req, reply) => this.handle(req, reply) });
  }

  static async start(archive: WarcArchive | ArchiveWeb, opts: { port?: number } = {}): Promise<ReplayServer> {
    const s = new ReplayServer(archive instanceof ArchiveWeb ? archive : await ArchiveWeb.open(archive));
    s.port = await listenLoopback(s.app, opts.port);
    return s;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  audit(): Record<string, HostAudit> {
    return this.book.snapshot();
  }

  reset(): void {
    this.book.reset();
  }

  dispatcher(options: Agent.Options = {}): Dispatcher {
    return simDispatcher(this.port, options);
  }

  async close(): Promise<void> {
    await this.app.close();
  }

  private rulesFor(host: string): Promise<RobotsRules | null> {
    let r = this.robots.get(host);
    if (!r) {
      r = this.archive
        .get(`http://${host}/robots.txt`)
        .then((res) =>
          res && res.status >= 200 && res.status < 300
            ? parseRobots(`http://${host}/robots.txt`, res.body.toString('utf8'))
            : null,
        )
        .catch(() => null);
      this.robots.set(host, r);
    }
    return r;
  }

  private async handle(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (!hostHeader || ADMIN_HOSTS.test(hostHeader)) return this.admin(req, reply);
    const host = hostHeader.replace(/:80$/, '');
    let res = await this.web.get(`http://${host}${req.url}`);
    res ??= await this.web.get(`https://${host}${req.url}`);
    if (!res) {
      reply.code(404).type('text/plain').send('not in the archive\n');
      return;
    }
    reply.code(res.status);
    for (const [k, v] of res.headers) reply.header(k, v);
    reply.send(res.body);
  }

  private admin(req: FastifyRequest, reply: FastifyReply): void {
    const path = req.url.split('?')[0];
    if (path === '/_sim/audit') return void reply.send(this.audit());
    if (path === '/_sim/hosts')
      return void reply.send(this.archive.hosts().map((host) => ({ host, urls: this.archive.urls(host).length })));
    reply.code(404).type('text/plain').send('admin routes: /_sim/audit, /_sim/hosts\n');
  }
}
