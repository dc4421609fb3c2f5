/** npm run sim:truth -- --web F --seed S --out FILE.csv : ground truth for evaluators. */
import { checkOutputFile, writeOutputFile } from '../../lib/out-folder.ts';
import { GroundTruth } from '../truth.ts';
import { Web } from '../web.ts';
import { type CliIo, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';
import { webAndSeed } from './args.ts';

const USAGE = `Usage: npm run sim:truth -- [--web data/webs/paper.json] [--seed 1] --out FILE.csv

Writes one row per page: url, label (the kind in lower case: the file is also a labels CSV for
an archive of this web), host, kind, topic, relevant (1 = research paper), distance (shortest
link distance from the site's homepage over same-site links; -1 = unreachable).
`;
export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, {
    web: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
  });
  if (!p) return 0;
  const v = p.values;
  if (!v.out) usage('--out FILE.csv is required (see --help)');
  checkOutputFile(v.out);
  const { config, seed } = webAndSeed(v);
  const web = new Web(config, seed);
  const csv = new GroundTruth(web).csv();
  writeOutputFile(v.out, csv);
  io.out(`wrote ${web.n} rows to ${v.out}\n`);
  return 0;
}

await runAsProcess(main, import.meta);
