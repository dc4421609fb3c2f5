/** The twin validation's outputs: CSVs, the archive-vs-twin figure and report.md. */
import type { TopLevelSpec } from 'vega-lite';
import { seriesColours, seriesOrder, themeConfig } from '../figures.ts';
import { ResultsFolder } from '../results-folder.ts';
import type { TwinValidation } from './validate.ts';

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/** Archive AUC against twin AUC, one point per strategy with its CIs, and the line y = x. */
function twinSpec(d: TwinValidation): TopLevelSpec {
  const names = seriesOrder(d.ranking.strategies.map((s) => s.strategy));
  const values = d.ranking.strategies.map((s) => ({
    strategy: s.strategy,
    archive: s.archive.mean,
    twin: s.twin.mean,
    alo: s.archive.lo,
    ahi: s.archive.hi,
    tlo: s.twin.lo,
    thi: s.twin.hi,
  }));
  const top = Math.min(1, Math.max(0.1, ...values.flatMap((v) => [v.ahi, v.thi].filter(Number.isFinite))) * 1.05);
  const scale = { domain: [0, top] };
  const colour = { field: 'strategy', type: 'nominal', scale: { domain: names, range: seriesColours(names) } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 230,
    height: 200,
    layer: [
      {
        data: {
          values: [
            { x: 0, y: 0 },
            { x: top, y: top },
          ],
        },
        mark: { type: 'line', color: '#999', strokeDash: [4, 3] },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale, title: 'recall AUC on the archive' },
          y: { field: 'y', type: 'quantitative', scale, title: 'recall AUC on the twin' },
        },
      },
      {
        data: { values },
        mark: { type: 'rule', strokeWidth: 1 },
        encoding: {
          x: { field: 'alo', type: 'quantitative', scale },
          x2: { field: 'ahi' },
          y: { field: 'twin', type: 'quantitative', scale },
          color: colour,
        },
      },
      {
        data: { values },
        mark: { type: 'rule', strokeWidth: 1 },
        encoding: {
          y: { field: 'tlo', type: 'quantitative', scale },
          y2: { field: 'thi' },
          x: { field: 'archive', type: 'quantitative', scale },
          color: colour,
        },
      },
      {
        data: { values },
        mark: { type: 'point', filled: true, size: 50 },
        encoding: {
          x: { field: 'archive', type: 'quantitative', scale },
          y: { field: 'twin', type: 'quantitative', scale },
          color: { ...colour, legend: { symbolType: 'circle' } },
        },
      },
    ],
    config: themeConfig(2),
  } as TopLevelSpec;
}

/** A strategy's row of twin-strategies.csv: its AUCs, their difference, and how far each prediction misses. */
function strategyRow(s: TwinValidation['ranking']['strategies'][number]): Record<string, unknown> {
  return {
    strategy: s.strategy,
    archive: s.archive.mean,
    archive_lo: s.archive.lo,
    archive_hi: s.archive.hi,
    twin: s.twin.mean,
    twin_lo: s.twin.lo,
    twin_hi: s.twin.hi,
    difference: s.difference.mean,
    difference_lo: s.difference.lo,
    difference_hi: s.difference.hi,
    detectable: s.detectable,
    verdict: s.verdict,
    twin_error: s.twinError.mean,
    control_error: s.controlError.mean,
    error_difference: s.errorDifference.mean,
    error_difference_lo: s.errorDifference.lo,
    error_difference_hi: s.errorDifference.hi,
    level_verdict: s.levelVerdict,
  };
}

