/**
 * Durable crawl state in OUT/: the crawl log (crawl.jsonl, one line per fetch), the frontier
 * journal (frontier.log, one line per URL queued), the settings (crawl-settings.json) and
 * strategy checkpoints (strategy.json). Lines are buffered and written with writeSync at the
 * end of each processing step, links before the page that found them, so that after a SIGKILL
 * every URL is either logged as fetched or recoverable from the journal.
 */
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
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
}

class LineFile {
  private fd: number;
  private buf: string[] = [];
  constructor(path: string, append: boolean) {
    this.fd = openSync(path, append ? 'a' : 'w');
  }
  push(line: string): void { this.buf.push(line); }
  flush(): void {
    if (!this.buf.length) return;
    writeSync(this.fd, this.buf.join('\n') + '\n');
    this.buf = [];
  }
  close(): void { this.flush(); closeSync(this.fd); }
}

export class Journal {
  private readonly log: LineFile;
  private readonly frontier: LineFile;
  constructor(readonly dir: string, resume: boolean) {
    mkdirSync(dir, { recursive: true });
    this.frontier = new LineFile(join(dir, 'frontier.log'), resume);
    this.log = new LineFile(join(dir, 'crawl.jsonl'), resume);
  }
  queued(e: QueueEntry): void {
    this.frontier.push(`${e.seq}\t${e.score}\t${e.depth}\t${e.redirects}\t${e.parent}\t${e.url}`);
  }
  fetched(e: LogEntry): void {
    this.log.push(JSON.stringify(e));
  }
  /** Links first: a page is only logged once the URLs it led to are safe. */
  flush(): void {
    this.frontier.flush();
    this.log.flush();
  }
  close(): void {
    this.frontier.close();
    this.log.close();
  }
  writeJson(name: string, value: unknown): void {
    const tmp = join(this.dir, `${name}.tmp`);
    writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
    renameSync(tmp, join(this.dir, name));
  }
}

export interface RecoveredState {
  settings: unknown;
  fetched: LogEntry[];
  queued: QueueEntry[];
  strategy: unknown;
}

/** Reads OUT/ back; a torn last line (the write the kill interrupted) is cut off. */
export function recover(dir: string): RecoveredState {
  const settingsFile = join(dir, 'crawl-settings.json');
  if (!existsSync(settingsFile)) throw new CrawlError('CRAWL_ERR_RESUME', `${dir}: no crawl-settings.json, nothing to resume`);
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8'));
  const fetched: LogEntry[] = [];
  for (const line of readLines(join(dir, 'crawl.jsonl'))) fetched.push(JSON.parse(line) as LogEntry);
  const queued: QueueEntry[] = [];
  for (const line of readLines(join(dir, 'frontier.log'))) {
    const p = line.split('\t');
    if (p.length < 6) continue;
    queued.push({ seq: Number(p[0]), score: Number(p[1]), depth: Number(p[2]), redirects: Number(p[3]), parent: Number(p[4]), url: p.slice(5).join('\t'), host: '' });
  }
  const sfile = join(dir, 'strategy.json');
  const strategy = existsSync(sfile) ? JSON.parse(readFileSync(sfile, 'utf8')) : undefined;
  return { settings, fetched, queued, strategy };
}

/** Complete lines of a file; a partial last line is removed from the file itself. */
function readLines(file: string): string[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) {
    const fd = openSync(file, 'r+');
    ftruncateSync(fd, Buffer.byteLength(text.slice(0, end)));
    closeSync(fd);
  }
  const lines = text.slice(0, end).split('\n').filter((l) => l.length);
  // a JSON line can also be torn inside (a partial write followed by nothing): keep the valid prefix
  if (file.endsWith('.jsonl')) {
    const ok: string[] = [];
    for (const l of lines) {
      try { JSON.parse(l); ok.push(l); } catch { break; }
    }
    return ok;
  }
  return lines;
}
