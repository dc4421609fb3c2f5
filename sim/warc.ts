/**
 * Web archives (WARC, ISO 28500) as a web: an index of every archived response (URL -> file,
 * offset, length) built by streaming the files once with warcio, so memory grows with the
 * number of URLs, not the archive's size; records are read back from disk on demand. Revisit
 * records are served with their own status and headers and the payload of the response they
 * refer to. Gzipped (one member per record) and plain WARCs both work.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { WARCParser } from 'warcio';

export interface ArchivedEntry {
  file: number;
  offset: number;
  length: number;
  type: 'response' | 'revisit' | 'resource';
  status: number;
  date: string;
  /** For revisits: key (uri + ' ' + date) of the response they refer to, or the uri alone. */
  refersTo?: string;
}

export interface ArchivedResponse {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** The lookup key of a URL: scheme and host lower-case, default port and fragment dropped. */
export function archiveKey(url: string): string | null {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

// headers that described the archived transfer, not the payload we serve
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive']);

export class WarcArchive {
  private readonly byUrl = new Map<string, ArchivedEntry>();
  private readonly byUrlDate = new Map<string, ArchivedEntry>();
  records = 0;

  private constructor(readonly files: readonly string[]) {}

  static async open(files: readonly string[]): Promise<WarcArchive> {
    const a = new WarcArchive(files);
    for (let f = 0; f < files.length; f++) await a.indexFile(f);
    return a;
  }

  private async indexFile(f: number): Promise<void> {
    const parser = new WARCParser(createReadStream(this.files[f]));
    for await (const record of parser) {
      const type = record.warcType;
      const uri = record.warcTargetURI;
      await record.skipFully();
      this.records++;
      if (!uri || (type !== 'response' && type !== 'revisit' && type !== 'resource')) continue;
      const key = archiveKey(uri);
      if (!key) continue;
      const date = record.warcDate ?? '';
      const info = record.getResponseInfo();
      const status = type === 'resource' ? 200 : Number(info?.status ?? 200);
      const entry: ArchivedEntry = { file: f, offset: parser.offset, length: parser.recordLength, type, status, date };
      if (type === 'revisit') {
        const ref = record.warcRefersToTargetURI ?? uri;
        const refDate = record.warcRefersToDate;
        entry.refersTo = refDate ? `${archiveKey(ref)} ${refDate}` : archiveKey(ref) ?? undefined;
      } else {
        this.byUrlDate.set(`${key} ${date}`, entry);
      }
      // the latest capture of a URL wins
      const prev = this.byUrl.get(key);
      if (!prev || prev.date <= date) this.byUrl.set(key, entry);
    }
  }

  get size(): number {
    return this.byUrl.size;
  }

  lookup(url: string): ArchivedEntry | undefined {
    const key = archiveKey(url);
    return key ? this.byUrl.get(key) : undefined;
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
    if (info) for (const [k, v] of info.headers as Iterable<[string, string]>) if (!HOP_HEADERS.has(k.toLowerCase())) headers.push([k, v]);
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
    if (e.type === 'revisit') {
      const orig = e.refersTo ? this.byUrlDate.get(e.refersTo) ?? this.byUrl.get(e.refersTo.split(' ')[0]) : undefined;
      if (orig && orig.type !== 'revisit') r.body = (await this.readRecord(orig)).body;
    }
    return r;
  }
}
