import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, loadConfig, resolveConfig } from '../sim/config.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { programArgs } from './helpers.ts';

const run = promisify(execFile);

describe('web config validation', () => {
  it('accepts the shipped configs', () => {
    for (const f of ['paper', 'small', 'million']) expect(loadConfig(`data/webs/${f}.json`).name).toBe(f);
  });

  it.each([
    [{ links: { mu: 1.5 } }, 'links.mu: expected a number from 0 to 1, got 1.5'],
    [{ linkz: {} }, 'linkz: unknown field'],
    [
      { departments: [{ host: 'cs.example.com', name: 'x', pages: 1000, groups: 3 }] },
      'departments[0].host: expected a lowercase hostname ending in .test, got "cs.example.com"',
    ],
    [
      {
        departments: [
          { host: 'a.test', name: 'x', pages: 1000, groups: 3 },
          { host: 'a.test', name: 'y', pages: 1000, groups: 3 },
        ],
      },
      'departments[1].host: "a.test" is used twice',
    ],
    [
      { departments: [{ host: 'a.test', name: 'x', pages: 10, groups: 3 }] },
      'departments[0].pages: expected a whole number from 200 to 2,000,000, got 10',
    ],
    [
      { departments: [{ host: 'a.test', name: 'x', pages: 1000, groups: 3, robots: 'sometimes' }] },
      'departments[0].robots: "sometimes" is not one of',
    ],
    [{ text: { wordsMin: 300, wordsMax: 100 } }, 'text.wordsMax: expected at least text.wordsMin (300), got 100'],
    [{ structure: { gapMin: 1.5 } }, 'structure.gapMin: expected a whole number from 0 to 20, got 1.5'],
    [{ faults: { slowMs: 'fast' } }, 'faults.slowMs: expected a whole number from 0 to 60,000, got "fast"'],
  ])('rejects %j', (partial, message) => {
    expect(() => resolveConfig(partial)).toThrow(ConfigError);
    expect(() => resolveConfig(partial)).toThrow(message);
  });

  it('leaves the defaults untouched when merging', () => {
    resolveConfig({ links: { mu: 0.4 } });
    expect(DEFAULTS.links.mu).toBe(0.2);
  });

  it('CLI: a bad config or flag gives one line naming the problem and exit code 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ anchors: { noise: -1 } }));
    const cases: [string[], RegExp][] = [
      [
        ['sim/cli/stats.ts', '--web', bad],
        /^error: .*bad\.json: anchors\.noise: expected a number from 0 to 1, got -1\n$/,
      ],
      [['sim/cli/stats.ts', '--frobnicate'], /^error: Unknown option '--frobnicate' \(see --help\)\n$/],
      [['sim/cli/stats.ts', '--seed', 'abc'], /^error: --seed: "abc" must be a whole number/],
      [['sim/cli/truth.ts'], /^error: --out FILE\.csv is required/],
      [['sim/cli/serve.ts', '--port', '99999'], /^error: --port: "99999" must be a whole number from 0 to 65535\n$/],
      [['sim/cli/stats.ts', '--web', join(dir, 'missing.json')], /^error: .*missing\.json: no such file\n$/],
      [
        ['sim/cli/serve.ts', '--warc', join(dir, 'none.warc.gz')],
        /^error: --warc: ".*none\.warc\.gz" does not exist\n$/,
      ],
      [
        ['sim/cli/serve.ts', '--warc', join(dir, 'none.warc.gz'), '--holes', 'shut'],
        /^error: --holes: "shut" is not one of open, closed\n$/,
      ],
      [['sim/cli/serve.ts', '--documents'], /^error: --holes and --documents apply to --warc archives\n$/],
      [['sim/cli/warc-convert.ts', '--dir', dir], /^error: --dir, --out and --labels are required \(see --help\)\n$/],
      [
        ['sim/cli/warc-convert.ts', '--dir', join(dir, 'nodir'), '--out', 'x.warc', '--labels', 'x.csv'],
        /^error: --dir: ".*nodir" does not exist\n$/,
      ],
    ];
    // the first as a real process (exit code 2, one line and nothing else on stderr), the rest in
    // this process (test/cli-inprocess.ts): the same code up to fail(), without node and tsx each time
    const [[args0, re0], ...rest] = cases;
    const err = await run(process.execPath, programArgs(args0)).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err, args0.join(' ')).not.toBeNull();
    expect(err!.code).toBe(2);
    expect(err!.stderr).toMatch(re0);
    expect(err!.stderr.trim().split('\n')).toHaveLength(1);
    for (const [[file, ...args], re] of rest) {
      const r = await runCliInProcess(file, args);
      expect(r.code, `${file} ${args.join(' ')}`).toBe(2);
      expect(r.stderr, `${file} ${args.join(' ')}`).toMatch(re);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
