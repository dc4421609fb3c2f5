/**
 * report.md of a focused experiment: the ranking with its ties, what the runs rest on (the web or
 * archive, its structure, the target, the judgement and its quality), what the probes with no
 * topic say, every claim's verdict, and the command that reruns it.
 */
import { FIXED_READINGS } from '../../crawler/focused/index.ts';
import { f3 } from '../../lib/format.ts';
import { detectable, pairedCi, pmText, signVerdict, type Unit, unitCi, unitOf } from '../intervals.ts';
import { probeStrategies, topicalStrategies } from '../strategy-registry.ts';
import { styleClashes } from '../figures.ts';
import { type Aggregate, type Claim, curvesBands, curvesCiMethod, pagesToRecall, totals } from './analysis.ts';
import { FIGURE_METRICS } from './metrics.ts';
import { ORACLE, type SummaryRow } from './rows.ts';
import type { ExperimentData } from './experiment-data.ts';
import { fc, restsOn, setupSection, structureSection } from './report-setup.ts';
import { append } from '../../lib/arrays.ts';

/** How the report names the strategies that run on the adaptive thresholds (others by their name). */
const THRESHOLD_STRATEGIES: Record<string, string> = {
  adaptive: "Adaptive (the paper's algorithm, its steps as they read)",
  'adaptive-page': "Adaptive-page (the project's first reading of the paper's algorithm)",
  'adaptive-rescue':
    'Adaptive-rescue (ours: adaptive plus the fallback that tunnels through discarded links when the frontier runs dry)',
};

/**
 * Strategies ranked by mean recall AUC, each with its CI and its paired difference to the next
 * one down: a difference whose CI contains 0 is a tie, and the ranking says so.
 */
function ranking(d: ExperimentData, strategies: readonly string[], unit: ReturnType<typeof unitOf>): string[] {
  const runs = (s: string): SummaryRow[] => d.summaries.filter((x) => x.strategy === s);
  const ranked = strategies
    .map((s) => ({ s, ci: unitCi(runs(s), (r) => r.recall_auc, unit) }))
    .sort((a, b) => b.ci.mean - a.ci.mean || (a.s < b.s ? -1 : 1));
  const L = [
    '## Ranking by recall AUC',
    '',
    '| rank | strategy | recall AUC (mean ± 95% CI) | minus the next one down (paired, mean [95% CI]) | |',
    '|---|---|---|---|---|',
  ];
  ranked.forEach((r, i) => {
    const next = ranked[i + 1];
    const diff = next ? pairedCi(runs(r.s), runs(next.s), (x) => x.recall_auc, unit) : null;
    const v = diff === null ? null : signVerdict(diff);
    const d = diff === null ? NaN : detectable(diff);
    L.push(
      `| ${i + 1} | ${r.s} | ${f3(r.ci.mean)} ± ${f3(r.ci.hi - r.ci.mean)} | ` +
        `${diff ? `${f3(diff.mean)} [${f3(diff.lo)}, ${f3(diff.hi)}]` : ''} | ` +
        `${
          v === null
            ? ''
            : v === 'TIE'
              ? `tie with the next${Number.isFinite(d) ? ` (detectable: ${f3(d)})` : ''}`
              : v === 'NO DATA'
                ? 'identical in every run'
                : 'ahead'
        } |`,
    );
  });
  L.push(
    '',
    'Ranked by mean. "Tie with the next": the paired CI contains 0, so these runs cannot ' +
      'order the two (ties do not chain: compare any two rows in differences.csv or with more ' +
      'seeds); "detectable": the smallest true difference these runs would have found with 80% ' +
      'power (paired t, intervals.ts detectable). The oracle bounds every row (its recall AUC is ' +
      'in the results table).',
  );
  return L;
}
/** The probes: strategies with no topic that show what the web gives away (issue #35). */
export const PROBES = probeStrategies();
/** The strategies that read the topic or learn the target, which a probe must not match. */
const TOPICAL = topicalStrategies();

