/**
 * The deep-web crawler's HTTP side: page fetches and form submissions through the crawl engine's
 * polite client (crawler/polite.ts: robots.txt, the politeness gates, retries, Retry-After), after
 * the scope check, with a cache so the same request is never sent twice, and a log of every
 * request for the metrics.
 */
import type { Dispatcher } from 'undici';
import { decodeBody } from '../charset.ts';
import { contentTypeOf } from '../parser.ts';
import { PoliteClient } from '../polite.ts';
import { resolveSettings, type CrawlSettings } from '../settings.ts';
import type { SearchForm } from './forms.ts';
import { append } from '../../lib/arrays.ts';

/** A concrete request: GET url (query included) or POST url with an urlencoded body. */
export interface FormRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
}

export interface Fetched {
  request: FormRequest;
  status: number | null;
  html: string;
  /** Set when the request failed (network, robots, scope); html is then empty. */
  error?: string;
  /** True when served from the cache (no request was sent). */
  cached: boolean;
}

/** Builds the request a browser would send for the form with the given values bound. */
export function buildRequest(
  form: SearchForm,
  bound: Record<string, string>,
  extra: [string, string][] = [],
): FormRequest {
  const pairs: [string, string][] = [];
  for (const i of form.inputs) {
    const v = Object.hasOwn(bound, i.name) ? bound[i.name] : i.defaultValue;
    // unchecked radios and checkboxes are not sent
    if ((i.type === 'radio' || i.type === 'checkbox') && v === '') continue;
    pairs.push([i.name, v]);
  }
  append(pairs, extra);
  const qs = new URLSearchParams(pairs).toString();
  return form.method === 'GET'
    ? { method: 'GET', url: qs ? `${form.action}?${qs}` : form.action }
    : { method: 'POST', url: form.action, body: qs };
}

/** Requests from a button form (a POST "Next page") or a link. */
export function requestFromValues(form: SearchForm, values: [string, string][]): FormRequest {
  const qs = new URLSearchParams(values).toString();
  return form.method === 'GET'
    ? { method: 'GET', url: qs ? `${form.action}?${qs}` : form.action }
    : { method: 'POST', url: form.action, body: qs };
}

export function requestKey(r: FormRequest): string {
  return r.method === 'GET' ? `GET ${r.url}` : `POST ${r.url} ${r.body ?? ''}`;
}

export interface FormClientOptions {
  settings: Partial<CrawlSettings>;
  /** Sends every request here (e.g. the synthetic web's dispatcher); default: by settings.resolve. */
  dispatcher?: Dispatcher;
}

export class FormClient {
  readonly settings: CrawlSettings;
  private readonly client: PoliteClient;
  private readonly cache = new Map<string, Fetched>();
  /** Requests sent (cache hits excluded), by method. */
  sent = { GET: 0, POST: 0 };

  constructor(opts: FormClientOptions) {
    this.settings = resolveSettings({ ...opts.settings, startUrls: opts.settings.startUrls ?? [] });
    this.client = new PoliteClient({ settings: this.settings, dispatcher: opts.dispatcher });
  }

  /** Fetches (or returns from the cache) one request; failures are results, never thrown. */
  async fetch(request: FormRequest): Promise<Fetched> {
    const key = requestKey(request);
    const hit = this.cache.get(key);
    if (hit) return { ...hit, cached: true };
    const out = await this.send(request);
    this.cache.set(key, out);
    return out;
  }

  private async send(request: FormRequest): Promise<Fetched> {
    const fail = (error: string): Fetched => ({ request, status: null, html: '', error, cached: false });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return fail('CRAWL_ERR_URL');
    }
    const why = this.client.scope.check(url);
    if (why) return fail(`CRAWL_ERR_OUT_OF_SCOPE (${why})`);
    const o = await this.client.send(
      request.url,
      url.host,
      request.method === 'POST'
        ? { method: 'POST', body: request.body ?? '', contentType: 'application/x-www-form-urlencoded' }
        : undefined,
    );
    switch (o.kind) {
      case 'skipped':
        return fail(`CRAWL_ERR_ROBOTS (${this.client.host(url.host).skipped})`);
      case 'robots':
        return fail('CRAWL_ERR_ROBOTS (disallowed)');
      case 'stopped':
      case 'elsewhere':
        return fail('CRAWL_ERR_STOPPED');
      case 'failed':
        this.sent[request.method]++;
        return fail(o.error.code);
    }
    this.sent[request.method]++;
    const { charset } = contentTypeOf(o.res.headers['content-type']);
    return { request, status: o.res.status, html: decodeBody(o.res.body, charset).text, cached: false };
  }

  /** Forgets cached responses (between methods compared on one site); politeness state is kept. */
  clearCache(): void {
    this.cache.clear();
  }

  get requests(): number {
    return this.sent.GET + this.sent.POST;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
