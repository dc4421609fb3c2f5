/**
 * Writes a deep-web experiment's outputs: curves.csv, summary.csv, aggregates.csv,
 * templates.csv, tau.csv, scaling.csv, sites.csv, ranges.csv, typed.csv, audit.csv, skipped-forms.csv, config.json, run.json,
 * fig-coverage-<site>.svg/.png, fig-scaling.svg/.png and report.md (with the published anchors
 * and a claims table). CSVs are a pure function of the config.
 */
import { ResultsFolder, WORD_BOOLEANS } from '../results-folder.ts';
import type { TopLevelSpec } from 'vega-lite';
import { bandsText, MIN_BAND_UNITS, meanCi, pmText } from '../intervals.ts';
import { curveSpec, themeConfig } from '../figures.ts';
import type { DeepwebData, ScalingRow } from './rows.ts';
import {
  aggregateDeep,
  checkDeepClaims,
  type DeepAggregate,
  type DeepClaim,
  growthExponent,
  scalingMeans,
} from './analysis.ts';

export type { DeepAggregate, DeepClaim } from './analysis.ts';
import { f3 } from '../../lib/format.ts';
import { append } from '../../lib/arrays.ts';

function scalingSpec(rows: readonly ScalingRow[], target: number): TopLevelSpec {
  const values = scalingMeans(rows).flatMap((r) => [
    { site: r.site, records: r.records, series: `${r.method}: queries planned`, submissions: r.generated },
    ...(r.submissions_to_target !== null
      ? [
          {
            site: r.site,
            records: r.records,
            series: `${r.method}: submissions to ${Math.round(target * 100)}%`,
            submissions: r.submissions_to_target,
          },
        ]
      : []),
  ]);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { column: { field: 'site', type: 'nominal', title: null } },
    spec: {
      width: 160,
      height: 150,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'records', type: 'quantitative', scale: { type: 'log' }, title: 'records in the database' },
        y: { field: 'submissions', type: 'quantitative', scale: { type: 'log' }, title: 'submissions (log)' },
        color: {
          field: 'series',
          type: 'nominal',
          title: null,
          scale: { range: ['#0072B2', '#56B4E9', '#D55E00', '#E69F00'] },
          // below the panels: beside three of them it made the figure wider than 7 in allows
          legend: { orient: 'bottom', columns: 2 },
        },
        strokeDash: {
          field: 'series',
          type: 'nominal',
          title: null,
          scale: { range: [[], [4, 3], [], [4, 3]] },
          legend: { orient: 'bottom', columns: 2 },
        },
      },
    },
    config: themeConfig(2),
  } as TopLevelSpec;
}

export interface DeepWritten {
  dir: string;
  files: string[];
  claims: DeepClaim[];
}

/** The outputs; `made` is the command that made the run (family.ts rerunCommand; default: the one read back, else by name). */
export async function writeDeepOutputs(d: DeepwebData, dir: string, made?: string): Promise<DeepWritten> {
  const out = new ResultsFolder(dir);
  const { put } = out;
  const csv = (name: string, rows: readonly object[]): void => out.csv(name, rows, { cast: WORD_BOOLEANS });
  csv('curves.csv', d.curves);
  csv('summary.csv', d.summaries);
  const aggs = aggregateDeep(d.curves);
  csv('aggregates.csv', aggs);
  csv('templates.csv', d.templates);
  csv('tau.csv', d.tau);
  csv('scaling.csv', d.scaling);
  csv('sites.csv', d.sites);
  csv('ranges.csv', d.ranges);
  csv('typed.csv', d.typed);
  csv('audit.csv', d.audit);
  csv('skipped-forms.csv', d.skippedForms);
  out.config({ ...d.config }, made ?? d.made ?? `npm run experiment -- ${d.config.name}`);
  // the wall time is the one figure not in a CSV; report.md is made again from these files
  put('run.json', `${JSON.stringify({ wall_ms: d.wallMs })}\n`);
  // the claims and the report before the figures: a figure that cannot be drawn loses nothing else
  const claims = checkDeepClaims(d, aggs);
  out.report(report(d, aggs, claims));
  for (const site of [...new Set(aggs.map((a) => a.site))]) {
    const spec = curveSpec(
      aggs.filter((a) => a.site === site),
      'coverage',
      {
        series: 'method',
        xField: 'submissions',
        x: 'submissions',
        y: 'share of the database surfaced',
        legendColumns: 2,
        bands: d.config.seeds.length >= MIN_BAND_UNITS,
      },
    );
    await out.figure(`fig-coverage-${site}`, spec);
  }
  if (d.scaling.length) await out.figure('fig-scaling', scalingSpec(d.scaling, d.config.scaling.target), 2);
  return { dir, files: out.files, claims };
}

