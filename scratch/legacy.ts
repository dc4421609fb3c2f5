import { readFileSync } from 'node:fs';
import { resolveConfig } from '../sim/config.ts';
import { Renderer } from '../sim/content.ts';
import { structureStats } from '../sim/structure.ts';
import { Web } from '../sim/web.ts';
for (const [name, over] of [['legacy', { conventions: 0, papersFrom: { extraWeight: 1 } }], ['default', {}]] as const) {
  const raw = JSON.parse(readFileSync('data/webs/paper.json', 'utf8'));
  raw.structure = over;
  const web = new Web(resolveConfig(raw), 1);
  const s = structureStats(web, new Renderer(web));
  const m = (k: 'directLinkShare' | 'relevantLinksFromOutside') => (s.sites.reduce((a, x) => a + x[k], 0) / s.sites.length).toFixed(3);
  console.log(name, JSON.stringify(s.gapHistogram), s.gapMin, 'direct', m('directLinkShare'), 'outside', m('relevantLinksFromOutside'), 'jac', s.templateJaccard, 'anchorTV', s.anchorDistance, 'leak', s.transferPrecision, s.transferRecall);
}
