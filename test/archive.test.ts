/**
 * Archives as researchers have them, and targets other than research papers: the converter on a
 * fixture in the "4 universities" layout (MIME header blocks, U+F03A colons, a stray U+F00D, a
 * page saved twice with two labels), the archive config checks, and a focused experiment on that
 * archive with an HTML-only target and a learned relevance judgement: the adaptive crawler
 * retrains, its thresholds come from the training sites of that target, and it never strands.
 */
import { thresholdsFor } from '../crawler/focused/calibrate.ts';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_DEFAULTS, loadExperiment, type ExperimentConfig } from '../experiments/focused/config.ts';
import { archiveEnv } from '../experiments/focused/env.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { WarcArchive } from '../sim/warc-index.ts';
import { convertFolder, splitHeaderBlock } from '../sim/warc-convert.ts';
import { readLabels } from '../sim/labels.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { program } from './helpers.ts';

const FIXTURE = 'test/fixtures/4univ';
const dir = mkdtempSync(join(tmpdir(), 'univ-'));
const warc = join(dir, 'univ.warc.gz');
const labels = join(dir, 'univ.csv');
const HOSTS = { cornell: 'www.cs.cornell.edu', texas: 'www.cs.utexas.edu', wisconsin: 'www.cs.wisc.edu' };

function config(
  over: Partial<ExperimentConfig['archive']> = {},
  rest: Partial<ExperimentConfig> = {},
): ExperimentConfig {
  const base = loadExperiment('focused', { quick: true });
  return {
    ...base,
    name: 'univ',
    budget: 40,
    every: 5,
    strategies: ['bfs', 'immediate', 'future', 'adaptive'],
    relevance: 'learned',
    adaptive: { ...base.adaptive, retrainEvery: 5, topK: 10 },
    archive: {
      ...structuredClone(ARCHIVE_DEFAULTS),
      warc: [warc],
      labels,
      relevant: ['faculty', 'project'],
      sites: [],
      starts: {},
      groups: Object.fromEntries(Object.entries(HOSTS).map(([k, h]) => [k, [h]])),
      ...over,
    },
    ...rest,
  };
}

