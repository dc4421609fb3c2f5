/**
 * npm run report -- results/<experiment>: writes the interactive index.html again from an
 * experiment's outputs (config.json, curves.csv, aggregates.csv, summary.csv, replay.json if the
 * run recorded one), e.g. after a change to the page; the claims are decided again from the
 * curves, as the experiment decided them.
 */
import { INCOMPLETE } from '../../lib/out-folder.ts';
import { incomplete } from '../family-contract.ts';
import { join } from 'node:path';
import { FAMILIES } from '../families.ts';
import { type CliIo, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';

/** What each family writes again, and from what (experiments/family-contract.ts rereport.help). */
const REDONE = FAMILIES.flatMap((f) => (f.rereport ? [f.rereport.help] : []));

const USAGE = `Usage: npm run report -- DIR
Writes an experiment's report again from its outputs in DIR, by the family that wrote them
(experiments/families.ts):
${REDONE.map((h) => `  - ${h}`).join('\n')}
`;
export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(argv, io, USAGE, {}, true);
  if (!parsed) return 0;
  const { positionals } = parsed;
  if (positionals.length !== 1)
    usage('give one results directory, e.g. npm run report -- results/focused (see --help)');
  const dir = positionals[0];
  if (incomplete(dir))
    usage(`${dir}: its run did not end (${dir}/${INCOMPLETE}); run the experiment again to complete it`);
  const family = FAMILIES.find((f) => f.rereport?.claims(dir));
  if (!family?.rereport)
    usage(`${dir}: not the outputs of an experiment whose report can be written again (${REDONE.join('; ')})`);
  const files = await family.rereport.write(dir);
  io.out(`wrote ${files.map((f) => join(dir, f)).join(', ')}\n`);
  return 0;
}

await runAsProcess(main, import.meta);
