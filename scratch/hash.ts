import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolveConfig } from '../sim/config.ts';
import { Renderer } from '../sim/content.ts';
import { Web } from '../sim/web.ts';
const legacy = { conventions: 0, papersFrom: { extraWeight: 1 } };
for (const [f, s] of [['data/webs/small.json', 1], ['data/webs/paper.json', 2]] as const) {
  const raw = JSON.parse(readFileSync(f, 'utf8'));
  raw.structure = { ...(raw.structure ?? {}), ...legacy };
  const web = new Web(resolveConfig(raw), s);
  const r = new Renderer(web);
  const h = createHash('sha256');
  for (let id = 0; id < web.n; id++) { const p = r.render(id); h.update(r.url(id)); h.update(String(p.status)); h.update(p.contentType); h.update(typeof p.body === 'string' ? p.body : p.body); }
  console.log(f, s, web.n, h.digest('hex'));
}
