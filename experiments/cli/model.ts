/**
 * npm run model -- --web F --seed S --site HOST [--top N] [--json]
 * Trains (or loads from .cache/models) the future-value link classifier used to crawl HOST
 * (leave-one-site-out: trained on the web's other departments) and prints its Q bins, the
 * adaptive thresholds chosen on the training departments, and the most informative words of
 * each bin.
 */
import { type CliIo, parseCommand, runAsProcess, usage } from '../../lib/cli.ts';
import { loadKeywords, DEFAULT_FUTURE } from '../../crawler/focused/index.ts';
import { loadConfig } from '../../sim/config.ts';
import { Web } from '../../sim/web.ts';
import { sitePages, TrainingData, webKey } from '../web-training.ts';

const USAGE = `Usage: npm run model -- [--web data/webs/paper.json] [--seed 1] [--site HOST] [--top 15] [--json]\n`;
export async function main(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(
    argv,
    io,
    USAGE,
    {
      web: { type: 'string' },
      seed: { type: 'string' },
      site: { type: 'string' },
      top: { type: 'string' },
      json: { type: 'boolean' },
    },
    false,
  );
  if (!parsed) return 0;
  const v: Record<string, string | boolean | undefined> = parsed.values;
  const file = (v.web as string) ?? 'data/webs/paper.json';
  const seed = Number(v.seed ?? 1);
  if (!Number.isInteger(seed) || seed < 0) usage(`--seed: "${v.seed}" must be a whole number`);
  const top = Number(v.top ?? 15);
  if (!Number.isInteger(top) || top < 1) usage(`--top: "${v.top}" must be a whole number >= 1`);
  const config = loadConfig(file);
  const web = new Web(config, seed);
  const hosts = web.sites.filter((s) => s.kind === 'department').map((s) => s.host);
  const site = (v.site as string) ?? hosts[0];
  if (!hosts.includes(site)) usage(`--site: "${site}" is not a department of ${file} (${hosts.join(', ')})`);
  const m = new TrainingData((h) => sitePages(web, h), hosts, DEFAULT_FUTURE).models(
    site,
    loadKeywords(),
    '.cache/models',
    `${webKey(web)}:${seed}`,
  );
  const words = m.future.topWords(top);
  if (v.json) {
    io.out(
      `${JSON.stringify({ site, trainedOn: hosts.filter((h) => h !== site), bins: m.future.bins, calibration: m.calibration, words }, null, 2)}\n`,
    );
  } else {
    io.out(
      `link classifier for ${site} (trained on ${hosts.filter((h) => h !== site).join(', ')}; ` +
        `${m.future.space.size} features${m.cached ? ', from cache' : ''})\n`,
    );
    io.out(
      `Q bins: upper bounds ${m.future.bins.thresholds.join(', ')}; mean Q per bin ${m.future.bins.means.map((x) => x.toFixed(3)).join(', ')}\n`,
    );
    io.out(
      `adaptive thresholds: r1 ${m.calibration.r1} (F1 ${m.calibration.f1r1}), r2 ${m.calibration.r2} (F1 ${m.calibration.f1r2})\n`,
    );
    for (const b of words)
      io.out(`bin ${b.bin} (mean Q ${b.meanQ.toFixed(3)}): ${b.words.map((w) => w.word).join(' ')}\n`);
  }
  return 0;
}

await runAsProcess(main, import.meta);
