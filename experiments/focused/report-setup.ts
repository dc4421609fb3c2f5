/**
 * What a focused report says its result rests on: how the experiment was run (web or archive,
 * target and judgement, budget, strategies, statistics, the rerun command), each site's ground
 * truth and the judgement's quality there (also sites.csv's rows), and the web's structure.
 */
import { join } from 'node:path';
import { provenanceLine, readProvenance } from '../provenance.ts';
import type { RelevanceMode } from '../../crawler/focused/index.ts';
import { f3 } from '../../lib/format.ts';
import { resource } from '../../lib/paths.ts';
import { COMMON_RATE } from '../../lib/leak-probe.ts';
import type { unitOf } from '../intervals.ts';
import { relevanceOf, targetOf } from './config.ts';
import { CURVE_METRICS } from './metrics.ts';
import { ORACLE, type SiteFacts, type SummaryRow } from './rows.ts';
import type { ExperimentData } from './experiment-data.ts';
import { readFileSync } from 'node:fs';
import { append } from '../../lib/arrays.ts';

const MODE_TEXT: Record<RelevanceMode, string> = {
  paper: 'hand-written: a .pdf/.ps with an abstract and references, plus topic similarity',
  'paper-url':
    "the paper's definition by URL: a document whose URL ends in .pdf or .ps (compressed forms included), plus topic similarity; the bodies were not kept",
  keywords: 'the topic keywords alone: cosine similarity of the page to the topic',
  learned: 'a Naive Bayes page classifier trained on the labelled pages of the training sites, leave-one-site-out',
};

/** One row of sites.csv: what a (seed, site) rests on, flat. */
export function factRow(f: SiteFacts): Record<string, string | number | null> {
  const a = f.archive;
  const j = f.judgement;
  return {
    seed: f.seed,
    site: f.site,
    nodes: f.nodes,
    relevant: f.relevant,
    relevant_reachable: f.reachable,
    relevant_by_depth: f.depths.join(' '),
    // a URL space no budget exhausts is named: a crawl there may fetch as many pages as its budget
    traps: f.traps || 'none',
    holes_policy: a?.policy ?? null,
    archived_pages: a?.pages ?? null,
    linked_urls: a?.linkedUrls ?? null,
    hole_urls: a?.holes ?? null,
    known_documents: a?.documents ?? null,
    relevant_labelled: a?.relevantLabelled ?? null,
    relevant_documents: a?.relevantDocuments ?? null,
    collected: a?.collected ? a.collected.join('/') : null,
    judgement: j?.mode ?? null,
    judgement_auc: j ? (Number.isNaN(j.auc) ? null : j.auc) : null,
    judgement_precision: j?.precision ?? null,
    judgement_recall: j?.recall ?? null,
    judgement_accuracy: j?.accuracy ?? null,
    all_negative_accuracy: j?.allNegative ?? null,
    judgement_threshold: j?.threshold ?? null,
    leak_links: f.leak?.probe.links ?? null,
    leak_positives: f.leak?.probe.positives ?? null,
    leak_auc: f.leak && !Number.isNaN(f.leak.probe.auc) ? f.leak.probe.auc : null,
    leak_min_pr: f.leak?.probe.minPR ?? null,
    leak_min_pr_at_rate: f.leak?.probe.minPRAtRate ?? null,
    heading_rule_auc: f.leak && !Number.isNaN(f.leak.heading.auc) ? f.leak.heading.auc : null,
    heading_rule_min_pr: f.leak?.heading.minPR ?? null,
  };
}

/** Relevant items by depth as "d1: n, d2: n, ...", the deeper ones summed into "5+". */
function depthText(depths: readonly number[]): string {
  const parts: string[] = [];
  for (let d = 0; d < Math.min(5, depths.length); d++) if (depths[d]) parts.push(`${d}: ${depths[d]}`);
  const deep = depths.slice(5).reduce((a, b) => a + b, 0);
  if (deep) parts.push(`5+: ${deep}`);
  return parts.join(', ') || 'none';
}

