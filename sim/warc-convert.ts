/**
 * Turns a folder of saved pages into a WARC plus a labels CSV, so an existing labelled corpus
 * (WebKB, the "4 universities" data, a site mirror) can be replayed as the experiment's web.
 *
 * Where a page's URL comes from, in order: a manifest (FOLDER/manifest.csv, or --manifest FILE
 * anywhere, its paths relative to itself; columns file,url and optionally label, content_type and
 * any others, copied to the labels CSV); else the file name, when it is a URL with "^" or "%2F"
 * for "/" (WebKB's convention; U+F03A stands for ":" as Windows tools write it, and a stray
 * U+F00D at the end of a name is dropped); else the path, first directory = host.
 *
 * A file may start with a header block: an HTTP one ("HTTP/1.1 200 OK", headers, blank line), or
 * a MIME one without a status line ("MIME-Version:", "Date:", "Server:", "Content-Type:" ...,
 * blank line), as the 4 universities files do: then the status is 200 and the block's headers
 * are kept. Without a block: status 200 and a content type from the manifest's content_type,
 * else the extension, else --default-type. Labels without a manifest: --label-from dir takes
 * the first directory of the path (the class folders of WebKB and of <label>/<site>/<file>).
 *
 * Duplicate URLs (one page saved twice): a specific label wins over the generic one ("other"),
 * else the first file in path order; the others are counted and skipped, conflicting labels
 * listed. Names of other schemes (ftp:, file:) are skipped with their reason: no HTTP crawler
 * fetches them. URLs that look wrong (a host without
 * a dot, percent-encoded private-use characters left by a name the rules above did not decode)
 * are warned about; the CLI's --strict turns them into an error.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { WARCRecord, WARCSerializer } from 'warcio';
import { serializeRecord } from '../lib/warc-records.ts';
import { appendFileSync, writeFileSync } from 'node:fs';

export interface ConvertOptions {
  labelFrom?: 'manifest' | 'dir' | 'none';
  /** A manifest anywhere (paths in it relative to its folder); default FOLDER/manifest.csv if present. */
  manifest?: string;
  /** Content type of a file without a header block, a manifest type or a known extension. */
  defaultType?: string;
  /** WARC-Date of every record; default: a file's saved Date header, else 2000-01-01. */
  date?: string;
  /** The warcinfo record's date (default: now) and source (default: the folder). */
  info?: { date?: string; source?: string };
  /** The label a duplicate gives way to when its other copy has a specific one (default "other"). */
  genericLabel?: string;
}

export interface ConvertResult {
  records: number;
  /** Files that are a saved redirect (a status line or "WWW Alert: Redirection"), written as 3xx records. */
  redirects: number;
  labelled: number;
  skipped: { file: string; reason: string }[];
  /** Files whose URL an earlier file already had. */
  duplicates: number;
  /** Duplicates whose label differs from the kept one (every one; print the first few). */
  conflicts: { url: string; kept: string; file: string; label: string }[];
  /** URLs that look wrong: a host without a dot, or percent-encoded private-use characters. */
  suspicious: { file: string; url: string; reason: string }[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.ps': 'application/postscript',
  '.txt': 'text/plain',
  '.xml': 'application/xml',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
};

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
}

/** Headers that mark a MIME header block without a status line (the 4 universities files). */
const MIME_HEADERS =
  /^(mime-version|content-type|date|server|last-modified|content-length|etag|accept-ranges|connection)$/i;

/**
 * The first line of a redirect that a 1990s client saved instead of following it (WebKB holds 78:
 * "WWW Alert:  Redirection response from server is not handled by this client", then the
 * server's headers with Location, then its "Document moved" page).
 */
const SAVED_REDIRECT = /^WWW Alert:[ \t]*Redirection response[^\r\n]*\r?\n/i;

/**
 * Splits a header block off the top of a saved file: "HTTP/1.x NNN" and headers, MIME headers
 * with no status line (status 200), or a saved redirect (status 301 when its page says the
 * document moved permanently, else 302). Null when the file starts with none of them.
 */
