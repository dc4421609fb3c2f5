import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { resolveConfig, ROBOTS_PROFILES } from '../sim/config.ts';
import { Renderer } from '../sim/content.ts';
import { Kind, type Web } from '../sim/web.ts';
import { get, startWeb } from './helpers.ts';

const PROFILES = ROBOTS_PROFILES;
const config = resolveConfig({
  name: 'profiles',
  departments: PROFILES.map((robots, i) => ({
    host: `${robots}.edu.test`,
    name: robots,
    pages: 400,
    groups: 2,
    robots,
    charset: i === 2 ? 'iso-8859-1' : i === 4 ? 'windows-1252' : 'utf-8',
    sessionIds: i === 1,
    minGapMs: robots === 'crawl-delay' ? 1000 : 0,
  })),
  background: { sites: 4 },
  // what is served is this file's subject: one template keeps every kind of page on every host
  structure: { conventions: 0 },
  faults: { transientErrorRate: 0, slowRate: 0, malformedRate: 0.2, oversizedRate: 0.01, oversizedBytes: 200_000 },
});

let env: Awaited<ReturnType<typeof startWeb>>;
let web: Web;
let r: Renderer;
const find = (host: string, kind: number, pred: (id: number) => boolean = () => true): number => {
  const s = web.siteByHost(host)!;
  for (let id = s.first; id < s.first + s.count; id++) if (web.kind[id] === kind && pred(id)) return id;
  throw new Error(`no page of kind ${kind} on ${host}`);
};

beforeAll(async () => {
  env = await startWeb(config, 1);
  web = env.web;
  r = new Renderer(web);
});
afterAll(async () => env.close());

describe('robots.txt per host', () => {
  it('serves each profile', async () => {
    const std = await get(env.http, 'http://standard.edu.test/robots.txt');
    expect(std.status).toBe(200);
    expect(String(std.body)).toContain('Disallow: /admin/private/');
    expect(String((await get(env.http, 'http://trap-blocked.edu.test/robots.txt')).body)).toContain(
      'Disallow: /events/',
    );
    const tricky = String((await get(env.http, 'http://tricky.edu.test/robots.txt')).body);
    expect(tricky).toContain('Allow: /admin/forms/');
    expect(tricky).toContain('Disallow: /*.jpg$');
    expect(String((await get(env.http, 'http://crawl-delay.edu.test/robots.txt')).body)).toContain('Crawl-delay: 2');
    expect(String((await get(env.http, 'http://crawl-delay-long.edu.test/robots.txt')).body)).toContain(
      'Crawl-delay: 60',
    );
    expect((await get(env.http, 'http://missing.edu.test/robots.txt')).status).toBe(404);
    expect((await get(env.http, 'http://error.edu.test/robots.txt')).status).toBe(503);
    const red = await get(env.http, 'http://redirect.edu.test/robots.txt');
    expect(red.status).toBe(301);
    expect(red.headers.location).toBe('/robots-moved.txt');
    expect(String((await get(env.http, 'http://redirect.edu.test/robots-moved.txt')).body)).toContain(
      'Disallow: /moved-private/',
    );
  });
});

