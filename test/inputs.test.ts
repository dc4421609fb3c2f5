/**
 * Bad input refused before anything starts (issue #50 item 6): non-finite and absurd numbers,
 * oversized strings and files, deep nesting, devices and missing files named by a config, labels
 * CSVs with a byte-order mark or without their columns. Each: exit 2, one line naming the file
 * and the field, in well under a second (nothing was started).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonProblem } from '../lib/input.ts';
import { readLabels } from '../sim/labels.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { scaled } from './speed.ts';

const dir = mkdtempSync(join(tmpdir(), 'inputs-'));
const file = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('inputs refused up front', () => {
  it('experiment configs: exit 2, one line naming the file and the field, nothing started', async () => {
    const cases: [string, RegExp][] = [
      [file('inf.json', '{"budget": 1e309}'), /inf\.json: budget: Infinity is not a finite number$/],
      [file('huge-budget.json', '{"budget": 1e12}'), /budget: .*100000000/],
      [file('seed.json', '{"seeds": [1e300]}'), /seed\.json: seeds\[0\]: 1e\+300 is too large/],
      [file('seed32.json', '{"seeds": [1e10]}'), /seeds/],
      [
        file('name.json', JSON.stringify({ name: 'a'.repeat(2_000_000) })),
        /name\.json: \d+ bytes, over the limit of 1048576$/,
      ],
      [
        file('name2.json', JSON.stringify({ name: 'a'.repeat(5000) })),
        /name: expected letters, digits, - and _ \(at most 100\)/,
      ],
      [
        file('deep.json', `{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}`),
        /deep\.json: x\[0\]\[0\].*: nested deeper than 32 levels$/,
      ],
      [
        file('long.json', JSON.stringify({ description: 'x'.repeat(20_000) })),
        /description: a string of 20000 characters/,
      ],
      [file('zero.json', '{"web": "/dev/zero"}'), /web: "\/dev\/zero": not a regular file/],
      [file('folder.json', JSON.stringify({ web: dir })), /web: ".*": a folder, not a file$/],
      [file('missing.json', '{"web": "no/such/web.json"}'), /web: "no\/such\/web\.json": no such file$/],
      [
        file('module.json', '{"strategies": [{"name": "mine", "module": "/dev/zero"}]}'),
        /strategies: mine: module "\/dev\/zero": not a regular file/,
      ],
      [file('kw.json', '{"keywords": "/dev/null"}'), /keywords: "\/dev\/null": not a regular file/],
      [file('broken.json', '{"budget": '), /broken\.json: not valid JSON/],
      // a key given twice: JSON.parse keeps the last without a word (issue #84)
      [
        file('twice.json', '{"budget": 2000, "crawl": {"concurrency": 8, "concurrency": 1}, "budget": 20}'),
        /twice\.json: the key "concurrency" appears twice in crawl \(JSON keeps the last\)$/,
      ],
      // the deep-web family reads its web file with the same checks (issue #68: it once ran until killed)
      [file('dw-zero.json', '{"kind": "deepweb", "web": "/dev/zero"}'), /web: \/dev\/zero: not a regular file/],
      [
        file('dw-big.json', JSON.stringify({ kind: 'deepweb', web: file('big-web.json', ' '.repeat(2_000_000)) })),
        /web: .*big-web\.json: 2000000 bytes, over the limit of 1048576$/,
      ],
    ];
    // the command's modules loaded once first: the bound below is for the check, not for an import
    // that takes seconds on a loaded machine (4.9 s once)
    await import('../experiments/cli/experiment.ts');
    for (const [f, want] of cases) {
      const t0 = performance.now();
      const r = await runCliInProcess('experiments/cli/experiment.ts', [f, '--out', join(dir, 'out')]);
      expect({ f, code: r.code }).toEqual({ f, code: 2 });
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(want);
      expect(performance.now() - t0).toBeLessThan(scaled(3000));
    }
  });

  it('an archive config: WARC and labels checked, labels errors name the file and line', async () => {
    const warc = file('a.warc', '');
    const cfg = (labels: string): string =>
      file(
        `arch-${labels.length}.json`,
        JSON.stringify({ archive: { warc: [warc], labels, relevantDocuments: ['.pdf'] }, strategies: ['bfs'] }),
      );
    const noCols = file('cols.csv', 'link,kind\nhttp://a.test/,x\n');
    const badRow = file('row.csv', 'url,label\nhttp://a.test/,x\n"http://b.test/,y\n');
    for (const [labels, want] of [
      [noCols, /archive\.labels: labels .*cols\.csv: no "url" column \(line 1 names "link", "kind"/],
      [badRow, /archive\.labels: labels .*row\.csv line \d+: /],
      ['/dev/zero', /archive\.labels: "\/dev\/zero": not a regular file/],
    ] as const) {
      const r = await runCliInProcess('experiments/cli/experiment.ts', [cfg(labels), '--out', join(dir, 'out')]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toMatch(want);
    }
  });

  it("text inputs (labels, a --geo list, compare's tables) are refused when not a regular file", async () => {
    expect(() => readLabels('/dev/zero')).toThrow(/^labels \/dev\/zero: not a regular file/);
    const geo = await runCliInProcess('experiments/cli/crawl.ts', [
      '--web',
      'data/webs/small.json',
      '--processes',
      '2',
      '--geo',
      '/dev/zero',
      '--out',
      join(dir, 'geo'),
    ]);
    expect([geo.code, geo.stderr.trim()]).toEqual([
      2,
      'error: --geo /dev/zero: not a regular file (a device, FIFO or socket)',
    ]);
  });

  it('labels: a UTF-8 byte-order mark does not lose the url column', () => {
    const bom = file('bom.csv', '\ufeffurl,label\nhttp://a.test/x,faculty\n');
    expect([...readLabels(bom)]).toEqual([['http://a.test/x', 'faculty']]);
  });

  it('a JSON config with a UTF-8 byte-order mark is read, as a CSV with one is', async () => {
    const { loadExperiment } = await import('../experiments/focused/config.ts');
    const f = file('bom.json', `\ufeff${JSON.stringify({ strategies: ['bfs'], budget: 300 })}`);
    expect(loadExperiment(f).budget).toBe(300);
  });

  it('JSON limits are checked without recursion, whatever the depth', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(jsonProblem(deep)).toMatch(/nested deeper than 32 levels$/);
    expect(jsonProblem({ a: [1, { b: Number.NaN }] })).toBe('a[1].b: NaN is not a finite number');
    expect(jsonProblem({ a: 'ok', b: [1, 2, { c: null }] })).toBeNull();
  });
});

describe('a run is never silently slow', () => {
  it('an experiment serving its own web defaults to no politeness gap, and warns when one makes runs long', async () => {
    const { loadExperiment, slowRunWarning } = await import('../experiments/focused/config.ts');
    const f = file('no-crawl.json', JSON.stringify({ strategies: ['bfs'], budget: 2000 }));
    const c = loadExperiment(f);
    expect(c.crawl.delayMs).toBe(0);
    expect(slowRunWarning(c)).toBeNull();
    // the crawler's own default, given explicitly: 2,000 requests at 1 s, a 33-minute run, said with the fix
    expect(slowRunWarning({ ...c, crawl: { ...c.crawl, delayMs: 1000 } })).toMatch(
      /crawl\.delayMs 1000 makes every run of 2000 requests take at least 33 min.*"crawl": \{ "delayMs": 0 \}/,
    );
    expect(slowRunWarning({ ...c, budget: 100, crawl: { ...c.crawl, delayMs: 1000 } })).toBeNull();
  });
});

describe('did you mean', () => {
  it('suggests the closest field or strategy to a typo, and nothing for a word far from every one', async () => {
    const { didYouMean } = await import('../lib/strings.ts');
    expect(didYouMean('adaptiv', ['adaptive', 'immediate'])).toBe(' (did you mean adaptive?)');
    expect(didYouMean('Budgt', ['budget', 'every'])).toBe(' (did you mean budget?)');
    expect(didYouMean('speed', ['budget', 'every'])).toBe('');
    const typo = file('typo.json', '{"budgt": 100}');
    const r = await runCliInProcess('experiments/cli/experiment.ts', [typo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/budgt: unknown field \(did you mean budget\?\)/);
    const s = await runCliInProcess('experiments/cli/experiment.ts', [file('s.json', '{"strategies": ["adaptiv"]}')]);
    expect(s.stderr).toMatch(/"adaptiv" is not one of .*\(did you mean adaptive\?\)/);
    // case alone (issue #71), in a nested field too; and a misspelt experiment name
    expect(didYouMean('Budget', ['budget', 'every'])).toBe(' (did you mean budget?)');
    const nested = await runCliInProcess('experiments/cli/experiment.ts', [
      file('c.json', '{"crawl": {"delayMS": 0}}'),
    ]);
    expect(nested.stderr).toMatch(/delayMS: unknown field \(did you mean delayMs\?\)/);
    const name = await runCliInProcess('experiments/cli/experiment.ts', ['focussed']);
    expect([name.code, name.stderr]).toEqual([
      2,
      expect.stringMatching(/unknown experiment "focussed" \(did you mean focused\?\)/),
    ]);
    // a misspelt flag, on any command (lib/cli.ts parseCommand; issue #87); a far one gets no guess
    const flag = await runCliInProcess('experiments/cli/experiment.ts', ['--quik']);
    expect([flag.code, flag.stderr]).toEqual([
      2,
      "error: Unknown option '--quik' (did you mean --quick?) (see --help)\n",
    ]);
    const far = await runCliInProcess('experiments/cli/compare.ts', ['--zzzz']);
    expect([far.code, far.stderr]).toEqual([2, "error: Unknown option '--zzzz' (see --help)\n"]);
  });
});
