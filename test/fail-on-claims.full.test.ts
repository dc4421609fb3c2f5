/**
 * experiment --fail-on-claims (full tier: it runs a focused experiment): exit 1 naming the claims
 * that FAIL, after the results are written; a family that judges no claims refuses the flag; a
 * run without the strategies the claims compare says so instead of an empty table.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { scaled } from './speed.ts';

describe('experiment --fail-on-claims', () => {
  it('exits 1 naming the claims that FAIL, after writing the results; a family without claims refuses the flag', {
    timeout: scaled(120_000),
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'claims-'));
    const cfg = join(dir, 'claims.json');
    writeFileSync(
      cfg,
      JSON.stringify({
        web: 'data/webs/small.json',
        seeds: [1],
        budget: 150,
        every: 25,
        strategies: ['bfs', 'random', 'immediate', 'future', 'adaptive'],
        crawl: { concurrency: 8, perHostConcurrency: 8 },
      }),
    );
    const out = join(dir, 'out');
    const r = await runCliInProcess('experiments/cli/experiment.ts', [
      cfg,
      '--workers',
      '0',
      '--out',
      out,
      '--fail-on-claims',
    ]);
    const failing = [...r.stdout.matchAll(/^ {2}FAIL (C\d)/gm)].map((m) => m[1]);
    expect(failing.length).toBeGreaterThan(0);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      `error: ${failing.length} claim${failing.length === 1 ? '' : 's'} FAIL: ${failing.join(', ')} ` +
        `(--fail-on-claims; the results are written to ${out})`,
    );
    expect(readFileSync(join(out, 'summary.csv'), 'utf8')).toMatch(/^experiment,strategy/);
    const deep = await runCliInProcess('experiments/cli/experiment.ts', ['deepweb', '--quick', '--fail-on-claims']);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toMatch(/--fail-on-claims: deepweb judges no claims/);
  });

  it('a run without the strategies the claims compare says no claim applies (no empty table)', {
    timeout: scaled(120_000),
  }, async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'noclaims-')), 'run');
    const r = await runCliInProcess('experiments/cli/experiment.ts', [
      '--quick',
      ...['--set', 'budget=60', '--set', 'every=20', '--set', 'strategies=["bfs","docs-first"]'],
      ...['--set', 'sites=["cs.alpha-university.test"]', '--workers', '0', '--out', out],
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toMatch(/## Claims\n\nNo claim applies: .* this run had bfs, docs-first\./);
    expect(report).not.toMatch(/Of 0 claims/);
  });
});