/**
 * "What this rests on": per site the ground truth's size, where the relevant items lie from the
 * start page, an archive's holes and known documents and the policy they were crawled under,
 * what each run spent on holes, and how good the crawler's own relevance judgement is there.
 */
export function restsOn(d: ExperimentData): string[] {
  const cfg = d.config;
  const a = cfg.archive;
  const L = ['## What this rests on', ''];
  if (a) append(L, archiveSection(d, a));
  else if (d.facts.length) {
    L.push(
      '| seed | site | pages | relevant | reachable from the start | relevant by hops from the start page |',
      '|---|---|---|---|---|---|',
    );
    for (const f of d.facts)
      L.push(`| ${f.seed} | ${f.site} | ${f.nodes} | ${f.relevant} | ${f.reachable} | ${depthText(f.depths)} |`);
    L.push('', ...bill(d), '');
  }
  append(L, judgementSection(d));
  append(L, leakSection(d));
  return L;
}

/** An archive's collection: its dates, holes and documents, each site's counts, what hole fetches cost, the bill. */
function archiveSection(d: ExperimentData, a: NonNullable<ExperimentData['config']['archive']>): string[] {
  const cfg = d.config;
  const L: string[] = [];
  const dates = d.facts.flatMap((f) => f.archive?.collected ?? []).sort();
  L.push(
    `- Collection: ${a.source || a.warc.join(', ')}` +
      `${dates.length ? `; pages captured ${dates[0]} to ${dates[dates.length - 1]} (their saved Date headers)` : ''}.`,
    `- Holes (in-site links to URLs the collection lacks): policy **${a.holes}**: ${
      a.holes === 'closed'
        ? "the web is the collection's induced graph: links to holes are not offered (served as " +
          'data-archive-hole=), and a hole fetched anyway (an archived redirect, a URL written two ways) ' +
          'is answered 404 and charged to no one (the bill, below, says what everyone pays for)'
        : 'a hole is a 404 charged to the budget of whoever fetches it; the oracle never fetches one, so it and the strategies do not pay alike'
    }.`,
    `- Known documents: links to ${a.documents.join(' ')} files the collection lacks are served as ` +
      `placeholders (status 200, the type's media type, no text). ${
        a.relevantDocuments.length
          ? `Relevant documents are judged **by URL** (ending in ${a.relevantDocuments.join(' ')}), as the ` +
            'paper defines them, because the collection kept the links, not the bodies: nothing says a ' +
            'placeholder is a paper on the topic.'
          : ''
      }`,
    '',
    '| site | pages collected | in-site URLs linked | holes (share) | known documents | ' +
      'relevant | reachable from the start | relevant by hops from the start page |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const f of d.facts) {
    const s = f.archive!;
    L.push(
      `| ${f.site} | ${s.pages} | ${s.linkedUrls} | ${s.holes} ` +
        `(${f3(s.linkedUrls ? s.holes / s.linkedUrls : 0)}) | ${s.documents} | ` +
        `${f.relevant}${s.relevantLabelled && s.relevantDocuments ? ` (${s.relevantLabelled} labelled, ${s.relevantDocuments} documents)` : ''} ` +
        `| ${f.reachable} | ${depthText(f.depths)} |`,
    );
  }
  L.push(
    '',
    '"In-site URLs linked": distinct targets on the site\'s hosts of links from collected pages, documents left out; "holes": those never collected.',
    '',
  );
  const spend = cfg.strategies
    .map((s) => {
      const xs = d.summaries.filter((x) => x.strategy === s);
      if (!xs.length) return null;
      const m = (k: 'hole_fetches' | 'hole_charged'): string =>
        fc(Math.round((xs.reduce((t, x) => t + x[k], 0) / xs.length) * 10) / 10);
      return `${s} ${m('hole_fetches')} (${m('hole_charged')} charged)`;
    })
    .filter((x) => x !== null);
  L.push(`Hole fetches per run (mean): ${spend.join('; ')}; the oracle 0 (0 charged).`, '');
  append(L, bill(d));
  L.push('');
  return L;
}

