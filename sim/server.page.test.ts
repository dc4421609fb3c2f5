/** SimServer.page: what training reads is what the server sends, rendered once. */
import { connect } from 'node:net';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { originForm } from './listen.ts';
import { SimServer } from './server.ts';
import { Web } from './web.ts';

describe('SimServer.page', () => {
  const web = new Web(loadConfig('data/webs/small.json'), 1);
  const started = SimServer.start(web, { faults: false });
  afterAll(async () => (await started).close());

  it('gives the bytes and type a crawler receives, and keeps the page it rendered', async () => {
    const server = await started;
    const site = web.sites.find((s) => s.kind === 'department')!;
    for (const id of [site.first, site.first + 1, site.first + Math.floor(site.count / 2)]) {
      const p = server.page(id);
      expect(server.page(id)).toBe(p); // from the cache the second time
      const url = server.renderer.url(id);
      const res = await request(url, { dispatcher: server.dispatcher() });
      const body = Buffer.from(await res.body.arrayBuffer());
      expect(res.statusCode).toBe(p.status);
      expect(res.headers['content-type']).toBe(p.contentType);
      expect(body.equals(p.body)).toBe(true);
    }
  });

  it('answers a request in absolute form, as a client through a proxy sends it (wget -e http_proxy=...)', async () => {
    const server = await started;
    const site = web.sites.find((s) => s.kind === 'department')!;
    const url = server.renderer.url(site.first);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () =>
        socket.write(`GET ${url} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (b) => {
        text += b.toString('latin1');
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw.split('\r\n')[0]).toBe(`HTTP/1.1 ${server.page(site.first).status} OK`);
    expect(raw).toContain(server.page(site.first).body.subarray(0, 64).toString('latin1'));
    expect(originForm({ url: 'http://a.test/x/y?q=1' })).toBe('/x/y?q=1');
    expect(originForm({ url: '/x' })).toBe('/x');
  });
});
