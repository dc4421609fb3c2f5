/**
 * Web archives (WARC, ISO 28500) as a web: an index of every archived response (URL -> file,
 * offset, length) built by streaming the files once with warcio, so memory grows with the
 * number of URLs, not the archive's size; records are read back from disk on demand. Revisit
 * records are served with their own status and headers and the payload of the response they
 * refer to. Gzipped (one member per record) and plain WARCs both work.
 *
 * A damaged file is found while indexing, within seconds, and said with the file and the record's
 * offset: `strict` refuses it (a WarcDamaged error); otherwise `warnings` says what was left out
 * and `reading` counts it. A gzipped file's members are each checked first (sim/warc-gzip.ts: CRC,
 * length, records that end inside their member) and a damaged one is skipped, the records after
 * it read from the next whole member on; a plain file (cut short, a Content-Length that does not
 * end at a record boundary) is served up to its last whole record.
 */
import { CRAWL_END_URI, type CrawlEnd, parseCrawlEnd } from '../lib/crawl-end.ts';
import { WarcDamaged } from '../lib/errors.ts';
import { resource } from '../lib/paths.ts';
import { canonicalUrl } from '../lib/url.ts';
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { WARCParser } from 'warcio';
import { grown } from '../lib/typed-arrays.ts';
import { type GoodRange, walkGzipMembers } from './warc-gzip.ts';
import { Readable } from 'node:stream';
import { append } from '../lib/arrays.ts';

export interface ArchivedEntry {
  file: number;
  offset: number;
  length: number;
  type: 'response' | 'revisit' | 'resource';
  status: number;
  date: string;
  /** For revisits: index of the capture they refer to (-1: none). */
  ref: number;
}

export interface ArchivedResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/**
 * The lookup key of a URL: the one canonicaliser (lib/url.ts canonicalUrl), which the crawler
 * fetches by too, so a record saved as "/x?sid=123" or "/%7Eu/" is the page the crawler asks for
 * as "/x" and "/~u/"; null for what is not an http(s) URL.
 */
export function archiveKey(url: string): string | null {
  return canonicalUrl(url);
}

// headers that described the archived transfer, not the payload we serve
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive']);

/** Growable columns of the index: about 40 bytes an entry besides the URL key. */
class Columns {
  file = new Uint16Array(1024);
  offset = new Float64Array(1024);
  length = new Float64Array(1024);
  type = new Uint8Array(1024);
  status = new Uint16Array(1024);
  date = new Float64Array(1024);
  /** For revisits: index of the capture referred to (resolved after indexing), else -1. */
  ref = new Int32Array(1024);
  n = 0;
  push(): number {
    if (this.n === this.file.length) {
      const n = this.n * 2;
      this.file = grown(this.file, n);
      this.offset = grown(this.offset, n);
      this.length = grown(this.length, n);
      this.type = grown(this.type, n);
      this.status = grown(this.status, n);
      this.date = grown(this.date, n);
      this.ref = grown(this.ref, n);
    }
    return this.n++;
  }
}

const TYPES = ['response', 'revisit', 'resource'] as const;

/** A WARC file that is not whole, where and how (refused when the archive is opened strict; lib/errors.ts). */
export { WarcDamaged } from '../lib/errors.ts';

/**
 * The end of the last whole record of a plain (uncompressed) WARC, read header by header: each
 * record is "WARC/1.x" headers, a blank line, Content-Length bytes, and a blank line. Returns the
 * file's size when it is whole, else where the damage starts and what it is.
 */
