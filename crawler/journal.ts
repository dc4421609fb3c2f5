/**
 * Durable crawl state in OUT/: the crawl log (crawl.jsonl, one line per fetch), the frontier
 * journal (frontier.log, one line per URL queued), the summary counters (counters.log, one line
 * per step, compacted at checkpoints), the settings (crawl-settings.json) and strategy
 * checkpoints (strategy.json). Lines are buffered and written with writeSync at the end of each
 * processing step, links before the page that found them, so that after a SIGKILL every URL is
 * either logged as fetched or recoverable from the journal. Writes go out in chunks of at most
 * 1 MiB: no single string grows with the step (a page of 200,000 links is many small writes).
 */
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { OutFolderError } from '../lib/errors.ts';
import { INCOMPLETE, isWriteError, lockFolder, writeErrorText } from '../lib/out-folder.ts';
import { CrawlError } from './errors.ts';
import type { QueueEntry } from './frontier.ts';

export interface LogEntry {
  seq: number;
  /** ms since the crawl started (throughput mode only: the deterministic log is timing-free). */
  ms?: number;
  url: string;
  status: number | null;
  bytes: number;
  type: string;
  depth: number;
  parent: string | null;
  score: number;
  attempts: number;
  relevance?: number;
  error?: string;
  location?: string;
  truncated?: boolean;
  /** The parser stopped at maxParseTags: the page's later links were not read (summary linksCut). */
  linksCut?: boolean;
}

/** Bytes of buffered lines written at once (a string this long is cheap; one per step may not be). */
const CHUNK_CHARS = 1 << 20;

/** Writes all of `text` (a write may take only part of it, as on a disk that is filling up). */
function writeAll(fd: number, text: string): void {
  const b = Buffer.from(text, 'utf8');
  for (let at = 0; at < b.length; ) at += writeSync(fd, b, at, b.length - at);
}

