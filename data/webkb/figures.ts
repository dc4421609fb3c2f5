/**
 * The WebKB departments' figures that a generated web is set and judged against (issue #83),
 * computed from the shipped archive and labels and written to data/webkb/figures.json:
 *
 *   npm run webkb:figures            (writes figures.json)
 *   npm run webkb:figures -- --check (exit 1 when figures.json differs from what the data give)
 *
 * Per department, as experiments/configs/webkb-papers.json sees it (papers by URL, a paper's
 * formats one paper, holes closed): faculty = pages labelled faculty; papers and their hops from
 * the home page, papers per faculty member, the papers' share of the document-file URLs
 * (experiments/focused/density.ts); the learnt leak probe's ROC AUC, min(P,R) and min(P,R) at
 * the common base rate (lib/leak-probe.ts, trained on the other three departments). And the four
 * pooled. `npm run sim:stats` prints them beside a generated web's; data/webs/paper.json takes its
 * papers per faculty member from them. Deterministic: the same data give the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadKeywords } from '../../crawler/focused/index.ts';
import { type CliIo, parseCommand, runAsProcess } from '../../lib/cli.ts';
import { COMMON_RATE } from '../../lib/leak-probe.ts';
import { readLabels } from '../../sim/labels.ts';
import { loadExperiment } from '../../experiments/focused/config.ts';
import { siteDensity, type SiteDensity } from '../../experiments/focused/density.ts';
import { archiveEnv, archiveSites } from '../../experiments/focused/env.ts';
import { siteLeak } from '../../experiments/env-leak.ts';

const USAGE = `Usage: npm run webkb:figures [-- --check]

Computes the WebKB departments' figures (papers per faculty member, hops to papers, the papers'
share of document files, the leak probe) from data/webkb/ and writes data/webkb/figures.json;
--check compares instead (exit 1 when they differ).
`;

export const FIGURES_FILE = new URL('figures.json', import.meta.url).pathname;

export interface DepartmentFigures extends SiteDensity {
  probe: { links: number; positives: number; auc: number; minPR: number; minPRAtRate: number };
}

export interface WebkbFigures {
  _doc: string;
  commonRate: number;
  departments: DepartmentFigures[];
  pooled: { faculty: number; papers: number; perFaculty: number };
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The figures, from the shipped archive and labels (about 20 s). */
export async function webkbFigures(): Promise<WebkbFigures> {
  const cfg = loadExperiment('webkb-papers');
  const a = cfg.archive!;
  const labels = readLabels(a.labels);
  const keywords = cfg.keywords ? loadKeywords(cfg.keywords) : loadKeywords();
  const env = await archiveEnv(cfg, 'none');
  try {
    const departments = archiveSites(cfg).map((site): DepartmentFigures => {
      const hosts = a.groups[site] ?? [site];
      let faculty = 0;
      for (const [url, label] of labels) if (label === 'faculty' && hosts.includes(new URL(url).host)) faculty++;
      const leak = siteLeak(env.training, keywords, site);
      if (!leak) throw new Error(`${site}: no leak probe (one site only?)`);
      const { links, positives, auc, minPR, minPRAtRate } = leak.probe;
      return {
        ...siteDensity(env, site, faculty),
        probe: { links, positives, auc: r3(auc), minPR: r3(minPR), minPRAtRate: r3(minPRAtRate) },
      };
    });
    const faculty = departments.reduce((n, d) => n + d.faculty, 0);
    const papers = departments.reduce((n, d) => n + d.papers, 0);
    return {
      _doc:
        'Written by npm run webkb:figures (data/webkb/figures.ts) from webkb.warc.gz, labels.csv and experiments/configs/webkb-papers.json; do not edit. ' +
        'perFaculty = papers / faculty (papers: relevant documents by URL, a paper in two formats counted once; faculty: pages labelled faculty); ' +
        'medianDistance, deepShare: hops from the home page to the reachable papers (median; share at 4 or more); ' +
        'documentShare: relevant share of the document-file URLs; probe: the learnt leak probe held out on the department (ROC AUC, min(P,R), min(P,R) at commonRate).',
      commonRate: COMMON_RATE,
      departments,
      pooled: { faculty, papers, perFaculty: Math.round((papers / faculty) * 10) / 10 },
    };
  } finally {
    await env.close();
  }
}

export const figuresText = (f: WebkbFigures): string => `${JSON.stringify(f, null, 2)}\n`;

/** Exit code 1 under --check when figures.json is not what the data give. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const p = parseCommand(argv, io, USAGE, { check: { type: 'boolean' } });
  if (!p) return 0;
  const text = figuresText(await webkbFigures());
  if (p.values.check) {
    const same = readFileSync(FIGURES_FILE, 'utf8') === text;
    io.out(
      same
        ? 'data/webkb/figures.json: up to date\n'
        : 'data/webkb/figures.json: differs from the data (npm run webkb:figures)\n',
    );
    return same ? 0 : 1;
  }
  writeFileSync(FIGURES_FILE, text);
  io.out(`data/webkb/figures.json: ${text.length} bytes\n`);
  return 0;
}

await runAsProcess(main, import.meta);
