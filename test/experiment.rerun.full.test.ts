/**
 * The experiment command end to end (full tier: four quick runs of the small web, about 20 s):
 * --set overrides rerun from the written config to the same CSVs; --no-replay and --no-diagnostics
 * give the same curves and say so. The flags' parsing and refusals are test/experiment.cli.test.ts,
 * in the default tier; configs that rerun as written, test/config-rerun.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './cli-inprocess.ts';
import { smallRun } from './helpers.ts';

describe('experiment CLI runs', () => {
  it('--set overrides fields (over "quick" too); the written config records them and reruns to the same CSVs', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'set-')), 'run');
    const sets = [...smallRun(['bfs', 'immediate']), '--set', 'web=data/webs/small.json'];
    const first = await runCliInProcess('experiments/cli/experiment.ts', [
      '--quick',
      ...sets,
      '--workers',
      '0',
      '--out',
      out,
    ]);
    expect(first.code, first.stderr).toBe(0);
    const written = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({
      budget: 60,
      every: 20,
      strategies: ['bfs', 'immediate'],
      web: 'data/webs/small.json',
    });
    expect(String(written._rerun)).toContain("--set 'budget=60'");
    expect(String(written._rerun)).toMatch(new RegExp(`^npm run experiment -- focused --quick .*--out ${out} \\(or: `));
    // a line per run as it ends (one site x two strategies)
    expect(first.stderr).toMatch(
      /^ {2}seed 1 cs\.alpha-university\.test bfs: \d+ requests, recall AUC [\d.]+, [\d.]+ s$/m,
    );
    expect(first.stderr).toMatch(/^ {2}seed 1 cs\.alpha-university\.test immediate: \d+ requests/m);
    const curves = readFileSync(join(out, 'curves.csv'), 'utf8');
    expect(curves.split('\n').filter((l) => l.includes(',bfs,')).length).toBe(3);
    const again = await runCliInProcess('experiments/cli/experiment.ts', [join(out, 'config.json'), '--workers', '0']);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(out, 'curves.csv'), 'utf8')).toBe(curves);
  });

  it('--no-replay and --no-diagnostics: the same curves, and the report, the page and config.json say so', async () => {
    const sets = smallRun(['bfs']);
    const runIn = async (flags: string[]): Promise<string> => {
      const out = join(mkdtempSync(join(tmpdir(), 'lean-')), 'run');
      const r = await runCliInProcess('experiments/cli/experiment.ts', [
        '--quick',
        ...sets,
        ...flags,
        '--workers',
        '0',
        '--out',
        out,
      ]);
      expect(r.code, r.stderr).toBe(0);
      return out;
    };
    const out = await runIn([]);
    const lean = await runIn(['--no-replay', '--no-diagnostics']);
    expect(readFileSync(join(lean, 'curves.csv'), 'utf8')).toBe(readFileSync(join(out, 'curves.csv'), 'utf8'));
    expect(existsSync(join(out, 'replay.json'))).toBe(true);
    expect(existsSync(join(lean, 'replay.json'))).toBe(false);
    const leanConfig = JSON.parse(readFileSync(join(lean, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(leanConfig).toMatchObject({ replay: false, diagnostics: false });
    expect(String(leanConfig._rerun)).toContain("--set 'replay=false' --set 'diagnostics=false'");
    const report = readFileSync(join(lean, 'report.md'), 'utf8');
    expect(report).toContain('No crawl replay on the results page: `replay` off (`--no-replay`)');
    expect(report).toMatch(/## The web's structure\n\nNot measured: this run was made with `diagnostics` off/);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/## The web's structure\n\nWhat the result rests on/);
    expect(readFileSync(join(lean, 'index.html'), 'utf8')).toContain('No crawl replay: replay off (--no-replay).');
  });
});