/** How well the crawler's relevance judgement agreed with ground truth on each held-out site. */
function judgementSection(d: ExperimentData): string[] {
  const cfg = d.config;
  const L: string[] = [];
  const judged = d.facts.filter((f) => f.judgement);
  if (!judged.length) return L;
  const mode = judged[0].judgement!.mode;
  L.push(
    `The crawler's relevance judgement (**${mode}**) on each held-out site's pages, against ground truth${
      mode === 'learned'
        ? ': trained on the other sites only (features seen on two of them or more), its threshold chosen there (best F1, leave-one-training-site-out)'
        : mode === 'paper-url'
          ? ": the URL rule is the target's own definition, so it agrees with ground truth by " +
            'construction; what it cannot say is whether a placeholder is a paper on the topic'
          : ''
    }. Accuracy must clear the all-negative baseline (calling every page irrelevant) to mean anything.`,
    '',
    '| site | pages | relevant | AUC | precision | recall | accuracy | all-negative accuracy | threshold |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const f of judged) {
    const j = f.judgement!;
    L.push(
      `| ${f.site}${cfg.archive ? '' : ` (seed ${f.seed})`} | ${j.pages} | ${j.positives} | ` +
        `${Number.isNaN(j.auc) ? 'n/a' : f3(j.auc)} | ${f3(j.precision)} | ${f3(j.recall)} | ` +
        `${f3(j.accuracy)} | ${f3(j.allNegative)} | ` +
        `${j.threshold === null ? 'none (a rule)' : f3(j.threshold)} |`,
    );
  }
  L.push('');
  return L;
}

/** The learnt leak probe per site (experiments/env-leak.ts), with what it reads and what its numbers mean. */
function leakSection(d: ExperimentData): string[] {
  const probed = d.facts.filter((f) => f.leak);
  if (!probed.length) return [];
  const auc = (x: number): string => (Number.isNaN(x) ? 'n/a' : f3(x));
  return [
    'The learnt leak probe (issue #66): a Naive Bayes with no topic, trained on the other sites, scores ' +
      "each link of the held-out site by what a crawler sees before fetching it: the heading above it, the anchor's " +
      "shape, the target URL's path words (the file type and the topic keywords left out), its place on its page and " +
      "the page's share of document links; the heading rule reads the heading's words alone. AUC near 1 and a high " +
      'break-even (min of precision and recall) mean the web marks its target where a crawler with no topic can see ' +
      'it: a strategy that beats the others may be reading that mark. min(P,R) depends on the share of links ' +
      `that lead to the target, AUC does not: "at ${COMMON_RATE * 100}%" is min(P,R) had ${COMMON_RATE * 100}% of ` +
      "the links led to it (the negatives weighted), to compare webs whose shares differ (WebKB's are 15-35%, " +
      "the generated departments' 3-5%).",
    '',
    `| site | links | to relevant | probe AUC | probe min(P,R) | at ${COMMON_RATE * 100}% | heading rule AUC | heading min(P,R) |`,
    '|---|---|---|---|---|---|---|---|',
    ...probed.map((f) => {
      const { probe, heading } = f.leak!;
      return (
        `| ${f.site}${d.config.archive ? '' : ` (seed ${f.seed})`} | ${probe.links} | ${probe.positives} | ` +
        `${auc(probe.auc)} | ${f3(probe.minPR)} | ${f3(probe.minPRAtRate)} | ${auc(heading.auc)} | ${f3(heading.minPR)} |`
      );
    }),
    '',
  ];
}

