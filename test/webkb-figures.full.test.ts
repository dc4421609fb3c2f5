/**
 * The figures a generated web is set and judged against (issue #83): data/webkb/figures.json is
 * what the shipped WebKB data give (npm run webkb:figures), and the two ways papers per faculty
 * member, their hops and their share are counted (sim/web-stats.ts from the generator's page
 * kinds; experiments/focused/density.ts from an experiment environment's ground truth, which is
 * how the WebKB figures are counted) agree on a generated web.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { figuresText, FIGURES_FILE, webkbFigures } from '../data/webkb/figures.ts';
import { loadExperiment } from '../experiments/focused/config.ts';
import { siteDensity } from '../experiments/focused/density.ts';
import { simEnv } from '../experiments/focused/env.ts';
import { loadConfig } from '../sim/config.ts';
import { Kind, Web } from '../sim/web.ts';
import { computeStats, density } from '../sim/web-stats.ts';
import { scaled } from './speed.ts';

describe('papers per faculty member, counted alike on WebKB and a generated web', () => {
  it('by hand: the lower median of the hops, the share 4+ hops away of the reachable papers', () => {
    // 10 reachable papers: 2 at 3 hops, 3 at 4, 5 at 6 (and 2 unreachable: counted as papers, not in the hops)
    expect(density({ 3: 2, 4: 3, 6: 5 }, 12, 4, 20)).toEqual({
      faculty: 4,
      perFaculty: 3,
      medianDistance: 4, // 5 of 10 reached by 4 hops
      deepShare: 0.8,
      documentShare: 0.6,
    });
    expect(density({}, 0, 0, 0).perFaculty).toBeNaN();
  });

  it('data/webkb/figures.json is what the shipped data give', { timeout: scaled(120_000) }, async () => {
    const f = await webkbFigures();
    expect(figuresText(f)).toBe(readFileSync(FIGURES_FILE, 'utf8'));
    // the figures paper.json's papers per faculty member is derived from (its _structure note)
    expect(f.departments.map((d) => d.perFaculty)).toEqual([33.9, 9.6, 28.6, 16.9]);
    expect(f.pooled).toEqual({ faculty: 149, papers: 3124, perFaculty: 21 });
  });

  it('the generator count and the environment count agree on small.json', { timeout: scaled(120_000) }, async () => {
    const cfg = loadExperiment('focused', { quick: true });
    const web = new Web(loadConfig(cfg.web), 1);
    const byKinds = computeStats(web).departments;
    const env = await simEnv(cfg, 1, 'none');
    try {
      for (const d of byKinds) {
        const site = web.siteByHost(d.host)!;
        let faculty = 0;
        for (let id = site.first; id < site.first + site.count; id++) if (web.kind[id] === Kind.Faculty) faculty++;
        const e = siteDensity(env, d.host, faculty);
        expect({ papers: e.papers, perFaculty: e.perFaculty, median: e.medianDistance, deep: e.deepShare }).toEqual({
          papers: d.relevant,
          perFaculty: d.perFaculty,
          median: d.medianDistance,
          deep: d.deepShare,
        });
        expect(d.perFaculty).toBeGreaterThan(5);
      }
    } finally {
      await env.close();
    }
  });
});