/**
 * What the probes say: each probe's paired recall AUC difference with each topical strategy of
 * the run. A probe that beats or ties a topical strategy means the web marks relevance by
 * something other than the topic, and the report says so in words.
 */
function probes(d: ExperimentData, strategies: readonly string[], unit: ReturnType<typeof unitOf>): string[] {
  const here = PROBES.filter((p) => strategies.includes(p));
  const topical = TOPICAL.filter((t) => strategies.includes(t));
  if (!here.length || !topical.length) return [];
  const runs = (s: string): SummaryRow[] => d.summaries.filter((x) => x.strategy === s);
  const L = [
    '',
    '## What the probes say',
    '',
    'Probes read no topic: docs-first fetches links with a document extension first, else ' +
      'breadth-first; url-prior is future value reading only URL words, trained on the other ' +
      'sites. Paired recall AUC, probe minus strategy:',
    '',
    `| probe | ${topical.join(' | ')} |`,
    `|---|${topical.map(() => '---|').join('')}`,
  ];
  const beats: string[] = [];
  const ties: { text: string; detectable: number }[] = [];
  for (const p of here) {
    const cells = topical.map((t) => {
      const c = pairedCi(runs(p), runs(t), (x) => x.recall_auc, unit);
      const v = signVerdict(c);
      const dd = detectable(c);
      if (v === 'PASS') beats.push(`${p} beats ${t}`);
      else if (v === 'TIE' || v === 'NO DATA') ties.push({ text: `${p} ties ${t}`, detectable: dd });
      const note =
        v === 'PASS'
          ? ' **ahead**'
          : v === 'TIE' && Number.isFinite(dd)
            ? ` tie (detectable ${f3(dd)})`
            : v === 'TIE'
              ? ' tie'
              : '';
      return `${f3(c.mean)} [${f3(c.lo)}, ${f3(c.hi)}]${note}`;
    });
    L.push(`| ${p} | ${cells.join(' | ')} |`);
  }
  const range = (xs: number[]): string => {
    const f = xs.filter(Number.isFinite);
    return f.length ? `${f3(Math.min(...f))}-${f3(Math.max(...f))}` : 'n/a';
  };
  L.push(
    '',
    beats.length
      ? `**A rule with no topic beats a topical strategy here** ` +
          `(${beats.join('; ')}${ties.length ? `; and ${ties.map((x) => x.text).join('; ')}` : ''}): ` +
          `on this web the target is marked by its URLs or file types, and a topical ` +
          `strategy's lead over such a probe is what its topic adds.`
      : ties.length
        ? `**No topical strategy is measurably ahead of a rule with no topic** ` +
          `(${ties.map((x) => x.text).join('; ')}; these runs would have detected differences ` +
          `of ${range(ties.map((x) => x.detectable))} recall AUC): what the topic adds here is ` +
          `smaller than that, if anything.`
        : 'Every topical strategy is ahead of every probe: on this web the topic, not the URL or file type alone, leads to the target.',
  );
  return L;
}

/** The published anchor (Rennie & McCallum's RL spider against breadth-first), where the run has both. */
function anchorsSection(cfg: ExperimentData['config'], aggs: Aggregate[], strategies: readonly string[]): string[] {
  const L: string[] = [];
  L.push('', '## Published anchors', '');
  const levels = [0.25, 0.5, 0.75];
  if (strategies.includes('bfs') && strategies.includes('future')) {
    L.push(
      '| comparison | published | ours (pages BFS needs / pages future value needs, mean curves) |',
      '|---|---|---|',
    );
    const parts = levels.map((lv) => {
      const b = pagesToRecall(aggs, 'bfs', lv);
      const o = pagesToRecall(aggs, 'future', lv);
      return (
        `${Math.round(lv * 100)}% recall: ` +
        `${b === null || o === null ? (o !== null ? `> ${(cfg.budget / o).toFixed(1)}x (BFS never gets there)` : 'not reached') : `${(b / o).toFixed(1)}x`}`
      );
    });
    L.push(
      `| future value (the RL spider) vs breadth-first | Rennie & McCallum (ICML 1999): RL ` +
        `spider about 3x as efficient as breadth-first | ${parts.join('; ')} |`,
    );
    L.push(
      '',
      'The anchor applies to future value only: immediate value and the adaptive crawler are not the RL spider.',
    );
  } else L.push('No anchor applies: the Rennie & McCallum comparison needs future value and breadth-first in one run.');
  return L;
}