class LineFile {
  private fd: number;
  private buf: string[] = [];
  private chars = 0;
  constructor(
    readonly path: string,
    append: boolean,
  ) {
    this.fd = openSync(path, append ? 'a' : 'w');
  }
  push(line: string): void {
    this.buf.push(line);
    this.chars += line.length + 1;
    if (this.chars >= CHUNK_CHARS) this.flush();
  }
  flush(): void {
    if (!this.buf.length) return;
    let start = 0;
    let chars = 0;
    for (let i = 0; i < this.buf.length; i++) {
      chars += this.buf[i].length + 1;
      if (chars >= CHUNK_CHARS || i === this.buf.length - 1) {
        writeAll(this.fd, `${this.buf.slice(start, i + 1).join('\n')}\n`);
        start = i + 1;
        chars = 0;
      }
    }
    this.buf = [];
    this.chars = 0;
  }
  /** Replaces the file's content with one line (atomically: a kill leaves the old or the new file). */
  replace(line: string): void {
    this.buf = [];
    this.chars = 0;
    closeSync(this.fd);
    writeFileSync(`${this.path}.tmp`, `${line}\n`);
    renameSync(`${this.path}.tmp`, this.path);
    this.fd = openSync(this.path, 'a');
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
  abandon(): void {
    this.buf = [];
    this.chars = 0;
    try {
      closeSync(this.fd);
    } catch {
      // closed already
    }
  }
}

/** Files of a crawl folder that a replaced crawl (--force) must not leave behind. */
const CRAWL_FILES = ['crawl-settings.json', 'summary.json', 'strategy.json', 'web.json', 'counters.log'];

/**
 * Refuses to replace a crawl `dir` holds unless asked: `resume` continues it, `force` replaces it
 * (a command checks this before it trains; the engine again when it claims the folder).
 */
export function checkCrawlFolder(dir: string, o: { resume?: boolean; force?: boolean }): void {
  if (o.resume || o.force || !existsSync(join(dir, 'crawl-settings.json'))) return;
  const ended = existsSync(join(dir, 'summary.json')) && !existsSync(join(dir, INCOMPLETE));
  throw new OutFolderError(
    'OUT_ERR_EXISTS',
    `${dir} holds a crawl that ${ended ? 'ended' : 'did not end'}: continue it with --resume ${dir}, ` +
      'replace it with --force, or choose another --out',
  );
}

/**
 * Takes a crawl folder for this run: its lock (a second run on it is refused, naming this
 * process), checkCrawlFolder, and the INCOMPLETE marker, which goes when the crawl's summary is
 * written (markComplete). Returns the lock's release.
 */
export function claimCrawlFolder(dir: string, o: { resume?: boolean; force?: boolean }): () => void {
  const release = lockCrawlFolder(dir);
  // the lock lets this process in again (a command, then its engine); two engines may not share
  const key = resolve(dir);
  if (engines.has(key)) {
    release();
    throw new OutFolderError('OUT_ERR_IN_USE', `${dir} is in use by another crawl of this process`);
  }
  try {
    checkCrawlFolder(dir, o);
    if (!o.resume && existsSync(join(dir, 'crawl-settings.json')))
      for (const f of CRAWL_FILES) rmSync(join(dir, f), { force: true }); // --force
    writeFileSync(
      join(dir, INCOMPLETE),
      `A crawl writing into this folder started at ${new Date().toISOString()} (process ${process.pid}) ` +
        `and has not ended: continue it with --resume ${dir}. The marker goes when its summary.json is written.\n`,
    );
  } catch (e) {
    release();
    throw isWriteError(e) ? writeFailure(dir, e) : e;
  }
  engines.add(key);
  return () => {
    engines.delete(key);
    release();
  };
}

/** Crawl folders an engine of this process writes into. */
const engines = new Set<string>();

/** A crawl folder's lock alone (a distributed crawl's top folder, a command before its checks). */
export const lockCrawlFolder = (dir: string): (() => void) =>
  lockFolder(
    dir,
    'crawl',
    (m) => new OutFolderError('OUT_ERR_IN_USE', m),
    (why) => new OutFolderError('OUT_ERR_IN_USE', `cannot write the crawl under ${dir}: ${why}`),
  );

/** The one line of a crawl whose folder could not be written. */
export const writeFailure = (dir: string, e: NodeJS.ErrnoException): OutFolderError =>
  new OutFolderError(
    'OUT_ERR_WRITE',
    `cannot write the crawl under ${dir}: ${writeErrorText(e)}; the folder keeps what was written ` +
      `(INCOMPLETE): free the space and continue with --resume ${dir}`,
    { cause: e },
  );

export class Journal {
  private readonly log: LineFile;
  private readonly frontier: LineFile;
  private readonly counterLog: LineFile;
  private lastCounters = '';
  constructor(
    readonly dir: string,
    resume: boolean,
  ) {
    mkdirSync(dir, { recursive: true });
    this.frontier = new LineFile(join(dir, 'frontier.log'), resume);
    this.counterLog = new LineFile(join(dir, 'counters.log'), resume);
    this.log = new LineFile(join(dir, 'crawl.jsonl'), resume);
  }
  /** The summary counters after the page numbered seq (written before that page's log line). */
  counters(seq: number, value: object): void {
    this.lastCounters = JSON.stringify({ seq, ...value });
    this.counterLog.push(this.lastCounters);
  }
  /** Keeps only the latest counters line (call after flush(), when it is the logged one). */
  compactCounters(): void {
    if (this.lastCounters) this.counterLog.replace(this.lastCounters);
  }
  queued(e: QueueEntry): void {
    this.frontier.push(`${e.seq}\t${e.score}\t${e.depth}\t${e.redirects}\t${e.parent}\t${e.url}`);
  }
  /** A queued URL dropped without a fetch (robots.txt, a skipped or capped host): not queued again on resume. */
  dropped(url: string): void {
    this.frontier.push(`D\t${url}`);
  }
  fetched(e: LogEntry): void {
    this.log.push(JSON.stringify(e));
  }
  /** Links first: a page is only logged once the URLs it led to (and the counters after it) are safe. */
  flush(): void {
    this.frontier.flush();
    this.counterLog.flush();
    this.log.flush();
  }
  close(): void {
    this.frontier.close();
    this.counterLog.close();
    this.log.close();
  }
  /** Closes the files, whatever a failed write left in their buffers (lost: those pages are fetched again on resume). */
  abandon(): void {
    for (const f of [this.frontier, this.counterLog, this.log]) f.abandon();
  }
  /** The crawl's summary is written: the folder no longer says INCOMPLETE. */
  markComplete(): void {
    rmSync(join(this.dir, INCOMPLETE), { force: true });
  }
  writeJson(name: string, value: unknown): void {
    const tmp = join(this.dir, `${name}.tmp`);
    writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
    renameSync(tmp, join(this.dir, name));
  }
}

export interface RecoveredState {
  settings: unknown;
  fetched: LogEntry[];
  queued: QueueEntry[];
  /** URLs dropped without a fetch (already counted). */
  dropped: Set<string>;
  /** Saved summary counters, each tagged with the seq of the last page of its step. */
  counters: ({ seq: number } & Record<string, unknown>)[];
  strategy: unknown;
}

/** Reads OUT/ back; a torn last line (the write the kill interrupted) is cut off. */
export function recover(dir: string): RecoveredState {
  const settingsFile = join(dir, 'crawl-settings.json');
  if (!existsSync(settingsFile))
    throw new CrawlError('CRAWL_ERR_RESUME', `${dir}: no crawl-settings.json, nothing to resume`);
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  const fetched: LogEntry[] = [];
  for (const line of readLines(join(dir, 'crawl.jsonl'))) fetched.push(JSON.parse(line) as LogEntry);
  const queued: QueueEntry[] = [];
  const dropped = new Set<string>();
  for (const line of readLines(join(dir, 'frontier.log'))) {
    if (line.startsWith('D\t')) {
      dropped.add(line.slice(2));
      continue;
    }
    const p = line.split('\t');
    if (p.length < 6) continue;
    queued.push({
      seq: Number(p[0]),
      score: Number(p[1]),
      depth: Number(p[2]),
      redirects: Number(p[3]),
      parent: Number(p[4]),
      url: p.slice(5).join('\t'),
      host: '',
    });
  }
  const counters: RecoveredState['counters'] = [];
  for (const line of readLines(join(dir, 'counters.log'))) {
    try {
      counters.push(JSON.parse(line));
    } catch {
      break;
    }
  }
  const sfile = join(dir, 'strategy.json');
  const strategy = existsSync(sfile) ? JSON.parse(readFileSync(sfile, 'utf8')) : undefined;
  return { settings, fetched, queued, dropped, counters, strategy };
}

/** Bytes read at a time by readLines: a journal of any size is read in pieces, never as one string. */
const READ_CHUNK = 16 * 2 ** 20;

/**
 * Complete lines of a file; a partial last line is removed from the file itself. The file is read
 * in chunks and split on newline bytes (UTF-8 never has 0x0A inside a character), so a journal
 * larger than the longest string V8 can hold (512 MiB) reads back like a small one.
 */
export function readLines(file: string, chunk = READ_CHUNK): string[] {
  if (!existsSync(file)) return [];
  const fd = openSync(file, 'r+');
  const lines: string[] = [];
  let end = 0; // bytes up to the last complete line
  try {
    const buf = Buffer.allocUnsafe(chunk);
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let pos = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, chunk, pos);
      if (n === 0) break;
      let from = 0;
      for (let nl = buf.indexOf(10, 0); nl >= 0 && nl < n; nl = buf.indexOf(10, from)) {
        const piece = buf.subarray(from, nl);
        const line = carryBytes ? Buffer.concat([...carry, piece], carryBytes + piece.length) : piece;
        if (line.length) lines.push(line.toString('utf8'));
        carry = [];
        carryBytes = 0;
        from = nl + 1;
        end = pos + from;
      }
      if (from < n) {
        carry.push(Buffer.from(buf.subarray(from, n)));
        carryBytes += n - from;
      }
      pos += n;
    }
    if (end < pos) ftruncateSync(fd, end);
  } finally {
    closeSync(fd);
  }
  // a JSON line can also be torn inside (a partial write followed by nothing): keep the valid prefix
  if (file.endsWith('.jsonl')) {
    let ok = 0;
    for (const l of lines) {
      try {
        JSON.parse(l);
      } catch {
        break;
      }
      ok++;
    }
    lines.length = ok;
  }
  return lines;
}