export async function plainWarcEnd(file: string, size: number): Promise<{ end: number; problem: string | null }> {
  const fh = await open(file, 'r');
  try {
    let pos = 0;
    let head = Buffer.alloc(8192);
    while (pos < size) {
      let n = (await fh.read(head, 0, Math.min(head.length, size - pos), pos)).bytesRead;
      let sep = head.subarray(0, n).indexOf('\r\n\r\n');
      while (sep < 0 && n === head.length && head.length < 1 << 20) {
        head = Buffer.alloc(head.length * 4);
        n = (await fh.read(head, 0, Math.min(head.length, size - pos), pos)).bytesRead;
        sep = head.subarray(0, n).indexOf('\r\n\r\n');
      }
      const at = `record at offset ${pos}`;
      if (!head.subarray(0, 5).equals(Buffer.from('WARC/')))
        return { end: pos, problem: `${at} does not start with "WARC/" (the previous record's length is wrong?)` };
      if (sep < 0) return { end: pos, problem: `${at}: its headers do not end (the file is cut short?)` };
      const headers = head.subarray(0, sep).toString('latin1');
      const cl = /\r\ncontent-length:[ \t]*(\d+)/i.exec(headers);
      if (!cl) return { end: pos, problem: `${at} has no Content-Length` };
      const blockEnd = pos + sep + 4 + Number(cl[1]);
      if (blockEnd + 4 > size)
        return {
          end: pos,
          problem: `${at} declares ${cl[1]} bytes, but the file ends ${size - pos - sep - 4} bytes into them (cut short?)`,
        };
      const tail = Buffer.alloc(4);
      await fh.read(tail, 0, 4, blockEnd);
      if (!tail.equals(Buffer.from('\r\n\r\n')))
        return { end: pos, problem: `${at}: its Content-Length (${cl[1]}) does not end at a record boundary` };
      pos = blockEnd + 4;
      // blank lines between records are tolerated
      const gap = Buffer.alloc(2);
      while (pos + 2 <= size && (await fh.read(gap, 0, 2, pos)).bytesRead === 2 && gap.equals(Buffer.from('\r\n')))
        pos += 2;
    }
    return { end: size, problem: null };
  } finally {
    await fh.close();
  }
}

export class WarcArchive {
  private readonly c = new Columns();
  /** URL key -> index of its latest capture. */
  private readonly byUrl = new Map<string, number>();
  /** Earlier captures of URLs captured more than once (rare), for revisits that refer to them. */
  private readonly older = new Map<string, number[]>();
  private readonly pendingRefs: { i: number; key: string; date: number }[] = [];
  records = 0;

  private constructor(readonly files: readonly string[]) {}

  /** Damage found while indexing (file, offset, what), when the archive was opened leniently. */
  readonly warnings: string[] = [];

  /** What indexing read: records, damaged stretches left out, and their bytes (the reading line every replay prints). */
  readonly reading = { records: 0, damaged: 0, skippedBytes: 0 };

  /** How each file's crawl ended, by its last crawl-end record (lib/crawl-end.ts); null: the file says nothing. */
  readonly crawlEnds: (CrawlEnd | null)[] = [];

  /**
   * The archive of these files, indexed. `strict`: a damaged file is refused (WarcDamaged);
   * otherwise it is served up to its last whole record and the damage is in `warnings`.
   */
  static async open(files: readonly string[], opts: { strict?: boolean } = {}): Promise<WarcArchive> {
    const a = new WarcArchive(files.map(resource));
    for (let f = 0; f < files.length; f++) {
      a.crawlEnds[f] = null;
      const problems = await a.indexFile(f);
      if (problems.length && opts.strict) throw new WarcDamaged(`${files[f]}: ${problems[0]}`);
      for (const p of problems) a.warnings.push(`${files[f]}: ${p}`);
    }
    a.resolveRefs();
    return a;
  }

