/**
 * The per-IP rule, and through it the politeness seam: a rule's settings join the crawl settings,
 * its gate holds every request (robots.txt's too) of the engine and of the deep-web form client.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient } from '../deepweb/client.ts';
import { CrawlEngine } from '../engine.ts';
import { BfsStrategy } from '../index.ts';
import { DEFAULT_SETTINGS, NUMBER_SETTINGS, resolveSettings } from '../settings.ts';
import { RULES } from './index.ts';

/** Six hosts on one loopback server: each page links to ten more of every host, and answers in 30 ms. */
const HOSTS = ['a', 'b', 'c', 'd', 'e', 'f'].map((h) => `${h}.ip.test`);
let server: Server;
let port: number;
let inFlight = 0;
let most = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    setTimeout(() => {
      inFlight--;
      if (req.url === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      const n = Number(/\d+/.exec(req.url ?? '')?.[0] ?? 0);
      const links = HOSTS.flatMap((h) =>
        Array.from({ length: 10 }, (_, k) => `<a href="http://${h}:${port}/p${n * 10 + k + 1}">p</a>`),
      );
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links.join(' ')}</body></html>`);
    }, 30);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const settings = (perIpConcurrency: number) => ({
  startUrls: HOSTS.map((h) => `http://${h}:${port}/`),
  resolve: [`*.ip.test=127.0.0.1:${port}`],
  maxPages: 60,
  concurrency: 12,
  perHostConcurrency: 4,
  delayMs: 0,
  autoThrottle: false,
  perIpConcurrency,
});

describe('per-IP politeness rule', () => {
  it('is a crawl setting declared by its module, with its range, default off', () => {
    expect(RULES.map((r) => r.name)).toContain('per-ip');
    expect(DEFAULT_SETTINGS.perIpConcurrency).toBe(0);
    expect(NUMBER_SETTINGS.find((s) => s.key === 'perIpConcurrency')?.flag).toBe('per-ip');
    expect(() => resolveSettings({ startUrls: ['http://x.test/'], perIpConcurrency: -1 })).toThrow(/perIpConcurrency/);
  });

  it('holds the requests to one address, over all its hosts, to perIpConcurrency', async () => {
    most = 0;
    const free = await CrawlEngine.create({ settings: settings(0), strategy: new BfsStrategy() }).run();
    expect(free.pages).toBe(60);
    // six hosts, four slots each: without the rule the server sees more than two at once
    expect(most).toBeGreaterThan(2);
    most = 0;
    const held = await CrawlEngine.create({ settings: settings(2), strategy: new BfsStrategy() }).run();
    expect(held.pages).toBe(60);
    expect(held.robotsFetches).toBe(6);
    expect(most).toBe(2);
  });

  it('holds the deep-web form client too', async () => {
    most = 0;
    const client = new FormClient({ settings: settings(1) });
    const out = await Promise.all(
      HOSTS.flatMap((h) => [1, 2].map((k) => client.fetch({ method: 'GET', url: `http://${h}:${port}/p${k}` }))),
    );
    await client.close();
    expect(out.every((o) => o.status === 200)).toBe(true);
    expect(most).toBe(1);
  });
});
