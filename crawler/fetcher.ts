/**
 * The downloader: one HTTP request on undici (a redirect is a result: the engine queues its
 * target, robots.txt and the form client follow it hop by hop through the gate), with header and
 * body idle timeouts, a total deadline per response (a body that drips a byte at a time beats
 * the idle timeouts but not the deadline), a body size cap (the body is cut and marked
 * truncated), and the pieces politeness needs (latency, Retry-After). Retries and per-host timing
 * live in the polite client (polite.ts), so that every retry passes through the politeness gates.
 */
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
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

  /** Throws CrawlError (TIMEOUT, DEADLINE, NETWORK); HTTP errors, redirects included, are results. */
  fetch(url: string, post?: RequestBody): Promise<FetchResult> {
    return this.once(url, post);
  }

  private async once(url: string, post?: RequestBody): Promise<FetchResult> {
    const headers0 = post ? { ...this.getHeaders, 'content-type': post.contentType } : this.getHeaders;
    const r = await new Exchange(this.dispatcher, url, post, headers0, this.opts).done;
    const { status, latencyMs, headersAt } = r;
    let { body, truncated } = r;
    const headers = headerMap(r.headers);
    // a body sent compressed though we never asked (no Accept-Encoding): decoded, within the same
    // cap; codings listed in the order applied ("gzip, gzip"), so undone from the last
    const codings = (headers['content-encoding'] ?? '')
      .toLowerCase()
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c && c !== 'identity');
    if (codings.length && codings.every((c) => CODINGS.has(c)) && body.length) {
      for (const coding of [...codings].reverse()) {
        const d = await decode(coding, body, this.opts.maxBodyBytes);
        body = d.body;
        truncated ||= d.truncated;
      }
      headers['x-crawler-decoded'] = codings.join(', ');
    }
    return {
      url,
      status,
      headers,
      body,
      truncated,
      latencyMs,
      headersAt,
      retryAfterMs: parseRetryAfter(headers['retry-after']),
    };
  }
}

interface Exchanged {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  latencyMs: number;
  headersAt: number;
}

/**
 * One request and its response, read through undici's handler API (what its request() is built
 * on) rather than request() itself: the body's chunks are gathered as they arrive, with no
 * Readable stream, AbortController or async resource per request, which were a sixth of the
 * crawler's CPU per page on loopback (docs/benchmarks.md). Resolves once, with the status, the
 * headers (parsed as request() parses them), the body up to the cap and the timings; rejects
 * with a CrawlError (DEADLINE past the total deadline, else what undici reported).
 */
class Exchange implements Dispatcher.DispatchHandler {
  readonly done: Promise<Exchanged>;
  private resolve!: (r: Exchanged) => void;
  private reject!: (e: CrawlError) => void;
  private settled = false;
  private controller: Dispatcher.DispatchController | null = null;
  /** Why the request was aborted before undici handed it a controller (the deadline). */
  private reason: Error | null = null;
  private deadlineHit = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly t0 = performance.now();
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private headersAt = 0;
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    dispatcher: Dispatcher,
    url: string,
    post: RequestBody | undefined,
    headers: Record<string, string>,
    private readonly opts: FetchOptions,
  ) {
    this.done = new Promise<Exchanged>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.timer = setTimeout(() => {
      this.deadlineHit = true;
      const e = new Error(`no complete response within ${opts.maxResponseMs} ms`);
      if (this.controller) this.controller.abort(e);
      else this.reason = e;
    }, opts.maxResponseMs);
    let u: URL;
    try {
      u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:')
        throw new TypeError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
    } catch (e) {
      this.fail(e);
      return;
    }
    // as undici's request(): the origin, and the path with its query (never the fragment)
    try {
      dispatcher.dispatch(
        {
          origin: u.origin,
          path: u.search ? `${u.pathname}${u.search}` : u.pathname,
          method: post ? post.method : 'GET',
          headers,
          body: post?.body,
          headersTimeout: opts.headersTimeoutMs,
          bodyTimeout: opts.bodyTimeoutMs,
        },
        this,
      );
    } catch (e) {
      // undici's dispatchers report through onResponseError; another one may throw
      this.fail(e);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.reason) controller.abort(this.reason);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 100) {
      // undici takes "099" for an interim answer and waits for another on a closed socket
      const e = new CrawlError('CRAWL_ERR_MALFORMED', `status ${statusCode} is outside 100-599`);
      this.fail(e);
      controller.abort(e);
      return;
    }
    if (statusCode < 200) return; // an interim response: the real one follows
    this.status = statusCode;
    this.headers = headers;
    this.headersAt = performance.now();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    const max = this.opts.maxBodyBytes;
    if (this.size + chunk.length > max) {
      // the rest is not read: the body is cut, and the connection given up
      this.chunks.push(chunk.subarray(0, max - this.size));
      this.size = max;
      this.finish(true);
      controller.abort(new Error('body cut at the size cap'));
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  onResponseEnd(): void {
    this.finish(false);
  }

  onResponseError(_c: Dispatcher.DispatchController | undefined, error: Error): void {
    this.fail(error);
  }

  private finish(truncated: boolean): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const { chunks, size } = this;
    this.resolve({
      status: this.status,
      headers: this.headers,
      body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size),
      truncated,
      latencyMs: this.headersAt - this.t0,
      headersAt: this.headersAt,
    });
  }

  private fail(e: unknown): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.reject(
      this.deadlineHit
        ? new CrawlError('CRAWL_ERR_DEADLINE', `no complete response within ${this.opts.maxResponseMs} ms`, {
            cause: e,
          })
        : toCrawlError(e),
    );
  }
}