/** The results at the budget: each strategy's recall, precision, outcomes and counters (mean and CI over runs). */
function resultsTable(d: ExperimentData, rows: readonly string[], unit: Unit): string[] {
  const cfg = d.config;
  const pm = (xs: readonly SummaryRow[], k: 'recall' | 'recall_reachable' | 'recall_auc' | 'precision'): string =>
    pmText(unitCi(xs, (r) => r[k], unit));
  const L: string[] = [];
  L.push(`## Results at ${cfg.budget} pages`, '');
  L.push(
    '| strategy | recall | reachable recall | recall AUC | precision | pages per relevant | ' +
      'fetches 2xx / 3xx / 4xx / 5xx / error (mean per run) | links scored | links discarded |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const s of rows) {
    const xs = d.summaries.filter((x) => x.strategy === s);
    if (!xs.length) continue;
    const avg = (k: keyof SummaryRow): string =>
      fc(Math.round((xs.reduce((a, r) => a + (r[k] as number), 0) / xs.length) * 10) / 10);
    const t = totals(xs);
    const outcomes =
      s === ORACLE
        ? 'n/a'
        : (['status_2xx', 'status_3xx', 'status_4xx', 'status_5xx', 'fetch_errors'] as const).map(avg).join(' / ');
    L.push(
      `| ${s === ORACLE ? '*oracle*' : s} | ${pm(xs, 'recall')} | ${pm(xs, 'recall_reachable')} ` +
        `| ${pm(xs, 'recall_auc')} | ${pm(xs, 'precision')} | ` +
        `${t.pagesPerRelevant === null ? 'n/a' : t.pagesPerRelevant.toFixed(2)} | ${outcomes} | ` +
        `${s === ORACLE ? 'n/a' : avg('links_scored')} | ${s === ORACLE ? 'n/a' : avg('discarded')} |`,
    );
  }
  return L;
}

/** report.md: what the runs found, what they rest on, the claims' verdicts, how to rerun it. */
export function reportMarkdown(
  d: ExperimentData,
  aggs: Aggregate[],
  claims: Claim[],
  reference: string,
  rerun: string,
  dir: string,
  /** Outputs that could not be made (a figure, the page): name -> why. The report says so. */
  missing: ReadonlyMap<string, string> = new Map(),
): string {
  const cfg = d.config;
  const strategies = cfg.strategies.filter((s) => d.summaries.some((x) => x.strategy === s));
  const rows = [ORACLE, ...strategies];
  const runs = d.summaries.filter((x) => x.strategy === strategies[0]).length;
  const unit = unitOf(d.curves);
  const method = curvesCiMethod(d.curves);
  const L: string[] = [];
  L.push(`# ${cfg.name}: ${cfg.description || 'experiment report'}`, '');
  append(L, setupSection(d, strategies, runs, method, unit, rerun, dir));
  append(L, restsOn(d));
  append(L, structureSection(d));
  append(L, figuresSection(d, strategies, runs, reference, missing));
  append(L, resultsTable(d, rows, unit));
  append(L, runNotes(d, rows));
  if (strategies.length > 2) L.push('', ...ranking(d, strategies, unit));
  append(L, probes(d, strategies, unit));
  append(L, claimsTable(claims, strategies));
  append(L, anchorsSection(cfg, aggs, strategies));
  append(L, discussion(d, claims));
  return L.join('\n');
}