function table(head: string[], rows: (string | number)[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function report(d: DeepwebData, _aggs: readonly DeepAggregate[], claims: readonly DeepClaim[]): string {
  const cfg = d.config;
  const sites = [...new Set(d.summaries.map((s) => s.site))];
  const methods = cfg.methods.filter((m) => d.summaries.some((s) => s.method === m));
  const pm = (xs: number[]): string => (xs.length ? pmText(meanCi(xs)) : 'n/a');
  const sum = (site: string, m: string) => d.summaries.filter((s) => s.site === site && s.method === m);
  const out: string[] = [];
  const bands =
    cfg.seeds.length >= MIN_BAND_UNITS ? '95% Student t interval over seeds' : bandsText('seed', cfg.seeds.length);
  out.push(`# Deep-web crawling: ${cfg.name}`, '', cfg.description, '');
  append(out, setupSection(d));
  out.push(
    '## Records surfaced at the budget',
    '',
    `Mean ± 95% CI over ${cfg.seeds.length} seed(s).`,
    '',
    ...sites.flatMap((s) => [
      `![coverage ${s}](fig-coverage-${s}.png)`,
      '',
      `*Share of ${s}'s database surfaced against submissions; mean of ${cfg.seeds.length} ` +
        `seed(s), bands: ${bands}. Also .svg and .pdf.*`,
      '',
    ]),
    '',
  );
  out.push(
    table(
      ['site', ...methods],
      sites.map((s) => [
        s,
        ...methods.map((m) => {
          const r = sum(s, m);
          return r.length ? pm(r.map((x) => x.coverage)) : 'n/a (no text input)';
        }),
      ]),
    ),
  );
  append(out, submissionsSection(d, sites, methods));
  append(out, templatesSection(d, sites));
  append(out, tauSection(d));
  append(out, rangesSection(d));
  append(out, scalingSection(d, sites));
  out.push('## Published anchors and claims', '');
  out.push(
    "- Madhavan et al. (VLDB 2008): ISIT's URL count grows about linearly with database size; " +
      'CARTESIAN grows far faster; tau = 0.2 (0.25 also reported), dimension at most 3.',
  );
  out.push(
    '- Ntoulas, Zerfos & Cho (JCDL 2005): adaptive probing downloaded more than 90% of PubMed ' +
      '(14 million documents) in fewer than 100 queries; generic-frequency next; random dictionary last.',
    '',
  );
  out.push(
    table(
      ['', 'claim', 'measured', 'verdict'],
      claims.map((c) => [c.id, c.claim, c.measured, c.verdict]),
    ),
  );
  append(out, politenessSection(d));
  out.push('');
  return out.join('\n');
}

/** The setup: web, seeds, budget, the methods' parameters, and the sites as generated. */
function setupSection(d: DeepwebData): string[] {
  const cfg = d.config;
  const out: string[] = [];
  out.push('## Setup', '');
  out.push(
    `Web \`${cfg.web}\`, seeds ${cfg.seeds.join(', ')}; each search site holds ` +
      `${cfg.records.toLocaleString('en-US')} records; ${cfg.budget} submissions per run (every ` +
      `request to the form's action counts, result pages included). ISIT: tau ${cfg.isit.tau}, ` +
      `maximum dimension ${cfg.isit.maxDimension}, ${cfg.isit.sampleSize} queries tested per ` +
      `template, text inputs filled with the site's seed keywords. Probing: rounds of ` +
      `${cfg.probe.roundSize} keywords, stop after a round without a new record; ` +
      `${cfg.probe.candidates} mined candidates. Requests ${cfg.crawl.delayMs} ms apart per host ` +
      `at least, one at a time, robots.txt honoured. ` +
      `${Number.isFinite(d.wallMs) ? `Wall time ${(d.wallMs / 1000).toFixed(1)} s.` : 'Wall time not recorded.'}`,
    '',
  );
  if (d.sites.length) {
    out.push('### The sites (first seed)', '');
    out.push(
      table(
        ['site', 'host', 'records', 'top-k cap', 'page size', 'distinct words', "Heaps' K", "Heaps' beta"],
        d.sites.map((x) => [
          x.site,
          x.host,
          x.records.toLocaleString('en-US'),
          x.top_k ? x.top_k : 'none (every match)',
          x.page_size,
          x.distinct_words.toLocaleString('en-US'),
          x.heaps_k === null ? '-' : x.heaps_k.toFixed(2),
          x.heaps_beta === null ? '-' : x.heaps_beta.toFixed(3),
        ]),
      ),
    );
    out.push(
      '',
      `Heaps' law V = K n^beta: V distinct words among the first n words of record text, fitted ` +
        `in log-log over growing prefixes of the database (real English text: beta 0.4-0.6; ` +
        `Baeza-Yates & Ribeiro-Neto). Random-dictionary words: \`${cfg.dictionary}\`; ` +
        `generic-frequency words: \`${cfg.generic}\`.`,
      '',
    );
  }
  out.push(
    'Coverage = distinct database records whose detail page the crawler saw linked from a ' +
      'result page / records in the database (the evaluator maps URLs to record ids; the crawler ' +
      'never sees the database).',
    '',
  );
  return out;
}

/** ISIT's templates at the first seed: tested, informative, their distinctness. */
function templatesSection(d: DeepwebData, sites: readonly string[]): string[] {
  const cfg = d.config;
  const out: string[] = [];
  out.push('', '## ISIT template diagnostics (first seed)', '');
  const first = cfg.seeds[0];
  out.push(
    table(
      ['site', 'dimension', 'templates tested', 'informative', 'mean distinctness', 'informative templates'],
      sites.flatMap((s) => {
        const t = d.templates.filter((x) => x.site === s && x.seed === first);
        return [...new Set(t.map((x) => x.dimension))].map((dim) => {
          const td = t.filter((x) => x.dimension === dim);
          return [
            s,
            dim,
            td.length,
            td.filter((x) => x.informative).length,
            f3(td.reduce((a, x) => a + x.ratio, 0) / td.length),
            td
              .filter((x) => x.informative)
              .map((x) => x.template)
              .join(', ') || '-',
          ];
        });
      }),
    ),
  );
  out.push(
    '',
    'Every template, its sample and its distinctness: templates.csv. Pages without records ' +
      '(errors, no results, "choose a criterion") do not count as distinct signatures; ' +
      'presentation inputs (sort, results per page) therefore never pass alone, and Apriori ' +
      'growth keeps them out of larger templates.',
    '',
  );
  return out;
}

/** The submissions each method spent, its queries and its waste, per site. */
function submissionsSection(d: DeepwebData, sites: readonly string[], methods: readonly string[]): string[] {
  const sum = (site: string, m: string) => d.summaries.filter((s) => s.site === site && s.method === m);
  const out: string[] = [];
  out.push('', '## Submissions, queries and waste', '');
  out.push(
    table(
      [
        'site',
        'method',
        'submissions',
        'queries',
        'submissions to 90%',
        'queries to 90%',
        'wasted (empty / error / duplicate)',
        'stopped',
        'plan',
      ],
      sites.flatMap((s) =>
        methods.flatMap((m) =>
          sum(s, m)
            .slice(0, 1)
            .map((r0) => {
              const rs = sum(s, m);
              const avg = (f: (r: (typeof rs)[number]) => number): string =>
                (rs.reduce((a, r) => a + f(r), 0) / rs.length).toFixed(0);
              const reach = rs.filter((r) => r.submissions_to_90 !== null);
              return [
                s,
                m,
                avg((r) => r.submissions),
                avg((r) => r.queries),
                reach.length === rs.length ? avg((r) => r.submissions_to_90!) : `${reach.length}/${rs.length} runs`,
                reach.length === rs.length ? avg((r) => r.queries_to_90!) : '-',
                `${f3(rs.reduce((a, r) => a + r.wasted_share, 0) / rs.length)} (${avg((r) => r.empty)} / ${avg((r) => r.error)} / ${avg((r) => r.duplicate)})`,
                r0.stopped,
                r0.detail,
              ];
            }),
        ),
      ),
    ),
  );
  return out;
}

/** ISIT's tau sweep (first seed): templates tested and chosen, and the coverage they buy. */
function tauSection(d: DeepwebData): string[] {
  const out: string[] = [];
  if (d.tau.length) {
    out.push('## Sweep of tau (first seed)', '');
    out.push(
      table(
        ['site', 'tau', 'templates tested', 'informative', 'queries planned', 'submissions', 'coverage'],
        d.tau.map((t) => [
          t.site,
          t.tau,
          t.templates_tested,
          t.templates_chosen,
          t.queries,
          t.submissions,
          f3(t.coverage),
        ]),
      ),
    );
    out.push('');
  }
  return out;
}

/** ISIT's value ranges and input types (first seed). */
function rangesSection(d: DeepwebData): string[] {
  const out: string[] = [];
  if (d.ranges.length || d.typed.length) {
    out.push('## Range pairs and typed inputs (first seed)', '');
    if (d.ranges.length)
      out.push(
        table(
          ['site', 'lower end', 'upper end', 'candidate by', 'values', 'confirmed', 'probes (whole, inverted, halves)'],
          d.ranges.map((r) => [r.site, r.lo, r.hi, r.evidence, r.values, r.confirmed ? 'yes' : 'no', r.probe]),
        ),
        '',
      );
    if (d.typed.length)
      out.push(
        table(
          ['site', 'input', 'type tried', 'tested', 'distinct', 'ratio', 'informative', 'kept'],
          d.typed.map((t) => [
            t.site,
            t.input,
            t.type,
            t.tested,
            t.distinct,
            f3(t.ratio),
            t.informative ? 'yes' : 'no',
            t.chosen ? 'yes' : '',
          ]),
        ),
        '',
      );
    out.push(
      'A confirmed range pair is one input whose templates cover the domain with disjoint ' +
        'intervals, halving an interval only while the site shows fewer records than it reports; a ' +
        'typed text input takes every value of the type it was kept for (dates between the ' +
        "markup's min and max).",
      '',
    );
  }
  return out;
}

/** The database-size sweep: submissions to a coverage target as the databases grow. */
function scalingSection(d: DeepwebData, sites: readonly string[]): string[] {
  const cfg = d.config;
  const out: string[] = [];
  if (d.scaling.length) {
    const seeds = cfg.scaling.seeds;
    out.push(
      '## Growth with the database',
      '',
      `Seed${seeds.length > 1 ? 's' : ''} ${seeds.join(', ')}; open-ended domains (cities, airports) grow with the square root of the database, ` +
        `and record text draws on large English word lists, so distinct words grow too (Heaps' ` +
        `law; the sites table above). "Planned" is the number of queries the method would submit ` +
        `(ISIT: all queries of its informative templates, a range template counted at one query ` +
        `per value; Cartesian: the product of every input's values); ` +
        `"to ${Math.round(cfg.scaling.target * 100)}%" is measured, within ${cfg.scaling.budget} submissions.`,
      '',
      '![scaling](fig-scaling.png)',
      '',
      `*Submissions (log) against records in the database (log), per site, mean of ` +
        `${seeds.length} seed(s) per size${seeds.length > 1 ? ' (growth exponents with 95% CIs over seeds in the claims)' : ' (no CI)'}. ` +
        `Also .svg and .pdf (7 in wide).*`,
      '',
    );
    const means = scalingMeans(d.scaling);
    const recs = [...new Set(d.scaling.map((r) => r.records))];
    out.push(
      table(
        [
          'site',
          'method',
          ...recs.map((r) => `${r.toLocaleString('en-US')} records`),
          'growth exponent (planned)',
          'growth exponent (to target)',
        ],
        sites.flatMap((s) =>
          ['isit', 'cartesian'].map((m) => {
            const rows = means.filter((r) => r.site === s && r.method === m);
            const g1 = growthExponent(rows.map((r) => ({ x: r.records, y: r.generated })));
            const g2 = rows.every((r) => r.submissions_to_target !== null)
              ? growthExponent(rows.map((r) => ({ x: r.records, y: r.submissions_to_target! })))
              : null;
            return [
              s,
              m,
              ...recs.map((n) => {
                const r = rows.find((x) => x.records === n);
                return r
                  ? `${r.generated.toLocaleString('en-US')} planned; ` +
                      (r.submissions_to_target === null
                        ? `${r.reached}/${r.runs} reached (${f3(r.coverage_at_budget)})`
                        : `${r.submissions_to_target.toLocaleString('en-US')} to target`)
                  : '-';
              }),
              g1 === null ? 'n/a' : g1.toFixed(2),
              g2 === null ? 'n/a' : g2.toFixed(2),
            ];
          }),
        ),
      ),
    );
    out.push('');
  }
  return out;
}

/** The politeness audit per site and seed, and the forms the crawler skipped. */
function politenessSection(d: DeepwebData): string[] {
  const out: string[] = [];
  out.push('', '## Politeness', '');
  out.push(
    table(
      ['seed', 'host', 'requests', 'max concurrent', 'min gap ms', 'disallowed', '429s', 'violations'],
      d.audit.map((a) => [
        a.seed,
        a.host,
        a.requests,
        a.max_concurrent,
        a.min_gap_ms,
        a.disallowed,
        a.sent429,
        a.violations,
      ]),
    ),
  );
  if (d.skippedForms.length) {
    out.push(
      '',
      '## Forms skipped',
      '',
      table(
        ['seed', 'site', 'page', 'form', 'reason'],
        d.skippedForms.map((s) => [s.seed, s.site, s.page, s.form, s.reason]),
      ),
    );
  }
  return out;
}
