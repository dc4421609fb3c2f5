/**
 * The gzip members of a gzipped WARC, walked one by one and checked before any record of them is
 * read (issue #84): each member decompressed with bounded memory (a window at a time, or a stream
 * for a large one), its trailer's CRC-32 and length compared with what it decompressed to, and
 * the WARC records inside it walked by their headers, so that a record claiming more bytes than
 * its member holds (2 GiB, say) is found here, in the time the member takes to decompress, and not
 * by a reader waiting for bytes that never come.
 *
 * A damaged member (does not decompress, wrong CRC or length, a record that does not end inside
 * it, no "WARC/" header) is left out, and the walk goes on at the next offset where a whole,
 * checked member starts, as warcio and pywb resynchronise: one flipped byte loses one record,
 * not the rest of the archive. What was left out is said with its offset and size.
 */
import { once } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { crc32, createInflateRaw, inflateRawSync } from 'node:zlib';

/** A stretch of the file made of whole, checked members. */
export interface GoodRange {
  start: number;
  end: number;
}

export interface MemberWalk {
  /** Whole, checked members, coalesced into ranges, in file order. */
  ranges: GoodRange[];
  /** Members read whole and checked. */
  members: number;
  /** What was left out, each with its offset and size (a damaged member and the bytes up to the next good one). */
  problems: string[];
  /** Bytes left out. */
  skippedBytes: number;
}

/** Compressed bytes read at a time. */
const CHUNK = 1 << 16;
/** A member whose data fits this window and decompresses to at most WINDOW_OUT is inflated in one call. */
const WINDOW = 1 << 20;
const WINDOW_OUT = 16 << 20;
/** A WARC record's headers are at most this long (more: the member is damaged). */
const MAX_HEADERS = 1 << 20;

/** Where a gzip member's compressed data starts (after its header), or -1 when `b` has no gzip header at p. */
export function gzipDataStart(b: Buffer, p: number): number {
  if (b[p] !== 0x1f || b[p + 1] !== 0x8b || b[p + 2] !== 8) return -1;
  const flags = b[p + 3];
  if (flags & 0xe0) return -1; // reserved bits set: not a gzip header
  let q = p + 10;
  if (flags & 4) q += 2 + b.readUInt16LE(q);
  if (flags & 8) while (q < b.length && b[q++] !== 0);
  if (flags & 16) while (q < b.length && b[q++] !== 0);
  if (flags & 2) q += 2;
  return q < b.length ? q : -1;
}

/**
 * The WARC records of a member's decompressed bytes, walked by their headers: "WARC/" headers, a
 * blank line, Content-Length bytes, a blank line; blank lines between records tolerated. Fed in
 * pieces; `end()` says whether the member ended where a record did.
 */
class RecordWalk {
  private head: Buffer[] = [];
  private headBytes = 0;
  /** Bytes of the current record's block (and its closing blank line) still to come; -1: reading headers. */
  private rest = -1;
  private at = 0;
  private recordAt = 0;
  records = 0;
  problem: string | null = null;

  feed(b: Buffer): void {
    let p = 0;
    while (p < b.length && !this.problem) {
      if (this.rest >= 0) {
        const take = Math.min(this.rest, b.length - p);
        this.rest -= take;
        p += take;
        if (this.rest === 0) this.rest = -1;
        continue;
      }
      if (this.headBytes === 0) {
        // blank lines between records, then a record's headers
        while (p < b.length && (b[p] === 0x0d || b[p] === 0x0a)) p++;
        if (p === b.length) break;
        this.recordAt = this.at + p;
      }
      const piece = b.subarray(p);
      this.head.push(piece);
      this.headBytes += piece.length;
      const all = Buffer.concat(this.head);
      const sep = all.indexOf('\r\n\r\n');
      if (sep < 0) {
        if (this.headBytes > MAX_HEADERS)
          this.problem = `holds a record (at byte ${this.recordAt}) whose headers do not end`;
        this.head = [all];
        p = b.length;
        break;
      }
      const headers = all.subarray(0, sep).toString('latin1');
      if (!headers.startsWith('WARC/')) {
        this.problem = `has no WARC record where one should start (byte ${this.recordAt})`;
        break;
      }
      const cl = /\r\ncontent-length:[ \t]*(\d+)/i.exec(headers);
      if (!cl) {
        this.problem = `holds a record (at byte ${this.recordAt}) with no Content-Length`;
        break;
      }
      this.records++;
      this.rest = Number(cl[1]);
      // what of this piece lies past the headers belongs to the block
      p = b.length - (all.length - sep - 4);
      this.head = [];
      this.headBytes = 0;
      if (this.rest === 0) this.rest = -1;
    }
    this.at += b.length;
  }

  /** Null when the member ended between records, else what is wrong. */
  end(total: number): string | null {
    if (this.problem) return this.problem;
    if (this.rest > 0)
      return `holds a record (at byte ${this.recordAt}) that declares more bytes than the member holds (${total} decompressed)`;
    if (this.headBytes > 0) return `holds a record (at byte ${this.recordAt}) whose headers do not end`;
    if (this.records === 0) return 'holds no WARC record';
    return null;
  }
}

type MemberResult = { next: number; problem: null } | { next: -1; problem: string };

/**
 * A window of the file, read once and kept while the members walked lie inside it: a member is
 * usually a few kilobytes, and reading a window per member read the file over and over.
 */
class Window {
  private buf = Buffer.alloc(0);
  private start = 0;
  constructor(
    private readonly fh: FileHandle,
    private readonly size: number,
  ) {}