/** The figures, each with its caption (or why it was not written), and the other outputs not written. */
function figuresSection(
  d: ExperimentData,
  strategies: string[],
  runs: number,
  reference: string,
  missing: ReadonlyMap<string, string>,
): string[] {
  const cfg = d.config;
  const seeds = [...new Set(d.curves.map((c) => c.seed))];
  const L: string[] = ['## Figures', ''];
  const bands = curvesBands(d.curves).text;
  // a plug-in whose declared style a built-in already draws is drawn in a spare one: said
  const clashes = styleClashes(['oracle', ...strategies]);
  const tieNote = curvesBands(d.curves).draw ? ' A band that contains 0 is a tie at that point.' : '';
  const styleNote = clashes.length ? ` Styles: ${clashes.join('; ')}.` : '';
  const caption = (what: string): string =>
    `*${what}. Mean over ${runs} runs (${seeds.length} seed${seeds.length > 1 ? 's' : ''} x ` +
    `${d.sites.length} sites); bands: ${bands}. Grey: the ground-truth oracle.${styleNote}*`;
  const figure = (name: string, alt: string, text: string): void => {
    const why = missing.get(name);
    L.push(why === undefined ? `![${alt}](${name}.png)` : `**${name} not written**: ${why}`, '', text, '');
  };
  for (const m of FIGURE_METRICS) figure(`fig-${m.key}`, m.key, caption(m.figure.caption(cfg.every)));
  if (strategies.length > 1)
    figure(
      'fig-difference',
      'difference',
      `*Recall of each strategy minus ${reference}'s, paired by seed and site; bands: ${bands}.${tieNote}*`,
    );
  const others = [...missing].filter(([name]) => !name.startsWith('fig-'));
  if (others.length) L.push(`**Not written**: ${others.map(([name, why]) => `\`${name}\` (${why})`).join('; ')}.`, '');
  L.push('Each figure also as .svg and .pdf (vector, real text with its font embedded, 3.3 in wide).', '');
  return L;
}

/** The claims and their verdicts, or why none applies. */
function claimsTable(claims: Claim[], strategies: string[]): string[] {
  const L: string[] = ['', '## Claims', ''];
  // a config without the strategies a claim compares judges none: said, not an empty table
  if (!claims.length)
    L.push(
      'No claim applies: each compares some of immediate, future, adaptive, bfs and random, and ' +
        `this run had ${strategies.join(', ')}.`,
    );
  else L.push('| | claim | source | measured (paired difference, mean [95% CI]) | verdict |', '|---|---|---|---|---|');
  for (const c of claims) L.push(`| ${c.id} | ${c.claim} | ${c.source} | ${c.measured} | **${c.verdict}** |`);
  return L;
}

/** The verdicts counted, what each kind of verdict means where one occurs, where the web came from, the time. */
function discussion(d: ExperimentData, claims: Claim[]): string[] {
  const L: string[] = [];
  const count = (v: string): string[] => claims.filter((c) => c.verdict === v).map((c) => c.id);
  L.push('', '## Discussion', '');
  if (claims.length)
    L.push(
      `Of ${claims.length} claims: ${['PASS', 'FAIL', 'TIE', 'NO DATA', 'INFEASIBLE']
        .map((v) => `${count(v).length} ${v}${count(v).length ? ` (${count(v).join(', ')})` : ''}`)
        .join(', ')}.`,
    );
  if (count('INFEASIBLE').length)
    L.push(
      '',
      'INFEASIBLE: the ground-truth oracle itself does not meet the claim at this budget, so no ' +
        'crawler could; the claim cannot be tested on this web at this budget.',
    );
  if (count('TIE').length)
    L.push(
      '',
      'TIE: the 95% CI of the paired difference contains 0; this many runs cannot tell the ' +
        'strategies apart at that point. "Detectable" is the smallest true difference they would ' +
        'have found with 80% power (two-sided paired t at 5%, (t(0.975, n-1) + t(0.8, n-1)) x sd / ' +
        'sqrt(n) over the units, at the observed spread): a tie says nothing about differences ' +
        'smaller than that.',
    );
  if (count('NO DATA').length)
    L.push(
      '',
      'NO DATA: every run gave exactly the same value for both sides (difference 0 with no ' +
        'spread): the strategies did the same thing there, so the runs are no evidence either way.',
    );
  if (d.config.archive)
    L.push('', 'The archive is real pages as they were saved; nothing in it was generated or tuned for any strategy.');
  else
    L.push(
      '',
      "The web's parameters come from published statistics and were not tuned for any strategy; " +
        "docs/reproduction.md discusses why these results differ from the paper's.",
    );
  L.push(
    '',
    `Wall time: ${(d.wallMs / 1000).toFixed(1)} s; mean per run: ${Object.entries(d.timings)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`)
      .join(', ')}.`,
    '',
  );
  return L;
}