export async function writeTwinOutputs(d: TwinValidation, out: string): Promise<{ files: string[]; lines: string[] }> {
  const folder = new ResultsFolder(out);
  folder.csv('twin-auc.csv', d.rows, { columns: ['strategy', 'site', 'archive', 'twin'] });
  folder.csv('twin-strategies.csv', d.ranking.strategies.map(strategyRow));
  folder.csv(
    'twin-fits.csv',
    d.fits.flatMap((f) => f.table.map((r) => ({ held_out: f.site, loss: f.fit.loss, ...r }))),
  );
  const r = d.ranking;
  folder.csv(
    'twin-tau.csv',
    r.perSite.map((x) => ({
      held_out: x.site,
      twin_tau: x.twin,
      control_tau: x.control,
      self_tau: x.self,
      // only where the archive's own web is known (archive.origin): other runs' files keep their columns
      ...(r.ownTau ? { own_web_tau: x.own } : {}),
    })),
  );
  await folder.figure('fig-twin', twinSpec(d));
  const cfg = d.config;
  const lines = twinLines(d);
  const L: string[] = [
    `# Twin validation: ${cfg.name}`,
    '',
    `Is the synthetic twin of \`${cfg.name}\` (${cfg.archive?.source ?? ''}) like the archive ` +
      `where it matters: does it rank the strategies as the archive does? ` +
      `For each of the ${d.sites.length} sites in turn the twin is fitted to the other sites ` +
      `only (\`npm run sim:fit\`, experiments/twin/fit.ts: ${d.fits[0]?.fit.evaluations ?? 0} ` +
      `generator evaluations), written as an archive sampled as the fit measured, and crawled by ` +
      `the same experiment (strategies, ${cfg.budget} ${cfg.budgetCounts} per run, the same ` +
      `judgement, hole policy ${cfg.archive?.holes} and target). Twin AUC: mean over the twin's ` +
      `departments and web seeds; archive AUC: the held-out site's. Wall ` +
      `time ${(d.wallMs / 1000).toFixed(0)} s.`,
    '',
    ...lines.map((l) => `- ${l}`),
    '',
    '![twin](fig-twin.png)',
    '',
    '*Recall AUC on the archive (x) and on its twin (y), one point per strategy, 95% t intervals over the held-out sites; dashed: y = x. Also .svg and .pdf.*',
    '',
    ...strategyTable(r.strategies),
    '',
    '"agrees": the interval of the paired difference contains 0; with so few sites that is ' +
      'weak evidence, and "detectable" is the smallest difference these sites would have shown ' +
      "with 80% power. The control predicts each held-out site by the mean of the archive's " +
      'other sites: how well the archive agrees with itself, the yardstick for the twin. "misses ' +
      'by": the mean over held-out sites of |prediction - archive AUC|; "further" when the twin ' +
      'misses by detectably more than the control. Kendall tau compares the orders of the mean AUCs.',
    '',
    ...rankingsSection(d),
    ...fitsSection(d),
  ];
  folder.report(L.join('\n'));
  return { files: folder.files, lines };
}

const ciText3 = (c: { mean: number; lo: number; hi: number }): string => `${f3(c.mean)} [${f3(c.lo)}, ${f3(c.hi)}]`;

/** The validation's findings, a line each: the verdict, Kendall tau overall and per site, agreement, misses. */
function twinLines(d: TwinValidation): string[] {
  const r = d.ranking;
  const cfg = d.config;
  const ci = ciText3;
  const agree = r.strategies.filter((s) => s.verdict === 'agrees').length;
  const untold = r.strategies.filter((s) => s.verdict === 'cannot tell').length;
  const further = r.strategies.filter((s) => s.levelVerdict === 'further').map((s) => s.strategy);
  return [
    `The twin ${r.verdict}: ${r.because}` +
      (r.ownTau
        ? ` (the same-web control is the archive's own web, ${cfg.archive?.origin?.web} at web seeds ` +
          `${d.ownSeeds?.join(', ')}: tau ${ci(r.ownTau)} per held-out site; the twin with itself ` +
          `${r.selfTau ? ci(r.selfTau) : 'n/a (one seed)'})`
        : r.selfTau
          ? ` (the twin with itself at other web seeds: tau ${ci(r.selfTau)} per held-out site; the ` +
            "archive's own web is not known)"
          : ''),
    `Kendall tau between the two rankings of the ` +
      `${r.strategies.filter((s) => s.strategy !== 'oracle').length} strategies (the oracle ` +
      `aside): ${f3(r.tau)} (exact one-sided p ${f3(r.p)})`,
    `per held-out site, tau with the site's own ranking: twin ${ci(r.twinTau)}, control (the ` +
      `archive's other sites) ${ci(r.controlTau)}; twin minus control ${ci(r.tauDifference)}`,
    `strategies whose twin AUC agrees with the archive's (paired CI over ${d.sites.length} held-out sites contains 0): ${agree} of ${r.strategies.length}` +
      (untold
        ? `; cannot tell for ${untold}, where the strategies' archive AUCs span no more than the difference these sites could detect`
        : ''),
    `strategies the twin misses by more than the control does (paired CI of |twin - archive| ` +
      `- |control - archive| above 0): ${further.length ? further.join(', ') : 'none'}`,
  ];
}