export function splitHeaderBlock(buf: Buffer): { status: number; headers: [string, string][]; body: Buffer } | null {
  const first = buf.subarray(0, Math.min(buf.length, 256)).toString('latin1');
  const alert = SAVED_REDIRECT.exec(first);
  if (alert) {
    const rest = splitHeaderBlock(buf.subarray(alert[0].length));
    if (!rest?.headers.some(([k]) => k.toLowerCase() === 'location')) return null;
    const permanent = /permanently/i.test(rest.body.subarray(0, 4096).toString('latin1'));
    return { ...rest, status: permanent ? 301 : 302 };
  }
  const head = buf.subarray(0, Math.min(buf.length, 65536)).toString('latin1');
  const http = head.startsWith('HTTP/');
  if (!http && !/^[A-Za-z][\w-]*:[ \t]/.test(head)) return null;
  const m = /\r?\n\r?\n/.exec(head);
  if (!m) return null;
  const lines = head.slice(0, m.index).split(/\r?\n/);
  let status = 200;
  if (http) {
    status = Number(/^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(lines[0])?.[1] ?? NaN);
    if (!Number.isInteger(status)) return null;
  }
  const headers: [string, string][] = [];
  for (const l of lines.slice(http ? 1 : 0)) {
    const i = l.indexOf(':');
    if (i > 0) headers.push([l.slice(0, i).trim(), l.slice(i + 1).trim()]);
    // a line with no field name (": text/html") is malformed: dropped, the block's good lines kept
    // (the whole block once went, and a course page with 7 papers was served as octet-stream)
    else if (i === 0) continue;
    else if (!http && l.trim()) return null; // not a header block: a body that starts with "word: "
  }
  if (!http && !headers.some(([k]) => MIME_HEADERS.test(k))) return null;
  return { status, headers, body: buf.subarray(m.index + m[0].length) };
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 301: 'Moved Permanently', 302: 'Found' };

/** A name-based UUID (RFC 9562 version 8 layout) from the record's URL, date and payload. */
function recordId(url: string, date: string, body: Buffer): string {
  const h = createHash('sha256').update(url).update('\u0000').update(date).update('\u0000').update(body).digest('hex');
  const v = (parseInt(h[16], 16) & 0x3) | 0x8;
  return `<urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${v.toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}>`;
}

