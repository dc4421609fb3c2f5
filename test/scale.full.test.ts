/**
 * Cost that grows linearly (issue #55): the focused comparison of npm run bench:scale at 10^3 and
 * 10^4 pages (budget 10% of the web), each strategy's CPU per page fetched at 10^4 against that at
 * 10^3, and the oracle's per page of budget likewise (also at 10^5). A cost that grows with the web
 * times the budget (as the oracle's search before every choice did) grows ten-fold per page at ten
 * times the web; a linear one stays at 1x. The bound is the geometric middle, sqrt(10) = 3.16x
 * (a growth exponent below 0.5), so that noise must triple a figure to fail a linear cost, and a
 * quadratic one passes only if it is three times cheaper than measured. The former bound of 2x failed
 * a clean-clone CI run on an idle machine (oracle 2.05x): CPU per page moves with load (1,313 against
 * 764 us/page at load 24 against 2, issue #70). CPU time, not wall time. The figures themselves are
 * npm run bench:scale's; this test only tells linear from not.
 */
import { describe, expect, it } from 'vitest';
import { measureOracle, measureScale, SCALE_STRATEGIES } from '../bench/scale-run.ts';
import { scaled } from './speed.ts';

/** Cost per page at ten times the web over that at the smaller: linear 1, web x budget 10. */
const BOUND = Math.sqrt(10);

describe('cost per page at ten times the web', () => {
  it(
    'grows less than sqrt(10)-fold from 10^3 pages for every strategy and the oracle',
    async () => {
      const small = await measureScale(1_000);
      const large = await measureScale(10_000);
      for (const s of [...SCALE_STRATEGIES, 'oracle']) {
        expect(small.crawled[s], s).toBeGreaterThan(0);
        expect(large.crawled[s], s).toBeGreaterThan(5 * small.crawled[s]);
      }
      for (const s of SCALE_STRATEGIES)
        expect(
          large.cpuPerPage[s] / small.cpuPerPage[s],
          `${s}: ${large.cpuPerPage[s]} us against ${small.cpuPerPage[s]}`,
        ).toBeLessThan(BOUND);
      // The oracle's phase at 10^3 is under a millisecond of CPU, so its figure from the runs above is
      // noise (a clean-clone run once read 3.4 us a page at 10^3 against 12.2 at 10^4); its search is
      // timed on its own, already compiled by the runs above, the least of several runs, and also at
      // 10^5 (a second): a pass over the site's links before every choice reads 1.7x at 10^4 but 11x at
      // 10^5, as fewer choices a page hide it at the small sizes.
      const oracle = [await measureOracle(1_000), await measureOracle(10_000), await measureOracle(100_000)];
      for (let i = 1; i < oracle.length; i++)
        expect(oracle[i] / oracle[i - 1], `oracle: ${oracle[i]} us against ${oracle[i - 1]}`).toBeLessThan(BOUND);
    },
    scaled(240_000),
  );
});