/**
 * What the runs did beyond the tables: the strategies' own counters, the relevant documents per
 * site and their reach, the adaptive crawler's thresholds and modes, the runs that stranded.
 */
function runNotes(d: ExperimentData, rows: readonly string[]): string[] {
  const cfg = d.config;
  const out: string[] = [];
  append(out, countersTable(d, rows));
  const sums = d.summaries.filter((x) => x.strategy === ORACLE);
  const unreachable = sums.filter((x) => x.relevant_reachable < x.relevant_total);
  out.push(
    '',
    `Relevant documents per site: ${fc(Math.min(...sums.map((x) => x.relevant_total)))} to ${fc(Math.max(...sums.map((x) => x.relevant_total)))}; ` +
      (unreachable.length
        ? `${unreachable.length} of ${sums.length} runs' sites have documents not reachable from the start page (${unreachable
            .map((x) => `${x.site} seed ${x.seed}: ${x.relevant_reachable} of ${x.relevant_total}`)
            .slice(0, 6)
            .join('; ')}).`
        : 'all reachable from the start page inside the scope.') +
      ' Pages per relevant is total pages over total relevant found (a ratio of totals).',
  );
  // every strategy that ran on the adaptive thresholds (its summaries carry r1), in the config's order
  for (const name of cfg.strategies) {
    const ad = d.summaries.filter((x) => x.strategy === name && x.r1 !== null);
    if (ad.length) out.push('', thresholdNote(cfg, name, ad));
  }
  const stranded = d.summaries.filter((x) => x.strategy !== ORACLE && x.pages < cfg.budget);
  if (stranded.length)
    out.push(
      '',
      `Runs that ended before the budget (out of links): ${stranded
        .map((x) => `${x.strategy} ${x.site} seed ${x.seed} at ${x.pages}`)
        .slice(0, 8)
        .join('; ')}${stranded.length > 8 ? `; ${stranded.length - 8} more` : ''}.`,
    );
  return out;
}

/** The strategies' own counters (their stats(), as counter_ columns), mean per run, a row a strategy. */
function countersTable(d: ExperimentData, rows: readonly string[]): string[] {
  const out: string[] = [];
  // what strategies count themselves (stats()) beyond the columns above, by name
  const counters = [...new Set(d.summaries.flatMap((x) => Object.keys(x).filter((k) => k.startsWith('counter_'))))];
  if (!counters.length) return out;
  out.push(
    '',
    "Strategies' own counters (their stats(), mean per run; summary.csv has each run's):",
    '',
    `| strategy | ${counters.map((c) => c.slice('counter_'.length)).join(' | ')} |`,
    `|---|${counters.map(() => '---').join('|')}|`,
  );
  for (const s of rows) {
    const xs = d.summaries.filter((x) => x.strategy === s && counters.some((c) => c in x));
    if (!xs.length) continue;
    const cell = (c: string): string => {
      const v = xs.map((x) => (x as unknown as Record<string, unknown>)[c]).filter((v) => typeof v === 'number');
      return v.length ? fc(Math.round(((v as number[]).reduce((a, b) => a + b, 0) / v.length) * 10) / 10) : '';
    };
    out.push(`| ${s} | ${counters.map(cell).join(' | ')} |`);
  }
  return out;
}

