import { loadConfig, resolveConfig } from './sim/config.ts';
import { Web } from './sim/web.ts';
import { SimServer } from './sim/server.ts';
import { FormClient, discoverForms, SurfaceSession, isit, cartesian, probe, cartesianSize } from './crawler/deepweb/index.ts';
const records = Number(process.argv[2] ?? 10000);
const raw = JSON.parse((await import('node:fs')).readFileSync('data/webs/deepweb.json','utf8'));
for (const s of raw.deepweb.sites) s.records = records;
const web = new Web(resolveConfig(raw), 1);
const server = await SimServer.start(web, { faults: false });
const kw: Record<string,string[]> = { jobs: ['engineer','software','manager','database','network','sales','design','security','teacher','finance'], catalogue: ['learning','database','network','security','graphics','compiler','algorithm','kernel','interface','processor'] };
for (const [host, site] of server.deepSites) {
  for (const method of ['isit','cartesian','adaptive','generic']) {
    if (site.cfg.kind==='flights' && (method==='adaptive'||method==='generic')) continue;
    const client = new FormClient({ settings: { seeds: [`http://${host}/`], delayMs: 0, autoThrottle: false, concurrency: 1 }, dispatcher: server.dispatcher() });
    const d = await discoverForms(client, `http://${host}/`);
    const { form, template } = d.forms[0];
    const session = new SurfaceSession(client, form, template, 3000);
    const tv = { q: kw[site.cfg.kind] ?? [] };
    const t0 = performance.now();
    let info = '';
    if (method === 'isit') { const r = await isit(session, { textValues: tv }); info = `templates ${r.templates.length} chosen ${r.chosen.map(c=>c.join('+')).join(',')} queries ${r.queries}`; }
    else if (method === 'cartesian') { const r = await cartesian(session, tv); info = `size ${r.size}`; }
    else { const r = await probe(session, { policy: method as any, seeds: kw[site.cfg.kind].slice(0,3), dictionary: [], generic: ['the','and','of','a','to'] }); info = `steps ${r.steps.length} ${r.stopped}`; }
    const valid = [...session.records.keys()].filter(u => site.recordOf(new URL(u).pathname) >= 0).length;
    console.log(host, method, 'subs', session.submissions, 'records', session.records.size, 'valid', valid, 'cov', (valid/site.db.n).toFixed(3), JSON.stringify(session.fates()), info, Math.round(performance.now()-t0), 'ms');
    await client.close();
  }
}
const audit = server.audit(); for (const h of Object.keys(audit)) console.log(h, JSON.stringify(audit[h]));
await server.close();
