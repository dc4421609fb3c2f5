/**
 * The regression gate (issue #53 item 1): the committed quick reference against a copy of itself
 * (exit 0), against a copy with one strategy lowered (exit 1, named), and unusable input (exit 2).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { unitsToDetect } from '../experiments/intervals.ts';
import { keepEarlierRun } from '../experiments/run-history.ts';
import { runCliInProcess } from './cli-inprocess.ts';

const REF = 'results/reference/focused-quick';

/** A copy of the reference with `column` of `strategy`'s runs moved by `delta` in `file`. */
function changed(file: string, strategy: string, column: string, delta: number | ((i: number) => number)): string {
  const dir = mkdtempSync(join(tmpdir(), 'compare-'));
  cpSync(REF, dir, { recursive: true });
  const rows = parse(readFileSync(join(dir, file), 'utf8'), { columns: true }) as Record<string, string>[];
  const by = typeof delta === 'number' ? () => delta : delta;
  let i = 0;
  for (const r of rows) if (r.strategy === strategy) r[column] = String(Number(r[column]) + by(i++));
  writeFileSync(join(dir, file), stringify(rows, { header: true, columns: Object.keys(rows[0]) }));
  return dir;
}

const compare = (args: string[]) => runCliInProcess('experiments/cli/compare.ts', args);

/** A copy of the reference whose config.json has `field` (top level) set to `value`. */
function reconfigured(field: string, value: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'compare-cfg-'));
  cpSync(REF, dir, { recursive: true });
  const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  cfg[field] = value;
  writeFileSync(join(dir, 'config.json'), JSON.stringify(cfg, null, 2));
  return dir;
}