describe('the 4 universities layout', () => {
  let result: Awaited<ReturnType<typeof convertFolder>>;
  beforeAll(async () => {
    result = await convertFolder(FIXTURE, warc, labels, { labelFrom: 'dir' });
  });

  it('reads MIME header blocks, decoded file names, duplicates and labels', async () => {
    expect(result.skipped.filter((s) => !s.file.endsWith('README.md'))).toEqual([]);
    expect(result.records).toBe(45);
    expect(result.duplicates).toBe(1);
    expect(result.conflicts).toEqual([
      {
        url: 'http://www.cs.cornell.edu/projects/nile.html',
        // the specific label wins over "other"
        kept: 'project',
        file: expect.stringContaining('other'),
        label: 'other',
      },
    ]);
    expect(result.suspicious).toEqual([]);
    const l = readLabels(labels);
    // the stray U+F00D is dropped, U+F03A is a colon
    expect(l.get('http://www.cs.wisc.edu/~wilson/')).toBe('faculty');
    expect(l.get('http://www.cs.utexas.edu/')).toBe('department');
    const archive = await WarcArchive.open([warc]);
    expect(archive.hosts()).toEqual(Object.values(HOSTS).sort());
    const home = await archive.get('http://www.cs.cornell.edu/');
    expect(home?.status).toBe(200);
    expect(home?.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1]).toBe('text/html');
    expect(home?.body.toString()).toMatch(/^<html>/);
  });

  it('splits a MIME block without a status line, but not a body that merely starts with a word and a colon', () => {
    const b = splitHeaderBlock(Buffer.from('MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nhello'));
    expect(b).toMatchObject({
      status: 200,
      headers: [
        ['MIME-Version', '1.0'],
        ['Content-Type', 'text/plain'],
      ],
    });
    expect(b?.body.toString()).toBe('hello');
    expect(splitHeaderBlock(Buffer.from('Note: this is text\nand more\n\nbody'))).toBeNull();
  });

  it('with no sites named, crawls the labelled hosts the archive holds, and records them', async () => {
    // a labels file that also names a host of another archive
    const more = join(dir, 'more.csv');
    writeFileSync(more, `${readFileSync(labels, 'utf8').trimEnd()}\nhttp://www.cs.mit.edu/~x/,faculty\n`);
    const cfg = config({ labels: more, groups: {} });
    const { checkArchive, archiveSites } = await import('../experiments/focused/env.ts');
    await checkArchive(cfg);
    expect(cfg.archive!.sites).toEqual(Object.values(HOSTS).sort());
    expect(archiveSites(cfg)).not.toContain('www.cs.mit.edu');
    const none = config({ labels: more, groups: {} });
    writeFileSync(more, 'url,label\nhttp://www.cs.mit.edu/~x/,faculty\nhttp://www.cs.mit.edu/p/,project\n');
    await expect(checkArchive(none)).rejects.toThrow(
      /none of the 1 labelled hosts .* is in the archive; name the sites to crawl in archive\.sites/,
    );
  });

  it('refuses archive configs that cannot run, with a one-line reason', async () => {
    await expect(
      runExperiment(config({ relevant: ['faculty', 'professor'] }), { workers: 0, cacheDir: null }),
    ).rejects.toThrow(/no page of .* is labelled "professor"/);
    await expect(
      runExperiment(config({ groups: { cornell: ['www.cs.cornell.edu'], mit: ['www.cs.mit.edu'] } }), {
        workers: 0,
        cacheDir: null,
      }),
    ).rejects.toThrow(/host www.cs.mit.edu \(site mit\) is not in the archive/);
    await expect(
      runExperiment(config({ starts: { cornell: 'http://www.cs.cornell.edu/nothing.html' } }), {
        workers: 0,
        cacheDir: null,
      }),
    ).rejects.toThrow(/archive.starts.cornell/);
    await expect(
      runExperiment(config({ groups: { cornell: ['www.cs.cornell.edu'] } }), { workers: 0, cacheDir: null }),
    ).rejects.toThrow(/at least two sites/);
    await expect(
      runExperiment(
        config({ relevant: ['staff'], groups: { cornell: ['www.cs.cornell.edu'], texas: ['www.cs.utexas.edu'] } }),
        { workers: 0, cacheDir: null },
      ),
    ).resolves.toBeTruthy();
  });

  it('crawls for an HTML target with a learned judgement: adaptive retrains on thresholds of that target', async () => {
    const cfg = config();
    const d = await runExperiment(cfg, { workers: 0, cacheDir: null });
    const ad = d.summaries.filter((s) => s.strategy === 'adaptive');
    expect(ad).toHaveLength(3);
    for (const s of ad) {
      expect(s.retrainings).toBeGreaterThan(0);
      // the run never ends with links left but unfetched because it discarded them all
      expect(s.pages === cfg.budget || s.frontier_left === 0).toBe(true);
    }
    // r1 and r2 are the calibration on the other two sites with the faculty/project labels, per link
    const env = await archiveEnv(cfg);
    try {
      for (const s of ad) {
        const m = env.training.models(
          s.site,
          (await import('../crawler/focused/topic.ts')).loadKeywords(),
          null,
          env.cacheKey,
          cfg.adaptive.offlineSample,
          true,
        );
        // the default reading compares links: the thresholds fitted on the training sites' links
        // (null in the summary: a threshold no training link reaches)
        const t = thresholdsFor(m.calibration, 'f1', 'link');
        const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
        expect(s.r1).toBe(finite(t.r1));
        expect(s.r2).toBe(finite(t.r2));
        expect(m.pages).not.toBeNull();
      }
    } finally {
      await env.close();
    }
    // every site has faculty and project pages, all reachable from its home page (the 404 link aside)
    for (const s of d.summaries.filter((x) => x.strategy === 'oracle'))
      expect(s.relevant_reachable).toBe(s.relevant_total);
    expect(readFileSync(labels, 'utf8')).toContain('faculty');
  });

  it('counts the budget in 2xx pages when asked, and in requests by default', async () => {
    const pages = await runExperiment(
      config({ holes: 'open' }, { strategies: ['bfs'], relevance: 'keywords', budget: 14, budgetCounts: 'pages' }),
      { workers: 0, cacheDir: null },
    );
    const requests = await runExperiment(
      config({ holes: 'open' }, { strategies: ['bfs'], relevance: 'keywords', budget: 14 }),
      {
        workers: 0,
        cacheDir: null,
      },
    );
    for (const s of pages.summaries.filter((x) => x.strategy === 'bfs')) {
      expect(s.pages).toBe(14);
      // requests of the batch in flight when the budget was reached are fetched and counted too
      expect(s.status_2xx).toBeGreaterThanOrEqual(14);
      expect(s.status_4xx).toBe(1); // the home page's link to a page that was never saved
    }
    for (const s of requests.summaries.filter((x) => x.strategy === 'bfs'))
      expect(s.status_2xx + s.status_4xx).toBe(14);
  });
});