  /** The file's bytes from `pos`: up to WINDOW of them, or to the file's end. */
  async from(pos: number): Promise<Buffer> {
    const want = Math.min(WINDOW, this.size - pos);
    if (pos < this.start || pos + want > this.start + this.buf.length) {
      this.buf = Buffer.allocUnsafe(Math.min(2 * WINDOW, this.size - pos));
      this.start = pos;
      await this.fh.read(this.buf, 0, this.buf.length, pos);
    }
    return this.buf.subarray(pos - this.start, pos - this.start + want);
  }
}

/** Reads and checks the member at `pos`: where the next one starts, or what is wrong with this one. */
async function readMember(fh: FileHandle, win: Window, pos: number, size: number): Promise<MemberResult> {
  const head = await win.from(pos);
  const dataAt = gzipDataStart(head, 0);
  if (dataAt < 0) return { next: -1, problem: 'has no gzip header' };
  const walk = new RecordWalk();
  let crc = 0;
  let total = 0;
  let consumed = -1;
  // the fast path: a small member inside the window, inflated in one call
  try {
    const r = inflateRawSync(head.subarray(dataAt), { info: true, maxOutputLength: WINDOW_OUT }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    const used = r.engine.bytesWritten;
    if (dataAt + used + 8 <= head.length) {
      consumed = used;
      crc = crc32(r.buffer);
      total = r.buffer.length;
      walk.feed(r.buffer);
    }
  } catch {
    // too large for the window, cut by it, or damaged: the stream decides
  }
  if (consumed < 0) {
    const s = await inflateStream(fh, pos + dataAt, size, (b) => {
      crc = crc32(b, crc);
      total += b.length;
      walk.feed(b);
      return walk.problem === null;
    });
    if (s.error) return { next: -1, problem: `does not decompress (${s.error})` };
    consumed = s.consumed;
  }
  const trailerAt = pos + dataAt + consumed;
  if (trailerAt + 8 > size) return { next: -1, problem: 'lacks its trailer (cut short?)' };
  let trailer = head.subarray(trailerAt - pos, trailerAt - pos + 8);
  if (trailer.length < 8) {
    trailer = Buffer.alloc(8);
    await fh.read(trailer, 0, 8, trailerAt);
  }
  if (trailer.readUInt32LE(0) !== crc >>> 0) return { next: -1, problem: 'has a CRC-32 that does not match its data' };
  if (trailer.readUInt32LE(4) !== total % 2 ** 32)
    return { next: -1, problem: 'has a length that does not match its data' };
  const bad = walk.end(total);
  if (bad) return { next: -1, problem: bad };
  return { next: trailerAt + 8, problem: null };
}

/**
 * Inflates the deflate data at `from` as a stream (memory bounded by the chunk, whatever the member
 * decompresses to), handing each decompressed piece to `sink` (false: stop, the member is damaged).
 */
async function inflateStream(
  fh: FileHandle,
  from: number,
  size: number,
  sink: (b: Buffer) => boolean,
): Promise<{ consumed: number; error: string | null }> {
  const z = createInflateRaw();
  let ended = false;
  let error: string | null = null;
  z.on('data', (b: Buffer) => {
    if (!error && !sink(b)) {
      error = 'a record in it is damaged';
      z.destroy();
    }
  });
  const done = new Promise<void>((resolve) => {
    z.once('end', () => {
      ended = true;
      resolve();
    });
    z.once('error', (e: Error) => {
      error ??= e.message;
      resolve();
    });
    z.once('close', () => resolve());
  });
  let pos = from;
  while (!ended && !error && pos < size) {
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
    const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
    if (!bytesRead) break;
    pos += bytesRead;
    if (!z.write(buf.subarray(0, bytesRead))) await Promise.race([once(z, 'drain'), done]);
  }
  if (!ended && !error) z.end();
  await done;
  if (!ended && !error) error = 'unexpected end of file';
  return { consumed: z.bytesWritten, error };
}

/** The next offset after `from` where a whole, checked member starts, or -1. */
async function resync(fh: FileHandle, win: Window, from: number, size: number): Promise<number> {
  const buf = Buffer.allocUnsafe(CHUNK + 2);
  for (let p = from; p < size; p += CHUNK) {
    const n = (await fh.read(buf, 0, Math.min(buf.length, size - p), p)).bytesRead;
    for (let i = buf.indexOf(0x1f, 0); i >= 0 && i < Math.min(n, CHUNK); i = buf.indexOf(0x1f, i + 1))
      if (buf[i + 1] === 0x8b && buf[i + 2] === 8 && (await readMember(fh, win, p + i, size)).problem === null)
        return p + i;
  }
  return -1;
}

/** Walks a gzipped WARC's members: the whole ones in ranges, the damaged ones said and skipped. */
export async function walkGzipMembers(file: string, size: number): Promise<MemberWalk> {
  const fh = await open(file, 'r');
  const out: MemberWalk = { ranges: [], members: 0, problems: [], skippedBytes: 0 };
  try {
    const win = new Window(fh, size);
    let pos = 0;
    let start = 0;
    while (pos < size) {
      const m = await readMember(fh, win, pos, size);
      if (m.problem === null) {
        out.members++;
        pos = m.next;
        continue;
      }
      if (pos > start) out.ranges.push({ start, end: pos });
      const next = await resync(fh, win, pos + 1, size);
      const end = next < 0 ? size : next;
      out.skippedBytes += end - pos;
      out.problems.push(
        `the gzip member at offset ${pos} ${m.problem}: ${end - pos} bytes left out, ` +
          (next < 0 ? 'no whole member after it (cut short?)' : `read again from offset ${next}`),
      );
      pos = start = end;
    }
    if (pos > start) out.ranges.push({ start, end: pos });
    return out;
  } finally {
    await fh.close();
  }
}
