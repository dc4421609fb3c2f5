/**
 * CI regression of the main experiment: the quick configuration (small web, seed 1, 600 pages)
 * against the reference committed in results/reference/focused-quick/ (regenerate with
 * `npm run experiment:reference` after an intended change, and say why in the commit).
 * Determinism whatever the scheduling: the run here is in-process, the reference was written by
 * two worker processes (the CLI's default) at an earlier commit, and the tables must be
 * byte-identical (a second run in this test proved less and cost half a minute). Where they
 * differ, the recall and precision points further apart than 0.02 are named first. Also checks
 * the claims the quick configuration supports.
 */
import { readFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectCurvesNear, focusedOutputFiles, scaledWeb } from './helpers.ts';
import { checkClaims } from '../experiments/focused/analysis.ts';
import { loadExperiment } from '../experiments/focused/config.ts';
import { writeOutputs } from '../experiments/focused/report.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { scaled } from './speed.ts';

const REF = 'results/reference/focused-quick';
const TOLERANCE = 0.02;
// Training, a quick run and every output: about 30 s on this machine beside another test file
// (60 s with the second run it once had, vitest's whole default timeout); CI needs the margin.
const RUNS_MS = scaled(180_000);

describe('experiment regression (quick configuration)', () => {
  it('matches the committed reference curves, deterministically, and writes every output', {
    timeout: RUNS_MS,
  }, async () => {
    const cfg = loadExperiment('focused', { quick: true });
    const cache = mkdtempSync(join(tmpdir(), 'models-'));
    const a = await runExperiment(cfg, { workers: 0, cacheDir: cache });
    const outA = mkdtempSync(join(tmpdir(), 'expA-'));
    await writeOutputs(a, outA);
    expect(readdirSync(outA).sort()).toEqual(focusedOutputFiles());
    // the replay is the first run's: every strategy's fetch order on the first site, and the oracle's
    const replay = JSON.parse(readFileSync(join(outA, 'replay.json'), 'utf8')) as {
      site: string;
      n: number;
      xy: number[];
      orders: Record<string, number[]>;
    };
    expect(replay.site).toBe(a.sites[0]);
    expect(replay.xy.length).toBe(2 * replay.n);
    expect(Object.keys(replay.orders).sort()).toEqual([...cfg.strategies, 'oracle'].sort());
    expect(readFileSync(join(outA, 'fig-recall.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(readFileSync(join(outA, 'fig-recall.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    // the written config is itself a config, and it describes this run
    const again = loadExperiment(join(outA, 'config.json'));
    expect(again).toHaveProperty('_rerun');
    expect({ ...again, quick: {}, sites: [], _rerun: undefined }).toEqual({
      ...cfg,
      quick: {},
      sites: [],
      _rerun: undefined,
    });
    expect(again.sites).toEqual(a.sites);
    const report = readFileSync(join(outA, 'report.md'), 'utf8');
    for (const s of [
      '*oracle*',
      'reachable recall',
      'recall AUC',
      'Student t interval over 4 sites of one web',
      // C5 decided where the oracle can meet it (its precision above 0.5), not INFEASIBLE as a whole; the rest named
      "where the oracle's mean precision is 0.5 or below, left out",
      '## What this rests on',
      '## What the probes say',
      'detectable: ',
    ])
      expect(report).toContain(s);

    expectCurvesNear(
      join(REF, 'curves.csv'),
      join(outA, 'curves.csv'),
      ['strategy', 'site', 'seed', 'pages'],
      ['recall', 'precision'],
      TOLERANCE,
      `curves moved beyond ${TOLERANCE}; if intended, run npm run experiment:reference`,
    );
    for (const f of ['curves.csv', 'summary.csv', 'aggregates.csv', 'differences.csv', 'replay.json'])
      expect(readFileSync(join(outA, f), 'utf8'), `${f} differs from ${REF}/${f}`).toBe(
        readFileSync(join(REF, f), 'utf8'),
      );

    // the claim the quick configuration supports: every focused strategy beats both baselines
    const claims = checkClaims(a.curves, cfg.budget, cfg.every, cfg.earlyPhase);
    expect(claims.find((c) => c.id === 'C6')?.verdict).toBe('PASS');
    // and no run asked for a disallowed path, broke per-host concurrency or stopped short (summary.csv
    // pins these columns too; said here so that a changed reference cannot hide them)
    for (const s of a.summaries.filter((x) => x.strategy !== 'oracle')) {
      expect(s.audit_disallowed, `${s.strategy} ${s.site}`).toBe(0);
      expect(s.audit_max_concurrent, `${s.strategy} ${s.site}`).toBeLessThanOrEqual(cfg.crawl.perHostConcurrency);
      // the paper's crawler ends when it has discarded every link left (it has no fallback; adaptive-rescue has)
      const strandedByDiscarding = s.discarded > 0 && s.frontier_left === 0;
      expect(s.pages === cfg.budget || strandedByDiscarding, `${s.strategy} ${s.site} stopped at ${s.pages}`).toBe(
        true,
      );
    }
  });

  it('crawls for an HTML target with a learned judgement: adaptive retrains and no run strands', {
    timeout: RUNS_MS,
  }, async () => {
    // one of the four departments crawled, trained on the other three (so a one-site experiment on a
    // synthetic web trains): the behaviour is per run, so on small.json's departments at a quarter of
    // their size. One worker process: the only test of the experiment's worker path (the CLI's
    // default), at a fraction of two workers' cost (each loads the harness and trains its own models)
    const sites = ['cs.alpha-university.test'];
    const web = scaledWeb('data/webs/small.json', 0.25);
    const base = loadExperiment('focused-html', { quick: true });
    // retrained every 50 pages: the literal reading may end (all discarded) before the default 250
    const cfg = { ...base, sites, web, adaptive: { ...base.adaptive, retrainEvery: 50 } };
    const d = await runExperiment(cfg, { workers: 1, cacheDir: mkdtempSync(join(tmpdir(), 'models-')) });
    const runs = d.summaries.filter((s) => s.strategy !== 'oracle');
    expect(runs).toHaveLength(cfg.strategies.length * sites.length);
    expect(new Set(runs.map((s) => s.site))).toEqual(new Set(sites));
    for (const s of runs.filter((x) => x.strategy === 'adaptive')) expect(s.retrainings).toBeGreaterThan(0);
    for (const s of runs) expect(s.pages === cfg.budget || s.frontier_left === 0, `${s.strategy} ${s.site}`).toBe(true);
    expect(d.summaries.find((s) => s.strategy === 'oracle')?.relevant_total).toBeGreaterThan(0);
  });
});
