/** npm run sim:stats -- --web F --seed S [--json] : the generated web's statistics against their targets. */
import { Renderer } from '../content.ts';
import { formatSiteStats, viewOfWeb, webStats } from '../site-stats.ts';
import { computeStats, type DensityRow, formatDensity, formatStats } from '../web-stats.ts';
import { readFileSync } from 'node:fs';
import { resource } from '../../lib/paths.ts';
import { KEYWORD_GAP_R1 } from '../structure.ts';
import { Web } from '../web.ts';
import { webLeak } from '../web-leak.ts';
import { COMMON_RATE } from '../../lib/leak-probe.ts';
import { type CliIo, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';
import { webAndSeed } from './args.ts';

const USAGE = `Usage: npm run sim:stats -- [--web data/webs/paper.json] [--seed 1] [--keyword-r1 0.12] [--json]

Prints pages and links, degree distributions and power-law fits, mixing mu, topical locality,
relevant documents per department and their link distance from the homepage, and anchor quality,
each next to its target band; and the departments' structure: gaps between research communities
(by the labels, and as the topic keywords see them: pages below --keyword-r1 count as off-topic),
the learnt transfer leak, the document-extension rule; the learnt leak probe (a Naive Bayes with no
topic, trained on the other departments, over what a crawler sees of a link before fetching it:
lib/leak-probe.ts) and the heading rule; each department as a crawler meets it, measured as an
archive's sites are (the statistics a twin is fitted to: sim/site-stats.ts); and the papers per
faculty member, their hops and their share of the document files, and the probe, beside the four
WebKB departments' (data/webkb/figures.json, counted alike). Exit
code 1 if a statistic is outside its band.
`;
/** The WebKB departments' figures (npm run webkb:figures writes them; data/webkb/figures.ts). */
interface WebkbFigures {
  commonRate: number;
  departments: (DensityRow & {
    probe: { auc: number; minPR: number; minPRAtRate: number; links: number; positives: number };
  })[];
}
const WEBKB_FIGURES = 'data/webkb/figures.json';

/** Exit code 1 when a statistic is outside its band. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {
    web: { type: 'string' },
    seed: { type: 'string' },
    'keyword-r1': { type: 'string' },
    json: { type: 'boolean' },
  });
  if (!p) return 0;
  const v = p.values;
  const { config, seed } = webAndSeed(v);
  const r1 = v['keyword-r1'] === undefined ? KEYWORD_GAP_R1 : Number(v['keyword-r1']);
  if (!(r1 >= 0 && r1 <= 1)) usage(`--keyword-r1: "${v['keyword-r1']}" is not a number in [0, 1]`);
  const web = new Web(config, seed);
  const stats = computeStats(web, undefined, { keywordR1: r1 });
  const renderer = new Renderer(web);
  const sites = webStats(web.sites.filter((s) => s.kind === 'department').map((s) => viewOfWeb(web, renderer, s.host)));
  const leak = webLeak(web, renderer);
  const f3 = (x: number): string => (Number.isNaN(x) ? 'n/a' : x.toFixed(3));
  const webkb = JSON.parse(readFileSync(resource(WEBKB_FIGURES), 'utf8')) as WebkbFigures;
  const density = formatDensity([
    { name: 'this web', rows: stats.departments.map((d) => ({ ...d, site: d.host, papers: d.relevant })) },
    { name: 'WebKB', rows: webkb.departments },
  ]);
  io.out(
    v.json
      ? `${JSON.stringify({ ...stats, sites, leak, webkb }, null, 2)}\n`
      : `synthetic web "${config.name}" seed ${seed}\n${formatStats(stats)}\n\n` +
          "departments as a crawler meets them, measured as an archive's sites are (sim/site-stats.ts):\n" +
          `${formatSiteStats(sites).join('\n')}\n\n` +
          `the departments beside the four WebKB departments, counted alike (WebKB: ${WEBKB_FIGURES}, npm run webkb:figures):\n` +
          `${density.join('\n')}\n\n` +
          'learnt leak probe (no topic, trained on the other departments; papers the target; AUC, min(P,R), ' +
          `min(P,R) had ${COMMON_RATE * 100}% of links led to papers):\n` +
          leak
            .map(
              (x) =>
                `  ${x.site}: probe ${f3(x.probe.auc)} ${f3(x.probe.minPR)} ${f3(x.probe.minPRAtRate)}; heading rule ` +
                `${f3(x.heading.auc)} ${f3(x.heading.minPR)} (${x.probe.links} links, ${x.probe.positives} to papers)`,
            )
            .join('\n') +
          '\n' +
          webkb.departments
            .map(
              (x) =>
                `  WebKB ${x.site}: probe ${f3(x.probe.auc)} ${f3(x.probe.minPR)} ${f3(x.probe.minPRAtRate)} ` +
                `(${x.probe.links} links, ${x.probe.positives} to papers)`,
            )
            .join('\n') +
          '\n',
  );
  return stats.checks.every((c) => c.ok) ? 0 : 1;
}

await runAsProcess(main, import.meta);
