import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rerunCommand } from './family-contract.ts';
import { JSON_OBJECTS, ResultsFolder, WORD_BOOLEANS } from './results-folder.ts';

describe('a results folder', () => {
  it('writes tables with every row’s columns, the casts asked for, and lists files in order', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'results-')), 'nested', 'out');
    const out = new ResultsFolder(dir);
    const rows = [
      { a: 1, ok: true, x: null },
      { a: 2, ok: false, x: { k: [1] }, extra: 'only here' },
    ];
    out.csv('plain.csv', rows);
    out.csv('words.csv', rows, { columns: ['a', 'ok'], cast: WORD_BOOLEANS });
    out.csv('json.csv', rows, { columns: ['a', 'x'], cast: JSON_OBJECTS });
    out.put('report.md', '# r\n');
    expect(out.files).toEqual(['provenance.json', 'plain.csv', 'words.csv', 'json.csv', 'report.md']);
    // what made the folder: this process's Node, the code's hash, the date
    const made = JSON.parse(readFileSync(join(dir, 'provenance.json'), 'utf8'));
    expect(made.node).toBe(process.version);
    expect(made.code).toMatch(/^[0-9a-f]{16}$/);
    expect(Date.parse(made.date)).toBeGreaterThan(Date.parse('2026-01-01'));
    const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
    // a column only a later row has is kept (a plug-in's own counters); csv-stringify's booleans: 1 and empty
    expect(read('plain.csv').split('\n')[0]).toBe('a,ok,x,extra');
    expect(read('plain.csv').split('\n')[1]).toBe('1,1,,');
    expect(read('words.csv')).toBe('a,ok\n1,true\n2,false\n');
    expect(read('json.csv')).toBe('a,x\n1,\n2,"{""k"":[1]}"\n');
    expect(read('report.md')).toBe('# r\n');
    // every family's report.md ends with it, once (a report that shows it already is left as it is)
    out.report('# r');
    expect(read('report.md')).toMatch(
      new RegExp(`^# r\\n\\nMade by: commit .*code ${made.code}, Node ${process.version}.*\\.\\n$`),
    );
    // the strategy modules a run loaded join it, without listing the file twice
    out.recordRun({
      modules: { 'strategies/mine.ts': 'fedcba9876543210' },
      jobs: [
        { seed: 1, site: 'a', host: 'lab1', pid: 12 },
        { seed: 1, site: 'b', host: 'lab1', pid: 13 },
        { seed: 2, site: 'a', host: 'lab2', pid: 7 },
      ],
    });
    expect(JSON.parse(read('provenance.json')).modules).toEqual({ 'strategies/mine.ts': 'fedcba9876543210' });
    out.report('# r');
    expect(read('report.md')).toMatch(
      /Made by: .*module strategies\/mine\.ts fedcba9876543210, .*; jobs: 2 on lab1 \(pids 12, 13\), 1 on lab2 \(pid 7\)\.\n$/,
    );
    expect(out.files.filter((f) => f === 'provenance.json')).toHaveLength(1);
    out.report('# r\n- Made by: the setup list\n');
    expect(read('report.md')).toBe('# r\n- Made by: the setup list\n');
  });

  it('writes the config that reruns the run, naming the command that made it, every flag that changes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'results-'));
    // a --quick run's comment once read "npm run experiment -- distributed", which runs the full config
    const made = rerunCommand({ asked: 'distributed', quick: true, seeds: 2, overrides: ['budget=60'], outFlag: dir });
    expect(made).toBe(`npm run experiment -- distributed --quick --seeds 2 --set 'budget=60' --out ${dir}`);
    expect(rerunCommand({ asked: 'x', quick: false, seeds: undefined }, 'twin-validation')).toBe(
      'npm run experiment -- twin-validation x',
    );
    // words the shell would split or expand, quoted so that the line runs as written
    expect(
      rerunCommand({
        asked: 'my configs/a.json',
        quick: false,
        seeds: undefined,
        overrides: ["name=it's"],
        outFlag: '$HOME',
      }),
    ).toBe(`npm run experiment -- 'my configs/a.json' --set 'name=it'\\''s' --out '$HOME'`);
    const out = new ResultsFolder(dir);
    out.config({ kind: 'distributed', budget: 60, quick: { budget: 10 } }, made);
    const written = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(written).toEqual({
      _rerun: `${made} (or: npm run experiment -- ${join(dir, 'config.json')})`,
      kind: 'distributed',
      budget: 60,
      quick: {},
    });
    expect(out.files).toEqual(['provenance.json', 'config.json']);
  });
});
