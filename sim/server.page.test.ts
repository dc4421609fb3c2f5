/** SimServer.page: what training reads is what the server sends, rendered once. */
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
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
});
