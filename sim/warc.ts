/**
 * Web archives (WARC, ISO 28500) as a web: an index of every archived response (URL -> file,
 * offset, length) built by streaming the files once with warcio, so memory grows with the
 * number of URLs, not the archive's size; records are read back from disk on demand. Revisit
 * records are served with their own status and headers and the payload of the response they
 * refer to. Gzipped (one member per record) and plain WARCs both work.
 */
import { resource } from '../lib/paths.ts';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { WARCParser } from 'warcio';
import { grown } from '../lib/typed.ts';

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

export class WarcArchive {
  private readonly c = new Columns();
  /** URL key -> index of its latest capture. */
  private readonly byUrl = new Map<string, number>();
  /** Earlier captures of URLs captured more than once (rare), for revisits that refer to them. */
  private readonly older = new Map<string, number[]>();
  private readonly pendingRefs: { i: number; key: string; date: number }[] = [];
  records = 0;

  private constructor(readonly files: readonly string[]) {}

  static async open(files: readonly string[]): Promise<WarcArchive> {
    const a = new WarcArchive(files.map(resource));
    for (let f = 0; f < files.length; f++) await a.indexFile(f);
    a.resolveRefs();
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
      const c = this.c;
      const i = c.push();
      c.file[i] = f;
      c.offset[i] = parser.offset;
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
