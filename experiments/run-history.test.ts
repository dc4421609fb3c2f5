import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writingInto } from './family-contract.ts';
import { ResultsFolder } from './results-folder.ts';
import { RUNS_DIR } from './run-history.ts';

/** A run that writes a config and one table, as a family does. */
const run = (dir: string, value: string) =>
  writingInto(dir, async () => {
    const out = new ResultsFolder(dir);
    out.put('config.json', '{}\n');
    out.put('summary.csv', `x\n${value}\n`);
  });

describe('earlier runs are kept', () => {
  it('a rerun keeps the finished run in runs/, its subfolders in place; an unfinished one is not kept', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'history-')), 'exp');
    await run(dir, '1');
    mkdirSync(join(dir, 'points'));
    writeFileSync(join(dir, 'points', 'p0.json'), '{}');
    await run(dir, '2');
    expect(readFileSync(join(dir, 'summary.csv'), 'utf8')).toBe('x\n2\n');
    const kept = readdirSync(join(dir, RUNS_DIR));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, RUNS_DIR, kept[0], 'summary.csv'), 'utf8')).toBe('x\n1\n');
    expect(readdirSync(join(dir, RUNS_DIR, kept[0])).sort()).toEqual(['config.json', 'provenance.json', 'summary.csv']);
    // the stamp says when and from which commit
    expect(kept[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d/);
    expect(existsSync(join(dir, 'points', 'p0.json'))).toBe(true);
    // a third run: two kept, each whole
    await run(dir, '3');
    expect(readdirSync(join(dir, RUNS_DIR))).toHaveLength(2);
    // a run that did not end is not a run: the next overwrites it and keeps nothing more
    writeFileSync(join(dir, 'INCOMPLETE'), 'killed\n');
    await run(dir, '4');
    expect(readdirSync(join(dir, RUNS_DIR))).toHaveLength(2);
  });
});
