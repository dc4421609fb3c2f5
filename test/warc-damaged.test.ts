/**
 * Damaged WARCs (issue #50 item 7): a plain file cut mid-record, a Content-Length that lies
 * (either way), a gzip member cut short. Each is found while indexing, within seconds, said with
 * the file and the record's offset; strict opening refuses it, lenient opening serves the records
 * before it. `npm run sim -- --warc` serves such a file with a warning instead of hanging.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WarcArchive, WarcDamaged } from '../sim/warc-index.ts';
import { scaled } from './speed.ts';
import { program } from './helpers.ts';
import { runCliInProcess } from './cli-inprocess.ts';
import { readFileSync } from 'node:fs';

const dir = mkdtempSync(join(tmpdir(), 'warc-damaged-'));

/** One response record, as bytes. */
function record(i: number, contentLength?: (n: number) => number): Buffer {
  const http = Buffer.from(
    `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><title>page ${i}</title>${'x'.repeat(200)}</html>`,
  );
  const head = [
    'WARC/1.1',
    'WARC-Type: response',
    `WARC-Target-URI: http://a.test/p${i}`,
    'WARC-Date: 2026-01-01T00:00:00Z',
    `WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-${String(i).padStart(12, '0')}>`,
    'Content-Type: application/http; msgtype=response',
    `Content-Length: ${contentLength ? contentLength(http.length) : http.length}`,
  ].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), http, Buffer.from('\r\n\r\n')]);
}

/** A response record of `uri` with this HTTP message, as bytes. */
function responseRecord(uri: string, http: Buffer): Buffer {
  const head = [
    'WARC/1.1',
    'WARC-Type: response',
    `WARC-Target-URI: ${uri}`,
    'WARC-Date: 2026-01-01T00:00:00Z',
    'Content-Type: application/http; msgtype=response',
    `Content-Length: ${http.length}`,
  ].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), http, Buffer.from('\r\n\r\n')]);
}

const file = (name: string, bytes: Buffer): string => {
  const f = join(dir, name);
  writeFileSync(f, bytes);
  return f;
};

const records = [0, 1, 2, 3].map((i) => record(i));
const offsetOf = (k: number): number => records.slice(0, k).reduce((a, r) => a + r.length, 0);

async function opened(f: string): Promise<{ urls: string[]; warnings: string[]; strict: string; ms: number }> {
  const t0 = performance.now();
  const a = await WarcArchive.open([f]);
  const strict = await WarcArchive.open([f], { strict: true }).then(
    () => '',
    (e: Error) => (e instanceof WarcDamaged ? e.message : `not WarcDamaged: ${e.message}`),
  );
  return { urls: a.urls(), warnings: a.warnings, strict, ms: performance.now() - t0 };
}

