/**
 * Turns a folder of saved pages into a WARC plus a labels CSV, so an existing labelled corpus
 * (WebKB, a site mirror) can be replayed as the experiment's web.
 *
 * Where a page's URL comes from, in order: manifest.csv in the folder (columns file,url, and
 * optionally label and any others, copied to the labels CSV); else the file name, when it is a
 * URL with "^" or "%2F" for "/" (WebKB's convention); else the path, first directory = host.
 * A file may start with an HTTP header block ("HTTP/1.1 200 OK", headers, blank line); without
 * one, status 200 and a content type from the extension are assumed. Labels without a manifest:
 * --label-from dir takes the first directory of the path (WebKB's class folders).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { WARCRecord, WARCSerializer } from 'warcio';
import { appendFileSync, writeFileSync } from 'node:fs';

export interface ConvertOptions {
  labelFrom?: 'manifest' | 'dir' | 'none';
  /** WARC-Date of every record (files carry no capture date); default 2000-01-01. */
  date?: string;
}

export interface ConvertResult {
  records: number;
  labelled: number;
  skipped: { file: string; reason: string }[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html', '.htm': 'text/html', '.pdf': 'application/pdf', '.ps': 'application/postscript', '.txt': 'text/plain', '.xml': 'application/xml', '.jpg': 'image/jpeg', '.png': 'image/png',
};

function walk(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Splits an optional "HTTP/1.x NNN" header block off the top of a saved file. */
export function splitHeaderBlock(buf: Buffer): { status: number; headers: [string, string][]; body: Buffer } | null {
  if (!buf.subarray(0, 8).toString('latin1').startsWith('HTTP/')) return null;
  const text = buf.subarray(0, Math.min(buf.length, 65536)).toString('latin1');
  const m = /\r?\n\r?\n/.exec(text);
  if (!m) return null;
  const lines = text.slice(0, m.index).split(/\r?\n/);
  const status = Number(/^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(lines[0])?.[1] ?? NaN);
  if (!Number.isInteger(status)) return null;
  const headers: [string, string][] = [];
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i > 0) headers.push([l.slice(0, i).trim(), l.slice(i + 1).trim()]);
  }
  return { status, headers, body: buf.subarray(m.index + m[0].length) };
}

function urlFromName(rel: string): string | null {
  const name = rel.split(sep).pop()!;
  const decoded = name.includes('^') ? name.replace(/\^/g, '/') : /%2f/i.test(name) ? decodeURIComponent(name) : null;
  if (decoded && /^https?:\/\//i.test(decoded)) return decoded;
  if (decoded && /^https?:\//i.test(decoded)) return decoded.replace(/^(https?):\/(?!\/)/i, '$1://');
  const parts = rel.split(sep);
  if (parts.length < 2) return null;
  return `http://${parts[0]}/${parts.slice(1).join('/')}`;
}

export async function convertFolder(dir: string, warcFile: string, labelsFile: string, opts: ConvertOptions = {}): Promise<ConvertResult> {
  const date = opts.date ?? '2000-01-01T00:00:00Z';
  const manifestFile = join(dir, 'manifest.csv');
  let manifest: Map<string, Record<string, string>> | null = null;
  try {
    const rows = parse(readFileSync(manifestFile), { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
    manifest = new Map(rows.map((r) => [r.file, r]));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${manifestFile}: ${(e as Error).message}`);
  }
  const gzip = warcFile.endsWith('.gz');
  writeFileSync(warcFile, await WARCSerializer.serialize(WARCRecord.createWARCInfo({ filename: warcFile.split('/').pop(), warcVersion: 'WARC/1.1' }, { software: 'crawler-harness warc:convert', source: dir }), { gzip }));
  const labels: Record<string, string>[] = [];
  const result: ConvertResult = { records: 0, labelled: 0, skipped: [] };
  const extra = manifest ? [...new Set([...manifest.values()].flatMap((r) => Object.keys(r)))].filter((k) => k !== 'file' && k !== 'url') : [];
  for (const path of walk(dir)) {
    const rel = relative(dir, path);
    if (rel === 'manifest.csv') continue;
    const row = manifest?.get(rel.split(sep).join('/'));
    if (manifest && !row) { result.skipped.push({ file: rel, reason: 'not in manifest.csv' }); continue; }
    const url = row?.url ?? urlFromName(rel);
    let parsed: URL;
    try {
      parsed = new URL(url ?? '');
    } catch {
      result.skipped.push({ file: rel, reason: `no URL (${url ?? 'none'})` });
      continue;
    }
    const buf = readFileSync(path);
    const block = splitHeaderBlock(buf);
    const headers: [string, string][] = block?.headers ?? [['Content-Type', TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream']];
    const status = block?.status ?? 200;
    const body = block?.body ?? buf;
    const record = WARCRecord.create(
      { url: parsed.href, date, type: 'response', warcVersion: 'WARC/1.1', statusline: `HTTP/1.1 ${status} ${status === 200 ? 'OK' : ''}`.trim(), httpHeaders: headers.filter(([k]) => !/^(content-length|transfer-encoding|content-encoding)$/i.test(k)) },
      [new Uint8Array(body.buffer, body.byteOffset, body.byteLength)],
    );
    appendFileSync(warcFile, await WARCSerializer.serialize(record, { gzip }));
    result.records++;
    const label = opts.labelFrom === 'dir' ? rel.split(sep)[0] : row?.label;
    if (label !== undefined && label !== '') {
      labels.push({ url: parsed.href, label, ...Object.fromEntries(extra.filter((k) => k !== 'label').map((k) => [k, row?.[k] ?? ''])) });
      result.labelled++;
    }
  }
  writeFileSync(labelsFile, stringify(labels, { header: true, columns: ['url', 'label', ...extra.filter((k) => k !== 'label')] }));
  return result;
}

/** Reads a labels CSV (url,label,...): normalised URL -> label. */
export function readLabels(file: string): Map<string, string> {
  const rows = parse(readFileSync(file), { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const out = new Map<string, string>();
  for (const r of rows) {
    if (!r.url) continue;
    try {
      const u = new URL(r.url);
      u.hash = '';
      out.set(u.href, r.label ?? '');
    } catch {
      // a bad URL in the labels cannot match any page: skipped
    }
  }
  return out;
}
