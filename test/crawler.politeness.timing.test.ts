/**
 * Politeness as the server measures it, beside a CPU-busy process: a timing-sensitive file (the
 * "timing" project of vitest.config.ts runs it alone). The engine's timing-free behaviour
 * (deterministic mode, resume, the CLI) is tested in crawler.engine.test.ts.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { BfsStrategy, CrawlEngine } from '../crawler/index.ts';
import { startSimProcess } from '../bench/simproc.ts';

describe('politeness, measured by the server', () => {
  it('no request to a disallowed path, no breach of per-host concurrency or gap, also beside a CPU-busy process', async () => {
    // the server runs in its own process, and a sibling keeps a core busy: the server reads
    // requests late (a gap counted from the send alone read 175 ms at 200 ms this way), and the
    // gate must still keep the whole gap in the server's clock
    const sim = await startSimProcess('data/webs/small.json', 1);
    const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 60000; while (Date.now() < end) {}'], {
      stdio: 'ignore',
    });
    try {
      const hosts = ['cs.alpha-university.test', 'cs.beta-university.test', 'cs.delta-university.test'];
      const engine = CrawlEngine.create({
        settings: {
          startUrls: hosts.map((h) => `http://${h}/`),
          resolve: [`*.test=127.0.0.1:${sim.port}`],
          maxPages: 90,
          concurrency: 8,
          perHostConcurrency: 2,
          delayMs: 50,
          autoThrottle: true,
          retryBaseMs: 20,
        },
        strategy: new BfsStrategy(),
      });
      const s = await engine.run();
      expect(s.pages).toBe(90);
      expect(s.robotsBlocked).toBeGreaterThan(0); // beta's tricky rules and alpha's /admin/private/ are in the way
      const audit = (await (await request(`http://127.0.0.1:${sim.port}/_sim/audit`)).body.json()) as Record<
        string,
        { disallowed: number; maxConcurrent: number; minGapMs: number; sent429: number }
      >;
      for (const h of hosts) {
        expect(audit[h].disallowed, h).toBe(0);
        expect(audit[h].maxConcurrent, h).toBeLessThanOrEqual(2);
        // the server stamps a request when its event loop gets to it, late when it is busy, but
        // always before it answers: a gap counted after the answer holds in its clock
        expect(audit[h].minGapMs, h).toBeGreaterThanOrEqual(50);
        expect(audit[h].sent429, h).toBe(0);
      }
    } finally {
      busy.kill('SIGKILL');
      sim.stop();
    }
  });
});