describe('damaged WARCs', () => {
  it('a whole plain and a whole gzipped file: every record, no warning', async () => {
    for (const f of [
      file('whole.warc', Buffer.concat(records)),
      file('whole.warc.gz', Buffer.concat(records.map((r) => gzipSync(r)))),
    ]) {
      const r = await opened(f);
      expect(r.urls).toHaveLength(4);
      expect(r.warnings).toEqual([]);
      expect(r.strict).toBe('');
    }
  });

  it('a plain file cut mid-record: the records before it, and the offset', async () => {
    const f = file('cut.warc', Buffer.concat([...records.slice(0, 3), records[3].subarray(0, 100)]));
    const r = await opened(f);
    expect(r.urls).toEqual(['http://a.test/p0', 'http://a.test/p1', 'http://a.test/p2']);
    expect(r.warnings).toEqual([
      expect.stringMatching(new RegExp(`cut\\.warc: record at offset ${offsetOf(3)}: its headers do not end`)),
    ]);
    expect(r.strict).toMatch(new RegExp(`cut\\.warc: record at offset ${offsetOf(3)}`));
    const g = await opened(file('cut2.warc', Buffer.concat([...records.slice(0, 3), records[3].subarray(0, 400)])));
    expect(g.warnings[0]).toMatch(new RegExp(`record at offset ${offsetOf(3)} declares \\d+ bytes, but the file ends`));
    expect(r.ms + g.ms).toBeLessThan(scaled(5000));
  });

  it('a Content-Length that lies, longer or shorter: refused from that record on', async () => {
    for (const lie of [(n: number) => n + 5000, (n: number) => n - 20]) {
      const f = file('lie.warc', Buffer.concat([records[0], record(1, lie), records[2], records[3]]));
      const r = await opened(f);
      expect(r.urls).toEqual(['http://a.test/p0']);
      expect(r.warnings[0]).toMatch(
        new RegExp(
          `record at offset ${offsetOf(1)}(: its Content-Length \\(\\d+\\) does not end at a record boundary| declares \\d+ bytes, but the file ends)`,
        ),
      );
      expect(r.strict).not.toBe('');
    }
  });

  it('a gzip member cut short: the members before it, and its offset', async () => {
    const members = records.map((r) => gzipSync(r));
    const at = members.slice(0, 3).reduce((a, m) => a + m.length, 0);
    const f = file(
      'cut.warc.gz',
      Buffer.concat([...members.slice(0, 3), members[3].subarray(0, members[3].length - 30)]),
    );
    const r = await opened(f);
    expect(r.urls).toHaveLength(3);
    expect(r.warnings[0]).toMatch(new RegExp(`the gzip member at offset ${at} does not decompress`));
    expect(r.strict).toMatch(new RegExp(`offset ${at}`));
    // the file as one member (gzip of the whole file), cut: nothing whole, said so
    const whole = gzipSync(Buffer.concat(records));
    const one = file('one.warc.gz', whole.subarray(0, whole.length - 40));
    expect((await opened(one)).warnings[0]).toMatch(/gzip member at offset 0 does not decompress/);
  });

  it('a damaged gzip member in the middle: left out, said, and the members after it read (issue #84)', async () => {
    const members = records.map((r) => gzipSync(r));
    const at = members[0].length;
    const flipped = Buffer.from(members[1]);
    for (let i = 20; i < 30; i++) flipped[i] ^= 0xff;
    const r = await opened(file('flipped.warc.gz', Buffer.concat([members[0], flipped, members[2], members[3]])));
    expect(r.urls).toEqual(['http://a.test/p0', 'http://a.test/p2', 'http://a.test/p3']);
    expect(r.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `the gzip member at offset ${at} (does not decompress|has a CRC-32).*: ` +
            `${flipped.length} bytes left out, read again from offset ${at + flipped.length}`,
        ),
      ),
    ]);
    expect(r.strict).toMatch(new RegExp(`offset ${at}`));
    // the records after it are served from their own offsets
    const a = await WarcArchive.open([join(dir, 'flipped.warc.gz')]);
    expect((await a.get('http://a.test/p3'))!.body.toString()).toContain('page 3');
    expect(a.reading).toEqual({ records: 3, damaged: 1, skippedBytes: flipped.length });
  });

  it('a member whose CRC-32 or length is wrong is damaged, though it decompresses', async () => {
    const members = records.map((r) => gzipSync(r));
    for (const byte of [8, 4]) {
      const bad = Buffer.from(members[2]);
      bad[bad.length - byte] ^= 0x01; // the trailer: CRC-32 (8 from the end), then the length (4)
      const r = await opened(file('crc.warc.gz', Buffer.concat([members[0], members[1], bad, members[3]])));
      expect(r.urls).toEqual(['http://a.test/p0', 'http://a.test/p1', 'http://a.test/p3']);
      expect(r.warnings[0]).toMatch(
        byte === 8 ? /has a CRC-32 that does not match/ : /has a length that does not match/,
      );
    }
  });

  it('a gzipped record that claims 2 GiB: a warning within seconds, the others served', async () => {
    const members = [records[0], record(1, () => 2 ** 31), records[2]].map((r) => gzipSync(r));
    const r = await opened(file('claim.warc.gz', Buffer.concat(members)));
    expect(r.urls).toEqual(['http://a.test/p0', 'http://a.test/p2']);
    expect(r.warnings[0]).toMatch(
      new RegExp(`gzip member at offset ${members[0].length} holds a record \\(at byte 0\\) that declares more bytes`),
    );
    expect(r.ms).toBeLessThan(scaled(5000));
  });

  it('a whole file gzipped as one member, and a member larger than the window, read whole', async () => {
    const one = await opened(file('one-whole.warc.gz', gzipSync(Buffer.concat(records))));
    expect(one.urls).toHaveLength(4);
    expect(one.warnings).toEqual([]);
    // 24 MiB of body (more than the window decompresses in one call): decompressed as a stream, its CRC checked over every piece
    const http = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n'),
      Buffer.alloc(24 << 20, 'z'),
    ]);
    const bigRecord = responseRecord('http://a.test/big', http);
    const r = await opened(
      file('big.warc.gz', Buffer.concat([gzipSync(records[0]), gzipSync(bigRecord), gzipSync(records[1])])),
    );
    expect(r.urls).toEqual(['http://a.test/big', 'http://a.test/p0', 'http://a.test/p1']);
    expect(r.warnings).toEqual([]);
  });

  it('crawl --replay of an archive with a damaged member: the pages after it served, the damage in summary.json', {
    timeout: scaled(60_000),
  }, async () => {
    // twelve pages, p0 linking the others; the member of p3 damaged
    const page = (i: number): Buffer => {
      const links =
        i === 0 ? Array.from({ length: 11 }, (_, k) => `<a href="/p${k + 1}">page ${k + 1}</a>`).join(' ') : '';
      const http = Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><title>page ${i}</title>${links}</html>`,
      );
      return gzipSync(responseRecord(`http://a.test/${i ? `p${i}` : ''}`, http));
    };
    const members = Array.from({ length: 12 }, (_, i) => page(i));
    members[3] = Buffer.from(members[3]);
    for (let i = 15; i < 25; i++) members[3][i] ^= 0x55;
    const f = file('site.warc.gz', Buffer.concat(members));
    const out = join(dir, 'replay-out');
    const r = await runCliInProcess('experiments/cli/crawl.ts', [
      '--replay',
      f,
      '--start',
      'http://a.test/',
      '--quiet',
      '--out',
      out,
      '--max-pages',
      '20',
      '--delay-ms',
      '0',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: .*site\.warc\.gz: the gzip member at offset \d+ .*bytes left out, read again from offset/,
    );
    expect(r.stderr).toMatch(/archive: 11 records read, 11 URLs; 1 damaged stretch left out \(\d+ bytes\)/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.archive).toMatchObject({ files: [f], records: 11, urls: 11, damaged: 1 });
    expect(summary.archive.warnings).toHaveLength(1);
    // every page but the damaged one: 11 served, p3 a 404 (robots.txt is not archived: a 404 too)
    expect(summary.statuses['200']).toBe(11);
  });

  it('npm run sim -- --warc on a cut file: a warning and the records before it served, at once', {
    timeout: scaled(30_000),
  }, async () => {
    const f = file('serve.warc', Buffer.concat([...records.slice(0, 3), records[3].subarray(0, 100)]));
    const p = spawn(process.execPath, [...program('sim/cli/serve.ts'), '--warc', f], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    p.stderr!.on('data', (b: Buffer) => {
      err += b.toString();
    });
    const t0 = Date.now();
    while (!/listening on/.test(out) && Date.now() - t0 < 20_000 && p.exitCode === null)
      await new Promise((r) => setTimeout(r, 50));
    p.kill();
    expect(out).toMatch(/replaying 3 URLs/);
    expect(err).toMatch(
      new RegExp(`warning: .*serve\\.warc: record at offset ${offsetOf(3)}.*served up to the last whole record`),
    );
  });
});
