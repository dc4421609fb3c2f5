/**
 * paper.json's statistics at two seeds, every one within its configured band (full tier: each
 * seed builds the default web of four departments of 5,000-15,000 pages; the generator's own
 * properties on small webs are test/sim.web.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../sim/config.ts';
import { computeStats } from '../sim/web-stats.ts';
import { Web } from '../sim/web.ts';

describe('statistics of the default web', () => {
  it.each([1, 2])('paper.json seed %i: every statistic within its configured band', (seed) => {
    const web = new Web(loadConfig('data/webs/paper.json'), seed);
    const stats = computeStats(web);
    for (const c of stats.checks)
      expect({ name: c.name, ok: c.ok, value: c.value }).toEqual({ name: c.name, ok: true, value: c.value });
    expect(stats.departments).toHaveLength(4);
    for (const d of stats.departments) {
      expect(d.pages).toBeGreaterThanOrEqual(5000);
      expect(d.pages).toBeLessThanOrEqual(15000);
    }
  });
});