  /**
   * Indexes one file: a gzipped one member by member, damaged members skipped; a plain one up to its
   * last whole record. Returns what is damaged (empty: nothing).
   */
  private async indexFile(f: number): Promise<string[]> {
    const file = this.files[f];
    const size = statSync(file).size;
    const magic = Buffer.alloc(2);
    const fh = await open(file, 'r');
    await fh.read(magic, 0, 2, 0).finally(() => fh.close());
    const gz = magic[0] === 0x1f && magic[1] === 0x8b;
    let ranges: GoodRange[];
    const problems: string[] = [];
    if (gz) {
      const walk = await walkGzipMembers(file, size);
      ranges = walk.ranges;
      append(problems, walk.problems);
      this.reading.skippedBytes += walk.skippedBytes;
      this.reading.damaged += walk.problems.length;
    } else {
      const { end, problem } = await plainWarcEnd(file, size);
      ranges = end > 0 ? [{ start: 0, end }] : [];
      if (problem) {
        problems.push(`${problem}; served up to the last whole record`);
        this.reading.skippedBytes += size - end;
        this.reading.damaged++;
      }
    }
    if (!ranges.length) return problems;
    const first = this.c.n;
    const stream = Readable.from(rangesOf(file, ranges));
    const parser = new WARCParser(stream);
    // warcio's iterator could wait forever on a stream that ended inside a record: the checks above
    // should leave none, and if one is left, it gets a second once the file is read, else the
    // rest counts as damaged
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'stalled'>((resolve) =>
      stream.once('end', () => {
        timer = setTimeout(() => resolve('stalled'), 1000);
      }),
    );
    const indexing = this.indexRecords(parser, f, fileOffset(ranges)).then(() => {
      finished = true;
      return 'done' as const;
    });
    const how = await Promise.race([indexing, stalled]).finally(() => clearTimeout(timer));
    if (how === 'stalled' && !finished) {
      problems.push(`the record after offset ${this.lastEnd(first)} does not end (the file is cut short?)`);
      this.reading.damaged++;
    }
    return problems;
  }

  /** Where the last record indexed from this file (from index `first` on) ends; 0 when none. */
  private lastEnd(first: number): number {
    const i = this.c.n - 1;
    return i >= first ? this.c.offset[i] + this.c.length[i] : 0;
  }

  private async indexRecords(parser: WARCParser, f: number, toFile: (offset: number) => number): Promise<void> {
    for await (const record of parser) {
      const type = record.warcType;
      const uri = record.warcTargetURI;
      if (type === 'metadata' && uri === CRAWL_END_URI && (record.warcContentLength ?? 0) < 4096) {
        // how the crawl that wrote this file ended: the last such record wins (a resumed crawl adds one)
        this.crawlEnds[f] = parseCrawlEnd(await record.contentText()) ?? this.crawlEnds[f];
        this.records++;
        this.reading.records++;
        continue;
      }
      await record.skipFully();
      this.records++;
      this.reading.records++;
      if (!uri || (type !== 'response' && type !== 'revisit' && type !== 'resource')) continue;
      const key = archiveKey(uri);
      if (!key) continue;
      const c = this.c;
      const i = c.push();
      c.file[i] = f;
      c.offset[i] = toFile(parser.offset);
      c.length[i] = parser.recordLength;
      c.type[i] = TYPES.indexOf(type);
      c.status[i] = type === 'resource' ? 200 : Number(record.getResponseInfo()?.status ?? 200);
      c.date[i] = Date.parse(record.warcDate ?? '') || 0;
      c.ref[i] = -1;
      if (type === 'revisit') {
        const refKey = archiveKey(record.warcRefersToTargetURI ?? uri) ?? key;
        this.pendingRefs.push({ i, key: refKey, date: Date.parse(record.warcRefersToDate ?? '') || NaN });
      }
      // the latest capture of a URL wins; earlier ones stay reachable for revisits
      const prev = this.byUrl.get(key);
      if (prev === undefined) this.byUrl.set(key, i);
      else {
        const [keep, old] = c.date[prev] <= c.date[i] ? [i, prev] : [prev, i];
        this.byUrl.set(key, keep);
        const list = this.older.get(key) ?? [];
        list.push(old);
        this.older.set(key, list);
      }
    }
  }

