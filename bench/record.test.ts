import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordBench } from './record.ts';

describe("a bench's figures recorded in the docs", () => {
  it('replaces only its own block, says what it was measured on, and refuses a file without the block', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-md-')), 'benchmarks.md');
    writeFileSync(file, '# B\n\nbefore\n<!-- bench:scale -->\nold table\n<!-- /bench:scale -->\n\nafter\n');
    recordBench('scale', '| a |\n|---|\n| 1 |', file);
    recordBench('scale', '| a |\n|---|\n| 2 |', file);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(
      /^# B\n\nbefore\n<!-- bench:scale -->\n\*Written by `npm run bench:scale -- --record`: commit \S+, \d{4}-\d\d-\d\d, Node v\d+/,
    );
    expect(text).toContain('| 2 |\n<!-- /bench:scale -->\n\nafter\n');
    expect(text).not.toContain('old table');
    expect(text).not.toContain('| 1 |');
    expect(() => recordBench('crawl', 'x', file)).toThrow(
      /no block <!-- bench:crawl --> \.\.\. <!-- \/bench:crawl -->/,
    );
  });
});