/** How a strategy on the adaptive thresholds ran: the reading, r1 and r2, retrainings, pages by decision, warnings. */
function thresholdNote(cfg: ExperimentData['config'], name: string, ad: readonly SummaryRow[]): string {
  // a strategy's own counter may be missing from a row (a plug-in's): it counts 0
  const meanOf = (xs: readonly SummaryRow[], k: keyof SummaryRow): string =>
    fc(Math.round((xs.reduce((a, x) => a + ((x[k] as number | undefined) ?? 0), 0) / xs.length) * 10) / 10);
  const none = ad.filter((x) => x.retrainings === 0);
  const pages = ad.reduce((t, x) => t + x.exploit_pages + x.tunnel_pages + x.discard_pages, 0);
  const exploited = ad.reduce((t, x) => t + x.exploit_pages, 0);
  const counter = (k: string): string => meanOf(ad, `counter_${k}`);
  const unreachable = ad.filter((x) => (x.counter_r2AboveReach ?? 0) > 0);
  // the config's reading, but for what a named reading fixes (adaptive-page: scope page, tunnel priority)
  const a = { ...cfg.adaptive, ...FIXED_READINGS[name] };
  return (
    `${THRESHOLD_STRATEGIES[name] ?? name}: thresholds compared with each ${a.scope === 'link' ? 'link' : 'page'} ` +
    `(scope "${a.scope}"), chosen by the "${a.thresholdRule}" rule on the training sites of each ` +
    `run${a.thresholds === 'online' ? ' and again at every retraining' : ''}, r1 ${f3(Math.min(...ad.map((x) => x.r1!)))} to ` +
    `${f3(Math.max(...ad.map((x) => x.r1!)))}, r2 ${f3(Math.min(...ad.map((x) => x.r2!)))} to ` +
    `${f3(Math.max(...ad.map((x) => x.r2!)))}; retraining every T = ` +
    `${cfg.adaptive.retrainEvery} pages it judged (top-K ${cfg.adaptive.topK}): ` +
    `${meanOf(ad, 'retrainings')} retrainings per run. ` +
    `Pages per run whose links it exploited (>= r1): ${meanOf(ad, 'exploit_pages')}, ` +
    `tunnelled through (>= r2): ${meanOf(ad, 'tunnel_pages')}, discarded: ` +
    `${meanOf(ad, 'discard_pages')}; links rescued when the frontier ran dry: ` +
    `${meanOf(ad, 'rescued_links')}. Pages per run fetched through a tunnelling link: ` +
    `${counter('tunnelFetched')}${a.tunnel === 'thread' ? `, through a thread's: ${counter('threadFetched')}` : ''}` +
    (a.tunnel === 'subcrawl'
      ? ` (by a thread per tunnelling link: ${counter('threadsOpened')} threads opened, ` +
        `${counter('threadFetched')} pages fetched by them)`
      : '') +
    '.' +
    (unreachable.length
      ? ` Warning: in ${unreachable.length} of ${ad.length} runs r2 was above every Q the classifier ` +
        'could give or the crawl computed, so it could not tunnel but from the start page: ' +
        'what those runs show of tunnelling is the threshold, not the idea.'
      : '') +
    (none.length
      ? ` ${none.length} of ${ad.length} runs never retrained: T = ${cfg.adaptive.retrainEvery} ` +
        `pages is more than the ${meanOf(none, 'status_2xx')} pages (2xx) such a run judged.`
      : '') +
    (pages && exploited === pages
      ? ' Every page it judged was at or above r1, so it never used its future value: on these runs it is immediate value.'
      : '')
  );
}
