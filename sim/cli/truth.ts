/** npm run sim:truth -- --web F --seed S --out FILE.csv : ground truth for evaluators. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { GroundTruth } from '../truth.ts';
import { Web } from '../web.ts';
import { fail, parse, webAndSeed } from './args.ts';

const USAGE = `Usage: npm run sim:truth -- [--web data/webs/paper.json] [--seed 1] --out FILE.csv

Writes one row per page: url, label (the kind in lower case: the file is also a labels CSV for
an archive of this web), host, kind, topic, relevant (1 = research paper), distance (shortest
link distance from the site's homepage over same-site links; -1 = unreachable).
`;
const v = parse(USAGE, { web: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' } });
if (!v.out) fail('--out FILE.csv is required (see --help)');
const { config, seed } = webAndSeed(v);
const web = new Web(config, seed);
const csv = new GroundTruth(web).csv();
try {
  mkdirSync(dirname(v.out), { recursive: true });
  writeFileSync(v.out, csv);
} catch (e) {
  fail(`cannot write ${v.out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
}
process.stdout.write(`wrote ${web.n} rows to ${v.out}\n`);