/** Each strategy's AUC on the archive and the twin, their paired difference and verdict, and the misses against the control. */
function strategyTable(strategies: TwinValidation['ranking']['strategies']): string[] {
  const ci = ciText3;
  return [
    '| strategy | archive AUC | twin AUC | twin minus archive [95% CI] | detectable | verdict ' +
      '| twin misses by | control misses by | difference [95% CI] | level |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...strategies.map(
      (s) =>
        `| ${s.strategy} | ${ci(s.archive)} | ${ci(s.twin)} | ${ci(s.difference)} | ` +
        `${f3(s.detectable)} | ${s.verdict === 'off' ? '**off**' : s.verdict} | ` +
        `${f3(s.twinError.mean)} | ${f3(s.controlError.mean)} | ${ci(s.errorDifference)} | ` +
        `${s.levelVerdict === 'further' ? '**further**' : s.levelVerdict} |`,
    ),
  ];
}

/** Per held-out site: the twin's, the control's and the same-web taus with the site's ranking. */
function rankingsSection(d: TwinValidation): string[] {
  const r = d.ranking;
  const cfg = d.config;
  const ci = (c: { mean: number; lo: number; hi: number }): string => `${f3(c.mean)} [${f3(c.lo)}, ${f3(c.hi)}]`;
  return [
    '## Rankings per held-out site',
    '',
    "Kendall tau of each prediction's ranking of the strategies (the oracle aside) with the " +
      "held-out site's own: the twin fitted without the site, and the control (the mean over the " +
      "other sites). A twin whose tau is near the control's ranks as well as the archive's own " +
      "sites rank each other. The same-web control: the twin's ranking at one web seed against " +
      'its ranking at another (mean over pairs of seeds): how well a web ranks like itself, the ' +
      'most any twin could show' +
      (r.ownTau
        ? `; and, the archive's own web being known (\`${cfg.archive?.origin?.web}\`, web seed ` +
          `${cfg.archive?.origin?.seed}), that web's ranking (its mean AUC at web seeds ` +
          `${d.ownSeeds?.join(', ')}) with the site's: what a twin that found the true knobs scores, ` +
          'the bar the verdict uses.'
        : ". The archive's own web is not known (no `archive.origin`): the twin stands in for it."),
    '',
    `| held out | twin tau | control tau | same web, other seed |${r.ownTau ? ' own web, other seeds |' : ''}`,
    `|---|---|---|---|${r.ownTau ? '---|' : ''}`,
    ...r.perSite.map(
      (x) =>
        `| ${x.site} | ${f3(x.twin)} | ${f3(x.control)} | ${x.self === null ? 'n/a' : f3(x.self)} |` +
        (r.ownTau ? ` ${x.own === null ? 'n/a' : f3(x.own)} |` : ''),
    ),
    `| mean [95% CI] | ${ci(r.twinTau)} | ${ci(r.controlTau)} | ${r.selfTau ? ci(r.selfTau) : 'n/a (one seed)'} |` +
      (r.ownTau ? ` ${ci(r.ownTau)} |` : ''),
    '',
  ];
}

/** The fits: per held-out site the loss and every statistic against the archive's. */
function fitsSection(d: TwinValidation): string[] {
  return [
    '## The fits',
    '',
    'Per held-out site: the loss and every statistic the fit targets (archive: mean over the ' +
      'fitted sites; twin: the chosen point), with its tolerance. A statistic no setting meets ' +
      'names a part of the generator the twin cannot reproduce.',
    '',
    ...d.fits.flatMap((f) => [
      `**Without ${f.site}**: loss ${f3(f.fit.loss)}; fitted ${Object.entries(f.fit.values)
        .map(([k, x]) => `${k} ${x}`)
        .join(', ')}.`,
      '',
      '| statistic | archive | twin | tolerance | met |',
      '|---|---|---|---|---|',
      ...f.table.map((r) => `| ${r.stat} | ${r.archive} | ${r.twin} | ${r.tolerance} | ${r.met ? 'yes' : '**no**'} |`),
      '',
    ]),
  ];
}
