/**
 * Experiments run one after another in one process (workers 0: sweeps, the regressions, a test
 * suite whose files share a process) must not carry one config's state into the next: the topic
 * keywords were once loaded for the first config and kept for every later one.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../experiments/focused/config.ts';
import { cachesFor } from '../experiments/focused/env.ts';
import { runExperiment } from '../experiments/focused/runner.ts';
import { writeOutputs } from '../experiments/focused/report.ts';
import { scaledWeb } from './helpers.ts';

/** small.json's departments at a quarter of their size: the runs' rows matter, not their recall. */
const WEB = scaledWeb('data/webs/small.json', 0.25);

describe('experiments in one process', () => {
  it('each run crawls for its own topic keywords, whatever ran before it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kw-')), 'cooking.txt');
    writeFileSync(file, 'recipe\nkitchen\nbaking\nflour\nsoup\n');
    const base = {
      ...loadExperiment('focused', { quick: true }),
      web: WEB,
      strategies: ['immediate'],
      sites: ['cs.alpha-university.test', 'cs.beta-university.test'],
      budget: 120,
      every: 40,
    };
    const curves = async (keywords: string | null, replay = true): Promise<string> => {
      const d = await runExperiment({ ...base, keywords }, { workers: 0, cacheDir: null, replay });
      // the first job records the replay unless told not to (a sweep's points write no page)
      expect((d.replay?.orders.immediate?.length ?? 0) > 0).toBe(replay);
      expect(d.replay?.xy ?? null).toEqual(replay ? expect.any(Array) : null);
      return JSON.stringify(d.curves.filter((c) => c.strategy === 'immediate'));
    };
    const computing = await curves(null);
    const cooking = await curves(file);
    expect(cooking).not.toBe(computing);
    // the same file rewritten in place is the new list, not the one read before
    writeFileSync(file, 'garden\nplant\nsoil\nflower\nseed\n');
    const gardening = await curves(file);
    expect(gardening).not.toBe(cooking);
    writeFileSync(file, 'recipe\nkitchen\nbaking\nflour\nsoup\n');
    expect(await curves(file)).toBe(cooking);
    // and back: the default list again gives the first run's curves, with or without the replay
    expect(await curves(null, false)).toBe(computing);
  });

  it('gives the same rows without the environment caches, every page then parsed by its crawl', async () => {
    const cfg = {
      ...loadExperiment('focused', { quick: true }),
      web: WEB,
      strategies: ['bfs', 'immediate'],
      sites: ['cs.alpha-university.test'],
      budget: 100,
      every: 50,
    };
    const kept = await runExperiment(cfg, { workers: 0, cacheDir: null, replay: false });
    // one site, one seed: no bands in the figures or the page, and the captions say why (issue #71)
    const out = mkdtempSync(join(tmpdir(), 'bands-'));
    await writeOutputs(kept, out);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('bands: none drawn: a 95% interval over 1 site (df 0) spans most of the plot');
    expect(md).not.toContain('A band that contains 0');
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('"bands":false');
    expect(html).toContain('<p class="note">Bands: none drawn');
    expect(readFileSync(join(out, 'fig-recall.svg'), 'utf8')).not.toMatch(/role-mark area|mark-area/);
    // a URL space no budget exhausts is named in sites.csv (issue #70): every department's calendar
    const sites = readFileSync(join(out, 'sites.csv'), 'utf8').split('\n');
    expect(sites[0].split(',')).toContain('traps');
    expect(sites[1]).toMatch(/^1,cs\.alpha-university\.test,.*,calendar: unbounded(, disallowed by robots\.txt)?,/);
    const none = await runExperiment(cfg, { workers: 0, cacheDir: null, replay: false, caches: 'none' });
    expect(JSON.stringify(none.curves)).toBe(JSON.stringify(kept.curves));
    expect(JSON.stringify(none.summaries)).toBe(JSON.stringify(kept.summaries));
    const crawls = (d: typeof kept) => (d.phases ?? []).filter((p) => p.phase === 'crawl');
    // immediate, after bfs: pages bfs parsed come from the cache, unless there is none
    const anew = (d: typeof kept, s: string) => crawls(d).find((p) => p.strategy === s)!;
    expect(anew(kept, 'immediate').parsedAnew!).toBeLessThan(anew(none, 'immediate').parsedAnew!);
    expect(anew(kept, 'bfs').parsedAnew!).toBeLessThanOrEqual(anew(none, 'bfs').parsedAnew!);
    await expect(runExperiment(cfg, { workers: 2, caches: 'none' })).rejects.toThrow(/in this process/);
    // unless told, a run whose budget the parse cache cannot hold keeps no caches
    expect(cachesFor({ budget: 2_000 })).toBe('kept');
    expect(cachesFor({ budget: 100_000 })).toBe('none');
  });
});