/** The _doc of a web config written by npm run sim:fit (it has a _fit section), or null. */
function twinOf(file: string): string | null {
  try {
    const raw = JSON.parse(readFileSync(resource(file), 'utf8')) as { _fit?: unknown; _doc?: string };
    return raw._fit ? (raw._doc ?? 'fitted by npm run sim:fit (docs/twin.md)') : null;
  } catch {
    return null;
  }
}

/** The web's structure, per seed (sim/structure.ts): none for an archive. */
export function structureSection(d: ExperimentData): string[] {
  if (!d.config.archive && !d.config.diagnostics)
    return [
      "## The web's structure",
      '',
      'Not measured: this run was made with `diagnostics` off (`--no-diagnostics`), so the report cannot ' +
        "say how the web's research communities are separated or what its URLs give away; " +
        '`npm run sim:stats` measures the same web.',
      '',
    ];
  if (!d.structure.length) return [];
  const out: string[] = [];
  out.push(
    "## The web's structure",
    '',
    'What the result rests on (sim/structure.ts; `npm run sim:stats` prints the same): ' +
      'off-topic pages between research communities (ordered pairs of groups of a department; ' +
      '"0" means a crawler can step from one community into another), where relevant documents ' +
      "are linked from, how alike the departments' conventions are, the transfer leak (the best " +
      'URL rule learnt on the other departments, scored on each one), and the rule nobody ' +
      'learns, "the URL names a document file" (what documents-first knows).',
    '',
  );
  out.push(
    '| seed | fewest off-topic pages between communities | pairs at 0 / 1 / 2+ | pages ' +
      'linking a relevant document directly | links to them from outside their community | URL ' +
      'templates alike (Jaccard) | anchor mix distance | transfer leak precision / recall | ' +
      'document-file rule precision / recall | file-name shape rule precision / recall |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const { seed, stats: st } of d.structure) {
    const h = st.gapHistogram;
    const total = Object.values(h).reduce((a, b) => a + b, 0) || 1;
    const share = (k: (x: string) => boolean): string =>
      f3(
        Object.entries(h)
          .filter(([x]) => k(x))
          .reduce((a, [, v]) => a + v, 0) / total,
      );
    const mean = (k: 'directLinkShare' | 'relevantLinksFromOutside'): string =>
      f3(st.sites.reduce((a, x) => a + x[k], 0) / Math.max(1, st.sites.length));
    out.push(
      `| ${seed} | ${st.gapMin ?? 'n/a'} | ${share((x) => x === '0')} / ` +
        `${share((x) => x === '1')} / ${share((x) => x !== '0' && x !== '1')} | ` +
        `${mean('directLinkShare')} | ${mean('relevantLinksFromOutside')} | ` +
        `${f3(st.templateJaccard)} | ${f3(st.anchorDistance)} | ${f3(st.transferPrecision)} / ` +
        `${f3(st.transferRecall)} | ${f3(st.documentPrecision)} / ${f3(st.documentRecall)} | ` +
        `${f3(st.shapePrecision)} / ${f3(st.shapeRecall)} |`,
    );
  }
  out.push('');
  return out;
}

