import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../sim/config.ts';
import { runCliInProcess } from '../test/cli-inprocess.ts';
import { BASE_MB, heapMb, KB_PER_PAGE, needMb, webPages } from './heap-budget.ts';
import { MIN_HEAP_MB } from './pool.ts';

describe('the heap a job process is given (issue #70)', () => {
  it("counts a web's pages from its config: departments, and background sites at their mean size", () => {
    const web = loadConfig('data/webs/small.json');
    const { sites, pagesMin, pagesMax } = web.background;
    expect(webPages(web)).toBe(
      web.departments.reduce((a, d) => a + d.pages, 0) + Math.round((sites * (pagesMin + pagesMax)) / 2),
    );
  });

  it('gives at least Node’s usual heap, more for a large web, and refuses one the machine cannot hold', () => {
    const machine = 23_000;
    expect(heapMb(10_000, 2, machine)).toBe(MIN_HEAP_MB);
    expect(heapMb(1_000_000, 2, machine)).toBe(needMb(1_000_000));
    expect(needMb(1_000_000)).toBe(Math.ceil(BASE_MB + (1_000_000 * KB_PER_PAGE) / 1024));
    // two processes of 12 GB do not fit in 23 GB; one does, and the message says so
    const both = /^a web of 2,000,000 pages needs about 12,231 MB per job process \(512 MB \+ 6 KB a page, .*\); /;
    expect(() => heapMb(2_000_000, 2, machine)).toThrow(both);
    expect(() => heapMb(2_000_000, 2, machine)).toThrow(
      /this machine's 23,000 MB give 2 processes 10,350 MB each: run with --workers 1$/,
    );
    expect(() => heapMb(10_000_000, 1, machine)).toThrow(/59,106 MB per job process .* it does not fit this machine/);
  });

  it('the experiment command refuses such a web with one line (exit 2) before generating anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heap-'));
    const web = join(dir, 'huge.json');
    const departments = Array.from({ length: 20 }, (_, i) => ({
      host: `cs.d${i}.test`,
      name: `D${i}`,
      pages: 2_000_000,
    }));
    writeFileSync(web, JSON.stringify({ name: 'huge', departments }));
    for (const workers of ['0', '2']) {
      const r = await runCliInProcess('experiments/cli/experiment.ts', [
        '--quick',
        '--set',
        `web=${web}`,
        '--set',
        'sites=[]',
        '--workers',
        workers,
        '--out',
        join(dir, `out-${workers}`),
      ]);
      expect(r.code, r.stderr).toBe(2);
      // after the line that says what the experiment is, one line says why it cannot run
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('error'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^error: a web of 40,\d{3},\d{3} pages needs about \d{3},\d{3} MB/);
    }
  });
});