  /** A revisit refers to the capture of its target with the given date, else to the latest non-revisit one. */
  private resolveRefs(): void {
    const c = this.c;
    for (const { i, key, date } of this.pendingRefs) {
      const candidates = [this.byUrl.get(key), ...(this.older.get(key) ?? [])].filter(
        (x): x is number => x !== undefined && c.type[x] !== 1,
      );
      c.ref[i] =
        candidates.find((x) => c.date[x] === date) ?? candidates.sort((a, b) => c.date[b] - c.date[a])[0] ?? -1;
    }
    this.pendingRefs.length = 0;
  }

  get size(): number {
    return this.byUrl.size;
  }

  lookup(url: string): ArchivedEntry | undefined {
    const key = archiveKey(url);
    const i = key === null ? undefined : this.byUrl.get(key);
    return i === undefined ? undefined : this.entry(i);
  }

  private entry(i: number): ArchivedEntry {
    const c = this.c;
    return {
      file: c.file[i],
      offset: c.offset[i],
      length: c.length[i],
      type: TYPES[c.type[i]],
      status: c.status[i],
      date: new Date(c.date[i]).toISOString(),
      ref: c.ref[i],
    };
  }

  /** Archived URLs (optionally of one host), sorted. */
  urls(host?: string): string[] {
    const out: string[] = [];
    for (const k of this.byUrl.keys()) if (!host || new URL(k).host === host) out.push(k);
    return out.sort();
  }

  hosts(): string[] {
    return [...new Set([...this.byUrl.keys()].map((k) => new URL(k).host))].sort();
  }

  private async readRecord(e: ArchivedEntry): Promise<{ status: number; headers: [string, string][]; body: Buffer }> {
    const fh = await open(this.files[e.file], 'r');
    let buf: Buffer;
    try {
      buf = Buffer.alloc(e.length);
      await fh.read(buf, 0, e.length, e.offset);
    } finally {
      await fh.close();
    }
    const record = await WARCParser.parse([buf]);
    if (!record) throw new Error(`no WARC record at ${this.files[e.file]}:${e.offset}`);
    const info = record.getResponseInfo();
    const headers: [string, string][] = [];
    if (info)
      for (const [k, v] of info.headers as Iterable<[string, string]>)
        if (!HOP_HEADERS.has(k.toLowerCase())) headers.push([k, v]);
    if (e.type === 'resource') {
      const ct = record.warcContentType;
      if (ct) headers.push(['content-type', ct]);
    }
    const body = Buffer.from(await record.readFully(true));
    return { status: e.type === 'resource' ? 200 : Number(info?.status ?? 200), headers, body };
  }

  /** The archived response of a URL (revisits resolved), or null. */
  async get(url: string): Promise<ArchivedResponse | null> {
    const e = this.lookup(url);
    if (!e) return null;
    const r = await this.readRecord(e);
    if (e.type === 'revisit' && e.ref >= 0) r.body = (await this.readRecord(this.entry(e.ref))).body;
    return r;
  }
}

/** The bytes of a file's good ranges, one after another. */
async function* rangesOf(file: string, ranges: readonly GoodRange[]): AsyncGenerator<Buffer> {
  for (const r of ranges) yield* createReadStream(file, { start: r.start, end: r.end - 1 });
}

/** Maps an offset in the good ranges laid end to end back to the file's offset. */
function fileOffset(ranges: readonly GoodRange[]): (offset: number) => number {
  const starts: number[] = [];
  let at = 0;
  for (const r of ranges) {
    starts.push(at);
    at += r.end - r.start;
  }
  return (offset) => {
    // the last range starting at or before the offset
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return ranges[lo].start + offset - starts[lo];
  };
}

/** What reading an archive left out, in one line (every replay and fit prints it; summary.json keeps it). */
export function readingLine(a: Pick<WarcArchive, 'reading' | 'size'>): string {
  const r = a.reading;
  return (
    `archive: ${r.records} records read, ${a.size} URLs` +
    (r.damaged
      ? `; ${r.damaged} damaged stretch${r.damaged === 1 ? '' : 'es'} left out (${r.skippedBytes} bytes)`
      : '; nothing damaged')
  );
}
