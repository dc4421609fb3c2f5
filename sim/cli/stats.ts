/** npm run sim:stats -- --web F --seed S [--json] : the generated web's statistics against their targets. */
import { computeStats, formatStats } from '../stats.ts';
import { KEYWORD_GAP_R1 } from '../structure.ts';
import { Web } from '../web.ts';
import { fail, parse, webAndSeed } from './args.ts';

const USAGE = `Usage: npm run sim:stats -- [--web data/webs/paper.json] [--seed 1] [--keyword-r1 0.12] [--json]

Prints pages and links, degree distributions and power-law fits, mixing mu, topical locality,
relevant documents per department and their link distance from the homepage, and anchor quality,
each next to its target band; and the departments' structure: gaps between research communities
(by the labels, and as the topic keywords see them: pages below --keyword-r1 count as off-topic),
the learnt transfer leak, the document-extension rule. Exit code 1 if a statistic is outside its band.
`;
const v = parse(USAGE, {
  web: { type: 'string' },
  seed: { type: 'string' },
  'keyword-r1': { type: 'string' },
  json: { type: 'boolean' },
});
const { config, seed } = webAndSeed(v);
const r1 = v['keyword-r1'] === undefined ? KEYWORD_GAP_R1 : Number(v['keyword-r1']);
if (!(r1 >= 0 && r1 <= 1)) fail(`--keyword-r1: "${v['keyword-r1']}" is not a number in [0, 1]`);
const web = new Web(config, seed);
const stats = computeStats(web, undefined, { keywordR1: r1 });
process.stdout.write(
  v.json
    ? `${JSON.stringify(stats, null, 2)}\n`
    : `synthetic web "${config.name}" seed ${seed}\n${formatStats(stats)}\n`,
);
process.exitCode = stats.checks.every((c) => c.ok) ? 0 : 1;