/** How the experiment was run: web or archive, target and judgement, budget, strategies, statistics, rerun. */
export function setupSection(
  d: ExperimentData,
  strategies: readonly string[],
  runs: number,
  method: string,
  unit: ReturnType<typeof unitOf>,
  rerun: string,
  dir: string,
): string[] {
  const cfg = d.config;
  const L: string[] = [];
  L.push('## Setup', '');
  if (cfg.archive) {
    L.push(
      `- Web: real pages replayed from the archive ` +
        `${cfg.archive.warc.map((f) => `\`${f}\``).join(', ')}; ground truth: the labels ` +
        `in \`${cfg.archive.labels}\` (relevant labels: ${cfg.archive.relevant.join(', ')}); sites ` +
        `crawled: ${d.sites.map((s) => `\`${s}\``).join(', ')}. One web: the runs differ only by site.`,
    );
  } else {
    L.push(
      `- Web: \`${cfg.web}\`, seeds ${cfg.seeds.join(', ')} (one generated web per seed); departments crawled: ${d.sites.map((s) => `\`${s}\``).join(', ')}.`,
    );
    // a twin (npm run sim:fit) says what it was fitted to, and a scaled one that it extrapolates
    const twin = twinOf(cfg.web);
    if (twin) L.push(`- **A synthetic twin**, not a measured web: ${twin}`);
  }
  if (!cfg.replay)
    L.push("- No crawl replay on the results page: `replay` off (`--no-replay`), the first run's layout not computed.");
  const mode = relevanceOf(cfg);
  L.push(
    `- Target: ${targetOf(cfg)}; topic keywords (immediate value's ` +
      `topic): \`${cfg.keywords ?? 'data/vocab/computing.txt'}\`. The crawler's relevance ` +
      `judgement (its reward, top-K and logged relevance): **${mode}** (${MODE_TEXT[mode]}).`,
  );
  L.push(
    `- Budget: ${cfg.budget} ${
      cfg.budgetCounts === 'pages'
        ? '2xx pages per run (other responses are fetched but not counted; precision = relevant / 2xx pages)'
        : 'requests per run, every response counted (3xx, 4xx and errors included; precision = ' +
          'relevant / requests), as in the paper'
    }.`,
  );
  L.push(
    `- Strategies: ${strategies.join(', ')}; deterministic mode, ${cfg.crawl.concurrency} requests per batch, ${runs} runs per strategy (${ordersText(cfg)}).`,
  );
  L.push(
    `- Future value and adaptive: leave-one-site-out (each site crawled with a classifier ` +
      `trained on the other sites of the same web); Q = sum of gamma^distance over relevant ` +
      `documents within ${cfg.future.horizon} hop(s), gamma ${cfg.future.gamma}, ` +
      `${cfg.future.bins} bins (aggregate: ${cfg.future.aggregate}).`,
  );
  L.push(
    `- Oracle: a greedy crawl order computed from ground truth (evaluator only): a discovered ` +
      `relevant document is fetched at once; otherwise the path of unfetched pages that yields ` +
      `the most relevant documents per page spent. It fetches only pages linked from pages it ` +
      `fetched, from the same start page, and keeps spending the budget after the last reachable ` +
      `document. It is a strong reference, not a proven optimum.`,
  );
  L.push(
    `- Metrics every ${cfg.every} pages: ` +
      `${CURVE_METRICS.map((m) => `${m.key} = ${m.help.replace('`every`', String(cfg.every))}`).join('; ')}; ` +
      `recall AUC = area under the recall curve over the budget, divided by the budget. Early ` +
      `phase: the first ${Math.round(cfg.earlyPhase * 100)}% of the budget.`,
  );
  L.push(
    `- Statistics: ${method}. Claims are decided on paired differences (same seed and site), ` +
      `averaged within ${unit === 'seed' ? 'seeds' : 'sites'} first: PASS or FAIL when the 95% ` +
      `CI of the difference excludes 0, TIE when it contains 0, INFEASIBLE when the oracle ` +
      `itself cannot meet the claim at this budget.`,
  );
  L.push(
    `- Server faults: ${cfg.faults ? 'on' : 'off (fault handling is covered by the crawler tests; here only link ordering differs)'}. ` +
      `Rerun: \`${rerun}\`, or \`npm run experiment -- ${join(dir, 'config.json')}\`.`,
  );
  const made = readProvenance(dir);
  if (made) L.push(`- Made by: ${provenanceLine(made)} (\`provenance.json\`).`);
  L.push('');
  return L;
}

/** A count or mean count: whole numbers without decimals, others with one (never locale-formatted). */
export const fc = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/**
 * The bill (issue #66): what the budget counts, for every strategy and the oracle alike, from the
 * config's rule, and the redirects each paid per run (summary.csv status_3xx).
 */
