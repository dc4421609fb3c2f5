import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../experiments/config.ts';
import { closeSeedState, runJob } from '../experiments/run-one.ts';

describe('focused strategies on the default web', () => {
  it('every focused strategy beats random and BFS on recall at a fixed page budget', async () => {
    const cfg = { ...loadExperiment('focused'), budget: 1500, every: 500 };
    const r = await runJob(cfg, 1, 'cs.alpha-university.test', null);
    await closeSeedState();
    const recall = Object.fromEntries(r.summaries.map((s) => [s.strategy, s.recall]));
    const baseline = Math.max(recall.bfs, recall.random);
    for (const s of ['immediate', 'future', 'adaptive'])
      expect(recall[s], `${s} vs ${JSON.stringify(recall)}`).toBeGreaterThan(baseline);
    // and no strategy ever asked for a disallowed path or broke per-host concurrency
    for (const s of r.summaries) {
      expect(s.audit_disallowed).toBe(0);
      expect(s.audit_max_concurrent).toBeLessThanOrEqual(cfg.crawl.perHostConcurrency);
      expect(s.pages).toBe(1500);
    }
  });
});