function urlFromName(rel: string): string | null {
  // U+F03A is ":" as Windows tools store it; a stray U+F00D ends some names
  const name = rel
    .split(sep)
    .pop()!
    .replace(/\uF03A/g, ':')
    .replace(/\uF00D+$/, '');
  const decoded = name.includes('^') ? name.replace(/\^/g, '/') : /%2f/i.test(name) ? decodeURIComponent(name) : null;
  if (decoded && /^https?:\/\//i.test(decoded)) return decoded;
  // ftp and file names (WebKB has 46 and 6): their real scheme, so that they are skipped, not made http
  // (the colon stored as U+F03A, or lost)
  const other = decoded && /^(ftp|file|gopher|news):?\/\/?(.*)$/i.exec(decoded);
  if (other) return `${other[1].toLowerCase()}://${other[2]}`;
  if (decoded && /^https?:\//i.test(decoded)) return decoded.replace(/^(https?):\/(?!\/)/i, '$1://');
  const parts = rel.split(sep);
  if (parts.length < 2) return null;
  return `http://${parts[0]}/${parts.slice(1).join('/')}`;
}

/** Why a URL looks wrong, or null. */
function suspiciousUrl(u: URL): string | null {
  if (!u.hostname.includes('.') && u.hostname !== 'localhost') return `host "${u.hostname}" has no dot`;
  if (/%EF%80%[89AB][0-9A-F]/i.test(u.href)) return 'percent-encoded private-use characters (an undecoded U+F0xx)';
  return null;
}

/**
 * The manifest's rows by the absolute path of their file; null when there is none (a missing
 * manifest that was named is an error, one by the default name is not).
 */
function readManifest(file: string, dir: string, named: boolean): Map<string, Record<string, string>> | null {
  try {
    const rows = parse(readFileSync(file), { columns: true, skip_empty_lines: true, trim: true }) as Record<
      string,
      string
    >[];
    return new Map(rows.map((r) => [resolve(dir, r.file), r]));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || named) throw new Error(`${file}: ${(e as Error).message}`);
    return null;
  }
}

/**
 * One file per URL: a specific label beats the generic one (a project page also filed under
 * "other" is a project page), else the first file in path order wins; the others are counted as
 * duplicates, and those whose label differs reported as conflicts.
 */
function keepOnePerUrl<E extends { url: URL; label: string | undefined; rel: string }>(
  entries: readonly E[],
  generic: string,
  result: ConvertResult,
): Map<string, E> {
  const keep = new Map<string, E>();
  for (const e of entries) {
    const k = keep.get(e.url.href);
    if (!k) keep.set(e.url.href, e);
    else if ((k.label ?? '') === generic && e.label && e.label !== generic) keep.set(e.url.href, e);
  }
  for (const e of entries) {
    const k = keep.get(e.url.href)!;
    if (k === e) continue;
    result.duplicates++;
    if ((e.label ?? '') !== (k.label ?? ''))
      result.conflicts.push({ url: e.url.href, kept: k.label ?? '', file: e.rel, label: e.label ?? '' });
  }
  return keep;
}

/** The archive's warcinfo record: file name, the converter, the source; an id from them when dated. */
async function warcInfo(warcFile: string, dir: string, opts: ConvertOptions, gzip: boolean): Promise<Uint8Array> {
  return WARCSerializer.serialize(
    WARCRecord.createWARCInfo(
      {
        filename: warcFile.split('/').pop(),
        warcVersion: 'WARC/1.1',
        date: opts.info?.date,
        ...(opts.info?.date
          ? {
              warcHeaders: {
                'WARC-Record-ID': recordId(basename(warcFile), opts.info.date, Buffer.from(opts.info.source ?? '')),
              },
            }
          : {}),
      },
      { software: 'crawler-harness warc:convert', source: opts.info?.source ?? dir },
    ),
    { gzip },
  );
}

export async function convertFolder(
  dir: string,
  warcFile: string,
  labelsFile: string,
  opts: ConvertOptions = {},
): Promise<ConvertResult> {
  const manifestFile = opts.manifest ?? join(dir, 'manifest.csv');
  const manifestDir = opts.manifest ? dirname(resolve(opts.manifest)) : resolve(dir);
  const manifest = readManifest(manifestFile, manifestDir, !!opts.manifest);
  const gzip = warcFile.endsWith('.gz');
  writeFileSync(warcFile, await warcInfo(warcFile, dir, opts, gzip));
  const labels: Record<string, string>[] = [];
  const result: ConvertResult = {
    records: 0,
    redirects: 0,
    labelled: 0,
    skipped: [],
    duplicates: 0,
    conflicts: [],
    suspicious: [],
  };
  const extra = manifest
    ? [...new Set([...manifest.values()].flatMap((r) => Object.keys(r)))].filter(
        (k) => !['file', 'url', 'content_type'].includes(k),
      )
    : [];
  // first pass: every file's URL and label, so that a duplicate's kept label follows the rule below
  const entries = folderEntries(dir, manifest, manifestFile, opts, result);
  const keep = keepOnePerUrl(entries, opts.genericLabel ?? 'other', result);
  for (const e of entries) {
    if (keep.get(e.url.href) !== e) continue;
    const { url: parsed, label, row } = e;
    const why = suspiciousUrl(parsed);
    if (why) result.suspicious.push({ file: e.rel, url: parsed.href, reason: why });
    const { bytes, status } = await responseRecord(e, opts, gzip);
    appendFileSync(warcFile, bytes);
    result.records++;
    if (status >= 300 && status < 400) result.redirects++;
    if (label !== undefined && label !== '') {
      labels.push({
        url: parsed.href,
        label,
        ...Object.fromEntries(extra.filter((k) => k !== 'label').map((k) => [k, row?.[k] ?? ''])),
      });
      result.labelled++;
    }
  }
  writeFileSync(
    labelsFile,
    stringify(labels, { header: true, columns: ['url', 'label', ...extra.filter((k) => k !== 'label')] }),
  );
  return result;
}

/** A file of the folder to convert: where it is, the URL it was saved from, its label and manifest row. */
interface FolderEntry {
  path: string;
  rel: string;
  url: URL;
  label: string | undefined;
  row?: Record<string, string>;
}

/** Every file of the folder with an HTTP(S) URL (from the manifest or its name); the others skipped, each with why. */
function folderEntries(
  dir: string,
  manifest: ReturnType<typeof readManifest>,
  manifestFile: string,
  opts: ConvertOptions,
  result: ConvertResult,
): FolderEntry[] {
  const entries: FolderEntry[] = [];
  for (const path of walk(dir)) {
    const rel = relative(dir, path);
    if (resolve(path) === resolve(manifestFile)) continue;
    const row = manifest?.get(resolve(path));
    if (manifest && !row) {
      result.skipped.push({ file: rel, reason: `not in ${basename(manifestFile)}` });
      continue;
    }
    const url = row?.url ?? urlFromName(rel);
    let parsed: URL;
    try {
      parsed = new URL(url ?? '');
    } catch {
      result.skipped.push({ file: rel, reason: `no URL (${url ?? 'none'})` });
      continue;
    }
    // an ftp: or file: name is a real URL of another scheme: nothing an HTTP crawler can fetch
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      result.skipped.push({
        file: rel,
        reason: `${parsed.protocol.slice(0, -1)} URL, not served over HTTP (${parsed.href})`,
      });
      continue;
    }
    entries.push({ path, rel, url: parsed, label: opts.labelFrom === 'dir' ? rel.split(sep)[0] : row?.label, row });
  }
  return entries;
}