describe('the crawl CLI with learned strategies', () => {
  const crawl = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [...program('experiments/cli/crawl.ts'), ...args], (e, stdout, stderr) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  // a crawl that runs to its end, and a refusal, in this process (test/cli-inprocess.ts); the
  // refusal for missing labels is a real process, whose exit code 2 and one line this shows
  const crawlHere = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const r = await runCliInProcess('experiments/cli/crawl.ts', args);
    return { ...r, code: r.code ?? 0 };
  };
  const hostsOf = (out: string): string[] => [
    ...new Set(
      readFileSync(join(out, 'crawl.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => new URL(JSON.parse(l).url).host),
    ),
  ];

  it('with --web crawls one department and trains on the others only', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cli-web-'));
    const cached = existsSync('.cache/models') ? readdirSync('.cache/models') : [];
    const r = await crawlHere([
      '--web',
      'data/webs/small.json',
      '--strategy',
      'future',
      '--site',
      'cs.beta-university.test',
      '--max-pages',
      '60',
      '--delay-ms',
      '0',
      '--per-host',
      '4',
      '--no-cache',
      '--quiet',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    // --no-cache: trained here, nothing left in the repository's model cache (no test writes there)
    expect(r.stderr).not.toMatch(/models from/);
    expect(existsSync('.cache/models') ? readdirSync('.cache/models') : []).toEqual(cached);
    expect(r.stderr).toMatch(
      /training on cs\.alpha-university\.test, cs\.gamma-university\.test, cs\.delta-university\.test; crawling cs\.beta-university\.test only/,
    );
    expect(hostsOf(out)).toEqual(['cs.beta-university.test']);
    // refused against the generated web before it is served: no server left behind
    const bad = await crawlHere([
      '--web',
      'data/webs/small.json',
      '--strategy',
      'adaptive',
      '--site',
      'cs.beta-university.test',
      '--start',
      'http://cs.alpha-university.test/',
      '--out',
      out,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^error: --start http:\/\/cs\.alpha-university\.test\/: a learned strategy crawls one site/m,
    );
  });

  it('replays an archive, trains on its other sites and crawls the held-out one', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cli-replay-'));
    const r = await crawlHere([
      '--replay',
      warc,
      '--labels',
      labels,
      '--relevant',
      'faculty,project',
      '--strategy',
      'adaptive',
      '--site',
      'www.cs.utexas.edu',
      '--no-cache',
      '--max-pages',
      '20',
      '--delay-ms',
      '0',
      '--quiet',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /training on www\.cs\.cornell\.edu, www\.cs\.wisc\.edu; crawling www\.cs\.utexas\.edu only \(relevant: faculty, project; relevance: learned\)/,
    );
    expect(hostsOf(out)).toEqual(['www.cs.utexas.edu']);
    const lines = readFileSync(join(out, 'crawl.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; relevance?: number });
    const fac = lines.find((l) => l.url.includes('/~'));
    expect(fac?.relevance).toBeGreaterThan(0.5);
    const noLabels = await crawl(['--replay', warc, '--strategy', 'future', '--out', out]);
    expect(noLabels.code).toBe(2);
    expect(noLabels.stderr).toMatch(/needs --labels CSV and --relevant/);
  });
});