describe('faults and page kinds', () => {
  it('404 for unknown paths and hosts', async () => {
    expect((await get(env.http, 'http://standard.edu.test/no/such/page.html')).status).toBe(404);
    expect((await get(env.http, 'http://standard.edu.test/people/x-999999.html')).status).toBe(404);
    expect((await get(env.http, 'http://nowhere.test/')).status).toBe(404);
  });

  it('301 for a homepage without its slash, 302 for /old/ paths, and a redirect loop', async () => {
    const fac = find('standard.edu.test', Kind.Faculty);
    const p = r.path(fac);
    const a = await get(env.http, `http://standard.edu.test${p.slice(0, -1)}`);
    expect(a.status).toBe(301);
    expect(a.headers.location).toBe(p);
    const b = await get(env.http, `http://standard.edu.test/old${p}`);
    expect(b.status).toBe(302);
    expect(b.headers.location).toBe(p);
    expect((await get(env.http, 'http://standard.edu.test/loop/a.html')).headers.location).toBe('/loop/b.html');
    expect((await get(env.http, 'http://standard.edu.test/loop/b.html')).headers.location).toBe('/loop/a.html');
  });

  it('serves text/html in UTF-8, ISO-8859-1 (header) and windows-1252 (meta only)', async () => {
    const utf = await get(env.http, 'http://standard.edu.test/');
    expect(utf.headers['content-type']).toBe('text/html; charset=utf-8');
    const latin = await get(env.http, 'http://tricky.edu.test/');
    expect(latin.headers['content-type']).toBe('text/html; charset=iso-8859-1');
    const win = await get(env.http, 'http://crawl-delay-long.edu.test/faculty/');
    expect(win.headers['content-type']).toBe('text/html');
    expect(String(win.body)).toContain('charset=windows-1252');

    // a Latin-1 name is one byte on the wire, not UTF-8's two
    const s = web.siteByHost('tricky.edu.test')!;
    let found = false;
    for (let id = s.first; id < s.first + s.count && !found; id++) {
      if (web.kind[id] !== Kind.Faculty && web.kind[id] !== Kind.Student) continue;
      const name = `${r.name(id).first} ${r.name(id).last}`;
      if (!/[\u0080-\u00ff]/.test(name)) continue;
      const res = await get(env.http, `http://tricky.edu.test${r.path(id)}`);
      expect(res.body.includes(Buffer.from(name, 'latin1'))).toBe(true);
      expect(res.body.includes(Buffer.from(name, 'utf8'))).toBe(false);
      found = true;
    }
    expect(found).toBe(true);
  });

  it('sends a UTF-8 page as its UTF-8 bytes, with and without non-ASCII text', async () => {
    // the server sends all-ASCII strings through a faster latin1 copy; both kinds must arrive intact
    const s = web.siteByHost('standard.edu.test')!;
    const kinds = { ascii: -1, other: -1 };
    for (let id = s.first; id < s.first + s.count && (kinds.ascii < 0 || kinds.other < 0); id++) {
      const body = r.render(id).body;
      if (typeof body !== 'string' || body.length > 100_000) continue;
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at NUL
      if (/[^\x00-\x7f]/.test(body)) kinds.other = id;
      else kinds.ascii = id;
    }
    expect(kinds.ascii).toBeGreaterThanOrEqual(0);
    expect(kinds.other).toBeGreaterThanOrEqual(0);
    for (const id of [kinds.ascii, kinds.other]) {
      const res = await get(env.http, `http://standard.edu.test${r.path(id)}`);
      expect(res.body.equals(Buffer.from(r.render(id).body as string, 'utf8'))).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
    }
  });

  it('serves papers as application/pdf and application/postscript, and images', async () => {
    const pdf = find('standard.edu.test', Kind.Paper, (id) => web.aux[id] === 0);
    const ps = find('standard.edu.test', Kind.Paper, (id) => web.aux[id] === 1);
    const img = find('standard.edu.test', Kind.Image);
    expect((await get(env.http, `http://standard.edu.test${r.path(pdf)}`)).headers['content-type']).toBe(
      'application/pdf',
    );
    expect((await get(env.http, `http://standard.edu.test${r.path(ps)}`)).headers['content-type']).toBe(
      'application/postscript',
    );
    const im = await get(env.http, `http://standard.edu.test${r.path(img)}`);
    expect(im.headers['content-type']).toBe('image/jpeg');
    expect(im.body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('serves malformed and oversized pages', async () => {
    const s = web.siteByHost('standard.edu.test')!;
    let malformed = 0;
    let oversized = 0;
    for (let id = s.first; id < s.first + s.count; id++) {
      if (!web.isHtml(id)) continue;
      const body = r.render(id).body;
      if (String(body).startsWith('<HTML><HEAD>')) malformed++;
      if (body.length >= 200_000) oversized++;
    }
    expect(malformed).toBeGreaterThan(20);
    expect(oversized).toBeGreaterThan(0);
  });

  it('has spider traps: an infinite calendar and session-id variants of one page', async () => {
    const cal = await get(env.http, 'http://standard.edu.test/events/calendar/2999/12/');
    expect(cal.status).toBe(200);
    expect(String(cal.body)).toContain('href="/events/calendar/3000/1/"');
    const home = String((await get(env.http, 'http://trap-blocked.edu.test/')).body);
    const sids = [...home.matchAll(/href="([^"]*\?sid=[0-9a-f]+)"/g)].map((m) => m[1]);
    expect(sids.length).toBeGreaterThan(2);
    const path = sids[0].replace(/^http:\/\/[^/]+/, '');
    const a = await get(env.http, `http://trap-blocked.edu.test${path}`);
    const b = await get(env.http, `http://trap-blocked.edu.test${path.replace(/sid=[0-9a-f]+/, 'sid=ffff')}`);
    expect(a.status).toBe(200);
    expect(a.body.equals(b.body)).toBe(true);
  });

  it('answers 429 with Retry-After to a client that exceeds the host rate', async () => {
    await get(env.http, 'http://crawl-delay.edu.test/');
    const fast = await get(env.http, 'http://crawl-delay.edu.test/');
    expect(fast.status).toBe(429);
    expect(fast.headers['retry-after']).toBe('1');
  });
});

describe('transient errors and slow responses', () => {
  it('fails at the configured rate and a retry of the same page can succeed', async () => {
    const e = await startWeb(
      resolveConfig({
        ...JSON.parse(JSON.stringify(config)),
        faults: { ...config.faults, transientErrorRate: 0.3, slowRate: 0 },
      }),
      1,
    );
    try {
      const rr = new Renderer(e.web);
      const s = e.web.siteByHost('standard.edu.test')!;
      let errors = 0;
      let total = 0;
      let recovered = 0;
      for (let id = s.first; id < s.first + 200; id++) {
        total++;
        const res = await get(e.http, `http://standard.edu.test${rr.path(id)}`);
        if (res.status >= 500) {
          errors++;
          for (let k = 0; k < 10; k++)
            if ((await get(e.http, `http://standard.edu.test${rr.path(id)}`)).status === 200) {
              recovered++;
              break;
            }
        }
      }
      expect(errors / total).toBeGreaterThan(0.18);
      expect(errors / total).toBeLessThan(0.42);
      expect(recovered).toBe(errors);
      expect(e.server.audit()['standard.edu.test'].sent5xx).toBeGreaterThanOrEqual(errors);
    } finally {
      await e.close();
    }
  });

  it('delays slow responses by slowMs', async () => {
    const e = await startWeb(
      resolveConfig({
        ...JSON.parse(JSON.stringify(config)),
        faults: { ...config.faults, transientErrorRate: 0, slowRate: 0.5, slowMs: 150 },
      }),
      1,
    );
    try {
      const rr = new Renderer(e.web);
      const times: number[] = [];
      for (let id = 1; id < 20; id++) times.push((await get(e.http, rr.url(id))).ms);
      expect(times.filter((t) => t >= 145).length).toBeGreaterThan(3);
      expect(times.filter((t) => t < 100).length).toBeGreaterThan(3);
      // concurrent requests to a slow page overlap, and the audit sees it
      const slow = [...Array(20).keys()].slice(1).find((i) => times[i - 1] >= 145)!;
      e.server.reset();
      await Promise.all(Array.from({ length: 4 }, () => get(e.http, rr.url(slow))));
      const host = e.web.sites[e.web.siteOf[slow]].host;
      expect(e.server.audit()[host].maxConcurrent).toBe(4);
    } finally {
      await e.close();
    }
  });
});

describe('politeness audit', () => {
  it('counts requests, concurrency, gaps, disallowed paths and 429s per host', async () => {
    env.server.reset();
    await Promise.all(Array.from({ length: 6 }, () => get(env.http, 'http://standard.edu.test/')));
    await get(env.http, 'http://standard.edu.test/admin/private/secret.html');
    await get(env.http, 'http://tricky.edu.test/images/x-1.jpg');
    await get(env.http, 'http://tricky.edu.test/admin/forms/x-1.pdf'); // allowed by the longer Allow
    await get(env.http, 'http://error.edu.test/');
    await get(env.http, 'http://missing.edu.test/admin/private/x.html'); // no robots.txt: allowed
    await new Promise((res) => setTimeout(res, 120));
    await get(env.http, 'http://missing.edu.test/');
    await get(env.http, 'http://crawl-delay.edu.test/');
    await get(env.http, 'http://crawl-delay.edu.test/');
    const a = env.server.audit();
    expect(a['standard.edu.test'].requests).toBe(7);
    expect(a['standard.edu.test'].disallowed).toBe(1);
    expect(a['tricky.edu.test'].disallowed).toBe(1);
    expect(a['error.edu.test'].disallowed).toBe(1);
    expect(a['missing.edu.test'].disallowed).toBe(0);
    expect(a['missing.edu.test'].minGapMs).toBeGreaterThanOrEqual(100);
    expect(a['crawl-delay.edu.test'].sent429).toBe(1);
    // the same numbers at the admin route on the bare address
    const res = await request(`${env.server.origin}/_sim/audit`);
    expect((await res.body.json()) as object).toEqual(JSON.parse(JSON.stringify(a)));
    // never on a .test host (with or without a port): there the path is an ordinary missing page
    for (const host of ['standard.edu.test', 'standard.edu.test:8080']) {
      const onSite = await env.server.app.inject({ url: '/_sim/audit', headers: { host } });
      expect(onSite.statusCode, host).toBe(404);
      expect(onSite.body, host).not.toContain('requests');
    }
    const wrongMethod = await env.server.app.inject({
      method: 'GET',
      url: '/_sim/reset',
      headers: { host: '127.0.0.1' },
    });
    expect(wrongMethod.statusCode).toBe(404);
    expect(wrongMethod.body).toContain('admin routes');
  });
});
