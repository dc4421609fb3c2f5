/** npm run sim:stats -- --web F --seed S [--json] : the generated web's statistics against their targets. */
import { computeStats, formatStats } from '../stats.ts';
import { Web } from '../web.ts';
import { parse, webAndSeed } from './args.ts';

const USAGE = `Usage: npm run sim:stats -- [--web data/webs/paper.json] [--seed 1] [--json]

Prints pages and links, degree distributions and power-law fits, mixing mu, topical locality,
relevant documents per department and their link distance from the homepage, and anchor quality,
each next to its target band. Exit code 1 if a statistic is outside its band.
`;
const v = parse(USAGE, { web: { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' } });
const { config, seed } = webAndSeed(v);
const stats = computeStats(new Web(config, seed));
process.stdout.write(
  v.json
    ? `${JSON.stringify(stats, null, 2)}\n`
    : `synthetic web "${config.name}" seed ${seed}\n${formatStats(stats)}\n`,
);
process.exitCode = stats.checks.every((c) => c.ok) ? 0 : 1;
