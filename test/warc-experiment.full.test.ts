/**
 * A full focused experiment on a replayed web (full tier): two departments of the synthetic web
 * crawled into a WARC, labelled from its ground truth, replayed, and run as an archive experiment
 * with every output written. The WARC's own round trip is test/warc.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BfsStrategy, CrawlEngine, type CrawlSettings } from '../crawler/index.ts';
import { WarcWriter } from '../crawler/warc-writer.ts';
import { ARCHIVE_DEFAULTS, loadExperiment } from '../experiments/focused/config.ts';
import { writeOutputs } from '../experiments/focused/report.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { startSyntheticWeb, type StartedWeb } from '../experiments/focused/start-web.ts';
import { GroundTruth } from '../sim/truth.ts';
import { scaled } from './speed.ts';
import { focusedOutputFiles, LOOPBACK_CRAWL } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'warc-experiment-'));

describe('an experiment on a replayed web', () => {
  let web: StartedWeb;
  beforeAll(async () => {
    web = await startSyntheticWeb('data/webs/small.json', 1, { faults: false });
  });
  afterAll(async () => web.close());
  const settings: Partial<CrawlSettings> = LOOPBACK_CRAWL;

  it('a full experiment on a replayed web, with a labels file, writes the usual outputs', {
    timeout: scaled(120_000),
  }, async () => {
    // archive two departments (wide BFS crawls), label every archived URL from the synthetic truth
    const file = join(dir, 'two.warc.gz');
    const writer = new WarcWriter(file);
    const urls: string[] = [];
    for (const host of ['cs.alpha-university.test', 'cs.beta-university.test']) {
      await CrawlEngine.create({
        settings: {
          ...settings,
          maxPages: 700,
          startUrls: [`http://${host}/`],
          resolve: [`*.test=127.0.0.1:${web.port}`],
        },
        strategy: new BfsStrategy(),
        warc: { record: (u, r, h) => writer.record(u, r, h), close: async () => {} },
        onLog: (e) => urls.push(e.url),
      }).run();
    }
    await writer.close();
    const truth = new GroundTruth(web.web);
    const labels = join(dir, 'labels.csv');
    writeFileSync(
      labels,
      stringify(
        urls.map((u) => ({ url: u, label: truth.isRelevantUrl(u) ? 'paper' : 'other' })),
        { header: true, columns: ['url', 'label'] },
      ),
    );
    const cfg = {
      ...loadExperiment('focused', { quick: true }),
      name: 'replayed',
      budget: 150,
      every: 25,
      seeds: [0],
      archive: {
        ...structuredClone(ARCHIVE_DEFAULTS),
        warc: [file],
        labels,
        relevant: ['paper'],
        sites: [],
        starts: {},
        groups: { alpha: ['cs.alpha-university.test'], beta: ['cs.beta-university.test'] },
      },
    };
    const data = await runExperiment(cfg, { workers: 0, cacheDir: null });
    expect(data.sites).toEqual(['alpha', 'beta']);
    const out = join(dir, 'replayed-out');
    const w = await writeOutputs(data, out);
    expect(readdirSync(out).sort()).toEqual(focusedOutputFiles());
    expect(readFileSync(join(out, 'curves.csv'), 'utf8').split('\n')[0]).toBe(
      'experiment,strategy,site,seed,order,pages,recall,recall_reachable,precision,harvest',
    );
    // the focused strategies (the probes and the named reading adaptive-page included) and the oracle, on two sites
    expect(data.summaries).toHaveLength(2 * (cfg.strategies.length + 1));
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toContain('real pages replayed from the archive');
    expect(report).toContain('over 2 sites of one web');
    expect(report).not.toContain('published statistics');
    for (const s of data.summaries.filter((x) => x.strategy !== 'oracle')) {
      expect(s.relevant_total).toBeGreaterThan(0);
      expect(s.audit_disallowed).toBe(0);
      expect(s.requests).toBeGreaterThan(0);
    }
    expect(w.claims.map((c) => c.id)).toEqual([
      'C1',
      'C2',
      'C3',
      'C4',
      'C5',
      'C1-page',
      'C3-page',
      'C4-page',
      'C5-page',
      'C6',
    ]);
    for (const c of w.claims) expect(['PASS', 'FAIL', 'TIE', 'NO DATA', 'INFEASIBLE']).toContain(c.verdict);
  });
});
