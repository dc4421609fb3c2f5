/**
 * The journal read back in pieces (issue #38, item 3): --resume read each file as one string and
 * could not read one over 512 MiB. Lines that straddle the pieces, multi-byte characters cut
 * between two pieces, a torn last line and a torn JSON line; and a file larger than V8's longest
 * string.
 */
import { constants } from 'node:buffer';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLines } from '../crawler/journal.ts';
import { scaled } from './speed.ts';

const dir = mkdtempSync(join(tmpdir(), 'journal-'));

describe('reading the journal back', () => {
  it('gives the same lines whatever the piece size, cuts a torn last line off the file', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `${i}\tä€😀${'x'.repeat(i % 37)}`);
    const file = join(dir, 'frontier.log');
    for (const chunk of [1, 2, 3, 7, 64, 1 << 20]) {
      writeFileSync(file, `${lines.join('\n')}\n42\tto`);
      expect(readLines(file, chunk), `chunk ${chunk}`).toEqual(lines);
      expect(readFileSync(file, 'utf8')).toBe(`${lines.join('\n')}\n`);
    }
  });

  it('keeps the valid prefix of a JSON log torn inside a line', () => {
    const file = join(dir, 'crawl.jsonl');
    writeFileSync(file, '{"a":1}\n{"a":2}\n{"a":\n{"a":4}\n');
    expect(readLines(file, 5)).toEqual(['{"a":1}', '{"a":2}']);
  });

  it('reads a file larger than the longest string V8 can hold', { timeout: scaled(120_000) }, () => {
    const file = join(dir, 'big.log');
    const line = `${'u'.repeat(1023)}\n`;
    // encoded once: appending the string re-encoded 16 MiB each time (4.9 of the test's CPU-s)
    const block = Buffer.from(line.repeat(16 * 1024)); // 16 MiB
    writeFileSync(file, '');
    for (let i = 0; i < 36; i++) appendFileSync(file, block); // 576 MiB
    // more bytes of one-byte characters than a string may hold, so readFileSync(file, 'utf8')
    // cannot read it (it did, into a buffer, to throw: 5-6 CPU-s to prove a comparison)
    expect(statSync(file).size).toBeGreaterThan(constants.MAX_STRING_LENGTH);
    const lines = readLines(file);
    expect(lines.length).toBe(36 * 16 * 1024);
    expect(lines[lines.length - 1]).toBe('u'.repeat(1023));
    rmSync(file);
  });
});
