/**
 * WARC output: every fetch of a crawl (robots.txt included) as a request record and a response
 * record (WARC/1.1, WARC-Date, WARC-Target-URI, payload and block digests, WARC-Concurrent-To),
 * serialised with warcio (lib/warc-records.ts), one gzip member per record when the file name ends in
 * .gz. Records are appended in crawl order through a promise chain; close() waits for the last one.
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { WARCRecord } from 'warcio';
import { serializeRecord } from '../lib/warc-records.ts';
import { CRAWL_END_URI, type CrawlEnd } from '../lib/crawl-end.ts';
import type { FetchResult } from './fetcher.ts';

export interface WarcSink {
  record(url: string, res: FetchResult, requestHeaders: Record<string, string>): void;
  /** Waits for the last record; `end`, when given, is appended first as how the crawl ended (lib/crawl-end.ts). */
  close(end?: CrawlEnd): Promise<void>;
}

export class WarcWriter implements WarcSink {
  private chain: Promise<void> = Promise.resolve();
  private readonly gzip: boolean;
  private failed: Error | null = null;
  /** Open for appending until close(): a file opened and closed per record cost two system calls more each. */
  private fd: number | null = null;

  constructor(
    readonly file: string,
    opts: { append?: boolean; software?: string } = {},
  ) {
    this.gzip = file.endsWith('.gz');
    if (!opts.append) writeFileSync(file, '');
    this.fd = openSync(file, 'a');
    if (!opts.append) {
      const info = WARCRecord.createWARCInfo(
        { filename: file.split('/').pop(), warcVersion: 'WARC/1.1' },
        { software: opts.software ?? 'crawler-harness', format: 'WARC File Format 1.1' },
      );
      this.enqueue(info);
    }
  }

  private enqueue(record: WARCRecord, payload: readonly Uint8Array[] = []): void {
    this.chain = this.chain.then(async () => {
      if (this.failed || this.fd === null) return;
      try {
        const bytes = await serializeRecord(record, payload, this.gzip);
        // writeSync may write less than asked (appendFileSync looped for us)
        for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
      } catch (e) {
        this.failed = e as Error;
      }
    });
  }

  record(url: string, res: FetchResult, requestHeaders: Record<string, string>): void {
    const date = new Date().toISOString();
    const u = new URL(url);
    const payload = [new Uint8Array(res.body.buffer, res.body.byteOffset, res.body.byteLength)];
    const response = WARCRecord.create(
      {
        url,
        date,
        type: 'response',
        warcVersion: 'WARC/1.1',
        statusline: `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trim(),
        httpHeaders: res.headers,
      },
      payload,
    );
    const request = WARCRecord.create(
      {
        url,
        date,
        type: 'request',
        warcVersion: 'WARC/1.1',
        statusline: `GET ${u.pathname}${u.search} HTTP/1.1`,
        httpHeaders: { host: u.host, ...requestHeaders },
      },
      [],
    );
    const id = response.warcHeader('WARC-Record-ID');
    if (id) request.warcHeaders.headers.set('WARC-Concurrent-To', id);
    this.enqueue(request);
    this.enqueue(response, payload);
  }

  async close(end?: CrawlEnd): Promise<void> {
    if (end) {
      // how the crawl ended, for whoever reads the archive (sim:fit warns of a crawl cut short)
      const body = new TextEncoder().encode(`${JSON.stringify(end)}\n`);
      const record = WARCRecord.create(
        {
          url: CRAWL_END_URI,
          date: new Date().toISOString(),
          type: 'metadata',
          warcVersion: 'WARC/1.1',
          warcHeaders: { 'Content-Type': 'application/json' },
        },
        [body],
      );
      this.enqueue(record, [body]);
    }
    await this.chain;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    if (this.failed) throw this.failed;
  }
}
