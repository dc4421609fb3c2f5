/**
 * The downloader: one HTTP request on undici (a redirect is a result: the engine queues its
 * target, robots.txt and the form client follow it hop by hop through the gate), with header and
 * body idle timeouts, a total deadline per response (a body that drips a byte at a time beats
 * the idle timeouts but not the deadline), a body size cap (the body is cut and marked
 * truncated), and the pieces the engine needs for politeness (latency, Retry-After). Retries and per-host timing live in the
 * engine, so that every retry passes through the host's politeness gate.
 */
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { request, type Dispatcher } from 'undici';
import { CrawlError, toCrawlError } from './errors.ts';

export interface FetchOptions {
  userAgent: string;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Total time for one response, headers and body: past it the request is aborted (CRAWL_ERR_DEADLINE). */
  maxResponseMs: number;
  maxBodyBytes: number;
  /** Sent with every request (e.g. x-crawler-region). */
  headers?: Record<string, string>;
}

export interface FetchResult {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** Time to response headers, ms. */
  latencyMs: number;
  /** performance.now() when the response headers arrived (the server had read the request by then). */
  headersAt: number;
  /** Retry-After in ms when the response had one (seconds or an HTTP date). */
  retryAfterMs?: number;
}

function headerMap(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  if (out.location) out.location = utf8Header(out.location);
  return out;
}

/**
 * A header value as its bytes say: undici reads header bytes as Latin-1, so a Location written in
 * raw UTF-8 (as browsers read it) came out as mojibake; bytes that are not valid UTF-8 stay Latin-1.
 */
function utf8Header(v: string): string {
  if (!/[\u0080-\u00ff]/.test(v)) return v;
  const bytes = Buffer.from(v, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : v;
}

function parseRetryAfter(v: string | undefined, now = Date.now()): number | undefined {
  if (!v) return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/** A request other than a plain GET (a form submission). Redirects after it are followed with GET. */
export interface RequestBody {
  method: 'POST';
  body: string;
  contentType: string;
}

const CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/**
 * A body decoded from its Content-Encoding, at most `max` bytes of it (a compression bomb is cut
 * and marked truncated, as a long body is). A body that is not what its header says, or is cut,
 * gives what could be decoded. "deflate" is zlib-wrapped by the RFC, raw deflate by some servers:
 * both are read.
 */
async function decode(coding: string, body: Buffer, max: number): Promise<{ body: Buffer; truncated: boolean }> {
  const make = (raw: boolean): Transform =>
    coding === 'br'
      ? zlib.createBrotliDecompress()
      : coding === 'deflate'
        ? raw
          ? zlib.createInflateRaw()
          : zlib.createInflate()
        : zlib.createGunzip();
  const run = (raw: boolean): Promise<{ body: Buffer; truncated: boolean; failed: boolean }> =>
    new Promise((resolve) => {
      const z = make(raw);
      const out: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (failed: boolean, cut = false): void => {
        if (done) return;
        done = true;
        resolve({ body: Buffer.concat(out, size), truncated: cut, failed });
      };
      z.on('data', (c: Buffer) => {
        if (done) return;
        if (size + c.length > max) {
          out.push(c.subarray(0, max - size));
          size = max;
          z.destroy();
          finish(false, true);
          return;
        }
        out.push(c);
        size += c.length;
      });
      z.on('end', () => finish(false));
      z.on('error', () => finish(size === 0));
      z.end(body);
    });
  let r = await run(false);
  if (r.failed && coding === 'deflate') r = await run(true);
  // not compressed after all: the bytes as sent
  return r.failed ? { body, truncated: false } : { body: r.body, truncated: r.truncated };
}

/**
 * A response body, at most `max` bytes of it (the rest is discarded and the body marked
 * truncated). By 'data' events: an async iterator costs a promise per chunk.
 */
function readCapped(
  stream: Dispatcher.ResponseData['body'],
  max: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (truncated: boolean): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      resolve({ body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), truncated });
    };
    const onData = (b: Buffer): void => {
      if (size + b.length > max) {
        chunks.push(b.subarray(0, max - size));
        size = max;
        done(true);
        stream.on('error', () => {}); // destroyed on purpose: its late error is no news
        stream.destroy();
        return;
      }
      chunks.push(b);
      size += b.length;
    };
    const onEnd = (): void => done(false);
    const onError = (e: Error): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      reject(e);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

export const ACCEPT =
  'text/html,application/xhtml+xml,application/pdf,application/postscript,text/plain;q=0.9,*/*;q=0.5';

export class Fetcher {
  /** The headers of every GET, built once. */
  private readonly getHeaders: Record<string, string>;
  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly opts: FetchOptions,
  ) {
    this.getHeaders = { 'user-agent': opts.userAgent, accept: ACCEPT, ...opts.headers };
  }

  dispatcherOf(): Dispatcher {
    return this.dispatcher;
  }

  get headers(): Record<string, string> | undefined {
    return this.opts.headers;
  }

  /** Throws CrawlError (TIMEOUT, DEADLINE, NETWORK); HTTP errors, redirects included, are results. */
  fetch(url: string, post?: RequestBody): Promise<FetchResult> {
    return this.once(url, post);
  }

  private async once(url: string, post?: RequestBody): Promise<FetchResult> {
    const t0 = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.opts.maxResponseMs);
    const overDeadline = (e: unknown): CrawlError =>
      deadline.signal.aborted
        ? new CrawlError('CRAWL_ERR_DEADLINE', `no complete response within ${this.opts.maxResponseMs} ms`, {
            cause: e,
          })
        : toCrawlError(e);
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        dispatcher: this.dispatcher,
        method: post ? post.method : 'GET',
        headers: post ? { ...this.getHeaders, 'content-type': post.contentType } : this.getHeaders,
        body: post?.body,
        headersTimeout: this.opts.headersTimeoutMs,
        bodyTimeout: this.opts.bodyTimeoutMs,
        signal: deadline.signal,
      });
    } catch (e) {
      clearTimeout(timer);
      throw overDeadline(e);
    }
    const headersAt = performance.now();
    const latencyMs = headersAt - t0;
    let body: Buffer;
    let truncated: boolean;
    try {
      ({ body, truncated } = await readCapped(res.body, this.opts.maxBodyBytes));
    } catch (e) {
      throw overDeadline(e);
    } finally {
      clearTimeout(timer);
    }
    const headers = headerMap(res.headers);
    // a body sent compressed though we never asked (no Accept-Encoding): decoded, within the same cap
    const coding = (headers['content-encoding'] ?? '').trim().toLowerCase();
    if (CODINGS.has(coding) && body.length) {
      const d = await decode(coding, body, this.opts.maxBodyBytes);
      body = d.body;
      truncated ||= d.truncated;
      headers['x-crawler-decoded'] = coding;
    }
    return {
      url,
      status: res.statusCode,
      headers,
      body,
      truncated,
      latencyMs,
      headersAt,
      retryAfterMs: parseRetryAfter(headers['retry-after']),
    };
  }
}
