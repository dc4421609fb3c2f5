import { readFileSync } from 'node:fs';
import { resolveConfig } from '../sim/config.ts';
import { Renderer } from '../sim/content.ts';
import { structureStats } from '../sim/structure.ts';
import { Web } from '../sim/web.ts';
const base = JSON.parse(readFileSync('data/webs/small.json', 'utf8'));
for (const over of [{ conventions: 0 }, { conventions: 1 }, { conventions: 0, extraWeight: 1 }, { gapMin: 3, gapMax: 4, directGroupShare: 0, bypass: { navBar: false, peopleDirectory: false, extraLinks: false } }]) {
  const raw = structuredClone(base); raw.structure = { ...(raw.structure ?? {}), ...over };
  if ((over as any).extraWeight) raw.structure.papersFrom = { extraWeight: 1 }, delete raw.structure.extraWeight;
  const web = new Web(resolveConfig(raw), 1);
  const s = structureStats(web, new Renderer(web));
  console.log(JSON.stringify(over), s.gapHistogram, s.gapMin, s.templateJaccard, s.anchorDistance, s.transferPrecision, s.transferRecall, s.sites.map((x) => x.directLinkShare + '/' + x.relevantLinksFromOutside).join(' '));
}