function bill(d: ExperimentData): string[] {
  const perRun = (name: string): string | null => {
    const xs = d.summaries.filter((x) => x.strategy === name);
    return xs.length ? fc(Math.round((xs.reduce((t, x) => t + x.status_3xx, 0) / xs.length) * 10) / 10) : null;
  };
  const paid = [...d.config.strategies, ORACLE]
    .map((s) => (perRun(s) === null ? null : `${s} ${perRun(s)}`))
    .filter((x) => x !== null);
  const lines =
    d.config.budgetCounts === 'requests'
      ? [
          '- The bill: every request counts against the budget, for every strategy and the oracle alike. ' +
            "A link the server answers with a redirect costs the 3xx and then the page: the oracle's path " +
            'goes through the same redirect a crawler is served. Redirects paid per run (mean): ' +
            `${paid.join('; ')}.`,
        ]
      : [
          '- The bill: only 2xx pages count against the budget, for every strategy and the oracle alike; ' +
            'redirects, errors and 404s cost no one. Redirects fetched per run (mean, free): ' +
            `${paid.join('; ')}.`,
        ];
  return [...lines, ...billBySite(d)];
}

/**
 * What a run is, with its link orders named (issue #85: a run from another firstOrder is another
 * set of draws, and says which).
 */
function ordersText(cfg: ExperimentData['config']): string {
  const first = cfg.firstOrder ?? 1;
  const n = cfg.orderSeeds ?? 1;
  if (first === 1 && n === 1) return "seed x site, in the page's own link order";
  const orders = n === 1 ? `order ${first}` : `orders ${first}-${first + n - 1}`;
  return (
    `seed x site x link order, ${orders}: order 1 the page's own, any other a seeded permutation ` +
    "of each page's links and a draw of the strategy's own randomness"
  );
}

/**
 * The bill by department (issue #85): a mean over departments hides the one where redirects eat
 * a seventh of the budget. Per site, over the strategies' runs: redirects per run as a share of
 * the budget (the strategies' mean range, the largest single run) and the oracle's; hole fetches
 * per run; requests sent past the budget while in flight (summary.csv past_budget: the server saw
 * them, no column of the run counts them). summary.csv has each run's.
 */
export function billBySite(d: ExperimentData): string[] {
  const budget = d.config.budget;
  const sites = [...new Set(d.summaries.map((x) => x.site))].sort();
  if (sites.length < 2) return [];
  const share = (x: SummaryRow): number => x.status_3xx / budget;
  const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const L = [
    '',
    'The bill by department (redirects as a share of the budget, per run):',
    '',
    '| site | strategies: mean per strategy | largest run | oracle | hole fetches per run | requests past the budget per run (largest) |',
    '|---|---|---|---|---|---|',
  ];
  for (const site of sites) {
    const rows = d.summaries.filter((x) => x.site === site);
    const runs = rows.filter((x) => x.strategy !== ORACLE);
    const byStrategy = d.config.strategies
      .map((s) => runs.filter((x) => x.strategy === s))
      .filter((xs) => xs.length)
      .map((xs) => mean(xs.map(share)));
    const oracle = rows.filter((x) => x.strategy === ORACLE);
    const holes = runs.map((x) => x.hole_fetches);
    // a summary.csv written before past_budget existed: unknown, not 0
    const past = runs.some((x) => x.past_budget === undefined) ? null : runs.map((x) => x.past_budget);
    L.push(
      `| ${site} | ${f3(Math.min(...byStrategy))}-${f3(Math.max(...byStrategy))} | ${f3(Math.max(...runs.map(share)))} | ` +
        `${f3(mean(oracle.map(share)))} | ${fc(Math.round(mean(holes) * 10) / 10)} | ` +
        `${past ? `${fc(Math.round(mean(past) * 10) / 10)} (${fc(Math.max(...past))})` : 'n/a (summary.csv before past_budget)'} |`,
    );
  }
  return L;
}
