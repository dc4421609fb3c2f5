/**
 * A twin validation end to end on an archive whose own web is known (issue #85 item 6): a
 * generated web written as an archive, declared as `archive.origin`, so that the same-web control
 * is that web at other seeds, not the twin with itself. Small budgets: what is checked is the
 * plumbing and the per-site tau against a count of concordant pairs done here, not the verdict.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTwinOutputs } from '../experiments/twin/report.ts';
import { runTwinValidation } from '../experiments/twin/validate.ts';
import { writeTwinArchive } from '../experiments/twin/writer.ts';
import { loadConfig } from '../sim/config.ts';
import { twinArchiveExperiment } from './helpers.ts';
import { scaled } from './speed.ts';

const dir = mkdtempSync(join(tmpdir(), 'twin-validation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Kendall's tau-a by counting pairs, written apart from experiments/twin/rankings.ts. */
function tauByPairs(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++)
    for (let j = i + 1; j < a.length; j++) {
      s += Math.sign(a[i] - a[j]) * Math.sign(b[i] - b[j]);
      n++;
    }
  return s / n;
}

describe("twin validation with the archive's own web known", () => {
  it(
    'crawls that web at seeds other than its own and judges the twin against it',
    async () => {
      const web = 'data/webs/small.json';
      const w = await writeTwinArchive(loadConfig(web), 7, 0.3, join(dir, 'a.warc.gz'), join(dir, 'a.csv'));
      const base = await twinArchiveExperiment(w, 'known-origin');
      const cfg = {
        ...base,
        strategies: ['bfs', 'immediate', 'random'],
        budget: 150,
        every: 10,
        archive: { ...base.archive!, origin: { web, seed: 7, sample: 0.3 } },
      };
      const d = await runTwinValidation(cfg, { fitBudget: 8, seeds: [7, 8], dir: join(dir, 'twins'), workers: 0 });
      // the archive's own seed is not a control of itself: 7 and 8 become 8 and 9
      expect(d.ownSeeds).toEqual([8, 9]);
      expect(d.ranking.sameWeb).toBe('own web');
      expect(d.rows.every((r) => r.own !== undefined)).toBe(true);
      // per held-out site: tau of the site's ranking with the own web's mean AUC, by counting pairs
      const ranked = ['bfs', 'immediate', 'random'];
      for (const x of d.ranking.perSite) {
        const at = (s: string) => d.rows.find((r) => r.site === x.site && r.strategy === s)!;
        expect(x.own).toBeCloseTo(
          tauByPairs(
            ranked.map((s) => at(s).archive),
            ranked.map((s) => at(s).own!),
          ),
          12,
        );
      }
      // the own web's AUC of a strategy is the same at every held-out site (it is not fitted)
      const bfs = d.rows.filter((r) => r.strategy === 'bfs').map((r) => r.own);
      expect(new Set(bfs).size).toBe(1);
      const out = join(dir, 'out');
      const { lines } = await writeTwinOutputs(d, out);
      expect(lines[0]).toMatch(
        /the same-web control is the archive's own web, data\/webs\/small\.json at web seeds 8, 9/,
      );
      const report = readFileSync(join(out, 'report.md'), 'utf8');
      expect(report).toContain('| held out | twin tau | control tau | same web, other seed | own web, other seeds |');
      expect(readFileSync(join(out, 'twin-tau.csv'), 'utf8').split('\n')[0]).toBe(
        'held_out,twin_tau,control_tau,self_tau,own_web_tau',
      );
    },
    scaled(600_000),
  );
});