describe('compare: a regression gate', () => {
  it('runs of other configs are not compared unless --allow-diff names the field (issue #71)', async () => {
    const other = reconfigured('budget', 500);
    const refused = await compare([REF, other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toMatch(/other configs: budget 600 vs 500; .*--allow-diff budget$/);
    const allowed = await compare([REF, other, '--allow-diff', 'budget']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/The configs differ \(allowed with --allow-diff\): budget 600 vs 500\./);
    // what does not change results is not a difference
    expect((await compare([REF, reconfigured('description', 'mine')])).code).toBe(0);
    // a section names every field under it
    const crawl = reconfigured('crawl', { delayMs: 5 });
    expect((await compare([REF, crawl])).code).toBe(2);
    expect((await compare([REF, crawl, '--allow-diff', 'crawl'])).code).toBe(0);
    // a misspelt field allows nothing: refused, with the field it was meant to be (issue #87)
    const typo = await compare([REF, other, '--allow-diff', 'budgte']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      'error: --allow-diff: "budgte" is not a field of the two config.json (did you mean budget?)',
    );
    // the same strategies in another order are the same config; another set is not
    const cfg = JSON.parse(readFileSync(join(REF, 'config.json'), 'utf8')) as { strategies: unknown[] };
    expect((await compare([REF, reconfigured('strategies', [...cfg.strategies].reverse())])).code).toBe(0);
    const fewer = await compare([REF, reconfigured('strategies', cfg.strategies.slice(1))]);
    expect(fewer.code).toBe(2);
    expect(fewer.stderr).toMatch(/other configs: strategies /);
  });

  it('a copy is within tolerance (exit 0); one strategy lowered is a regression (exit 1, named)', async () => {
    const same = await compare([REF, changed('summary.csv', 'bfs', 'recall_auc', 0)]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/No regression beyond 0\.02/);
    const lower = await compare([REF, changed('summary.csv', 'immediate', 'recall_auc', -0.1)]);
    expect(lower.code).toBe(1);
    expect(lower.stdout).toMatch(
      /\| immediate \| recall_auc \| 0\.\d+ \| 0\.\d+ \| -0\.100 \[-0\.100, -0\.100\] \| 0\.000 \| \*\*REGRESSION\*\* \|/,
    );
    expect(lower.stdout).toMatch(/\*\*1 regression\*\*: immediate recall_auc -0\.100/);
    // within a wider tolerance, or another strategy only: no regression
    expect(
      (await compare([REF, changed('summary.csv', 'immediate', 'recall_auc', -0.1), '--max-drop', '0.2'])).code,
    ).toBe(0);
    expect(
      (await compare([REF, changed('summary.csv', 'immediate', 'recall_auc', -0.1), '--strategy', 'bfs'])).code,
    ).toBe(0);
    // other code is what a gate measures: said, with the module that differs, not refused
    expect(same.stdout).not.toContain('The code differs');
    const edited = changed('summary.csv', 'bfs', 'recall_auc', 0);
    const made = JSON.parse(readFileSync(join(edited, 'provenance.json'), 'utf8'));
    writeFileSync(
      join(edited, 'provenance.json'),
      JSON.stringify({ ...made, code: '0123456789abcdef', modules: { 'strategies/mine.ts': 'fedcba9876543210' } }),
    );
    const other = await compare([REF, edited]);
    expect(other.code).toBe(0);
    expect(other.stdout).toMatch(
      new RegExp(
        'The code differs \\(what the comparison measures\\): harness code [0-9a-f]{16} vs 0123456789abcdef; ' +
          'module strategies/mine\\.ts \\(none\\) vs fedcba9876543210\\.',
      ),
    );
    expect(other.stdout).toMatch(/^Candidate: .*code 0123456789abcdef, module strategies\/mine\.ts fedcba9876543210,/m);
    // better is said, not gated
    expect((await compare([REF, changed('summary.csv', 'bfs', 'recall_auc', 0.1)])).stdout).toMatch(
      /\| bfs \| recall_auc .*\| better \|/,
    );
  });

  it('refuses a verdict of no regression from runs that could not detect --max-drop, naming the size that would', async () => {
    // runs moved by +0.06, -0.06, ...: no drop on average, but a spread that hides one of 0.02
    const noisy = [REF, changed('summary.csv', 'immediate', 'recall_auc', (i) => (i % 2 ? -0.06 : 0.06))];
    const blind = await compare(noisy);
    expect(blind.code).toBe(2);
    // the table still printed (a CI log shows what was measured), the refusal in one line
    expect(blind.stdout).toMatch(
      /\| immediate \| recall_auc \| [^|]+\| [^|]+\| [^|]+\| 0\.(1|2)\d\d \| within tolerance \|/,
    );
    expect(blind.stderr.trim().split('\n')).toHaveLength(1);
    const need =
      /no verdict: these runs could not detect a drop of 0\.02 .*immediate recall_auc .*about (\d+) seeds would/.exec(
        blind.stderr,
      );
    expect(need, blind.stderr).not.toBeNull();
    // the size is unitsToDetect at the spread of the paired differences (checked by hand below)
    expect(Number(need![1])).toBeGreaterThan(2);
    // --accept-blind: the verdict, with the warning beside it
    const accepted = await compare([...noisy, '--accept-blind']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(
      /Warning: the tolerance 0\.02 is below the smallest drop .* for immediate recall_auc \(0\.\d+\)/,
    );
    // the same runs exactly: any drop would show, no refusal and no warning
    const same = await compare([REF, changed('summary.csv', 'bfs', 'recall_auc', 0)]);
    expect(same.code).toBe(0);
    expect(same.stdout).not.toMatch(/Warning/);
  });

  it('the size a gate needs, by hand: (t(.975, n-1) + t(.8, n-1)) sd / sqrt(n) at most the drop', () => {
    // sd 0.02, drop 0.02: n = 9 gives (2.3060 + 0.8889) / 3 = 1.065 > 1; n = 10 gives
    // (2.2622 + 0.8834) / 3.1623 = 0.9947 <= 1 (t quantiles from the tables)
    expect(unitsToDetect(0.02, 0.02)).toBe(10);
    // no spread: two units see any drop; no spread known, or no drop to see: no size
    expect(unitsToDetect(0, 0.02)).toBe(2);
    expect(unitsToDetect(undefined, 0.02)).toBeNull();
    expect(unitsToDetect(0.02, 0)).toBeNull();
    expect(unitsToDetect(1, 0.001)).toBeNull();
  });

  it("--list names a folder's runs, earlier ones kept in runs/ first, each with what made it (issue #87)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compare-list-'));
    const copyRun = (): void =>
      cpSync(REF, dir, { recursive: true, filter: (f) => !f.includes(`${REF}/runs`) && !f.endsWith('/runs') });
    copyRun();
    const kept = keepEarlierRun(dir)!;
    copyRun();
    const r = await compare(['--list', dir]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`2 runs in ${dir}, oldest first (compare any two: npm run compare -- OLD NEW):`);
    expect(lines[1]).toMatch(new RegExp(`^  ${kept}: commit [0-9a-f]{12}`));
    expect(lines[2]).toMatch(new RegExp(`^  ${dir} \\(latest\\): commit [0-9a-f]{12}`));
    const empty = await compare(['--list', mkdtempSync(join(tmpdir(), 'compare-empty-'))]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/holds no finished run/);
  });

  it('a checkpoint of the curves is a metric too', async () => {
    const r = await compare([REF, changed('curves.csv', 'future', 'recall', -0.3), '--metric', 'recall@300']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\| future \| recall@300 \|.*REGRESSION/);
  });

  it('unusable input: exit 2 with one line', async () => {
    const cases: [string[], RegExp][] = [
      [[REF], /give two results folders/],
      [[REF, '/no/such/dir'], /\/no\/such\/dir\/summary\.csv: no such file/],
      [[REF, REF, '--metric', 'speed'], /--metric: "speed" is not a column of summary\.csv/],
      [[REF, REF, '--strategy', 'nope'], /--strategy: "nope" is not a strategy of/],
      [[REF, REF, '--max-drop', '-1'], /--max-drop/],
    ];
    for (const [args, want] of cases) {
      const r = await compare(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim()).toMatch(want);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