/** A file as a WARC response record: its saved headers and status if it has them, else a 200 of its type. */
async function responseRecord(
  e: FolderEntry,
  opts: ConvertOptions,
  gzip: boolean,
): Promise<{ bytes: Uint8Array; status: number }> {
  const { path, url: parsed, row } = e;
  const buf = readFileSync(path);
  const block = splitHeaderBlock(buf);
  const type =
    row?.content_type ||
    TYPES[extname(path.replace(/\uF00D+$/, '')).toLowerCase()] ||
    opts.defaultType ||
    'application/octet-stream';
  const headers: [string, string][] = block?.headers ?? [['Content-Type', type]];
  const status = block?.status ?? 200;
  const body = block?.body ?? buf;
  const payload = [new Uint8Array(body.buffer, body.byteOffset, body.byteLength)];
  // the capture date: the saved Date header when the file has one, else the stated date
  const saved = Date.parse(headers.find(([k]) => k.toLowerCase() === 'date')?.[1] ?? '');
  const date = opts.date ?? '2000-01-01T00:00:00Z';
  const when = opts.date === undefined && Number.isFinite(saved) ? new Date(saved).toISOString() : date;
  const record = WARCRecord.create(
    {
      url: parsed.href,
      date: when,
      // a record's id from its content, so the same folder gives the same WARC bytes
      warcHeaders: { 'WARC-Record-ID': recordId(parsed.href, when, body) },
      type: 'response',
      warcVersion: 'WARC/1.1',
      statusline: `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}`.trim(),
      httpHeaders: headers.filter(([k]) => !/^(content-length|transfer-encoding|content-encoding)$/i.test(k)),
    },
    payload,
  );
  return { bytes: await serializeRecord(record, payload, gzip), status };
}
