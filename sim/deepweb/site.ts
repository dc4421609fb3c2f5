/**
 * A vertical search site over a RecordDb: a home page linking to the search form, the form
 * (GET, or POST for flights), result pages that echo the query, list records with links to
 * their detail pages and paginate up to a top-k cap (or through every match, as bibliographic
 * services such as PubMed do: topK 0), a "no results" page, a 400 page for
 * invalid values and presentation-only inputs (sort order, results per page) that change the
 * layout but never the result set. Ground truth: every record's id and its detail URL.
 */
import { RecordDb, YEAR_MAX, YEAR_MIN, type DeepKind, type Query, type SortKey } from './db.ts';

export interface DeepSiteConfig {
  kind: DeepKind;
  /** Hostname, ending in .test. */
  host: string;
  /** Database size, 1,000 to 1,000,000 records. */
  records: number;
  /** Default results per page. */
  pageSize: number;
  /** Most records one query can show, whatever the page size (200: 10 pages of 20); 0 = every match. */
  topK: number;
  /** Server-side rate limit (429 + Retry-After below this gap); 0 = none. */
  minGapMs: number;
}

export interface SitePage {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

interface Input {
  name: string;
  label: string;
  /** 'date': a typed text input (HTML type=date, with min and max), YYYY-MM-DD. */
  type: 'select' | 'text' | 'date' | 'hidden';
  /** select options as [value, label]; the first is the default */
  options: [string, string][];
  /** Presentation only: never changes the result set. */
  presentation?: boolean;
}

const TITLES: Record<DeepKind, string> = { jobs: 'Job search', flights: 'Flight search', catalogue: 'Paper catalogue' };
const PER_PAGE = ['10', '20', '50'];

/** What was asked (filters and keywords), as a string. */
function queryKey(q: Query): string {
  return `${[...q.eq].sort().join(';')}|${q.words.join(' ')}|${q.yearFrom ?? ''}|${q.yearTo ?? ''}`;
}

function queryHash(q: Query): number {
  let h = 0x811c9dc5;
  const s = queryKey(q);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const FORM_PATH = '/search';
const ACTION_PATH = '/results';
const ITEM_PREFIX = '/item/';

export class DeepSite {
  readonly db: RecordDb;
  readonly method: 'GET' | 'POST';
  readonly inputs: Input[];
  /** Most records any one query can show (Infinity: every match). */
  readonly topK: number;
  /** The last few rankings (paging through one query re-ranks nothing). */
  private readonly rankings = new Map<string, Int32Array>();

  constructor(
    readonly cfg: DeepSiteConfig,
    seed: number | string,
  ) {
    this.db = new RecordDb(cfg.kind, cfg.records, seed, cfg.host);
    this.method = cfg.kind === 'flights' ? 'POST' : 'GET';
    this.topK = cfg.topK || Infinity;
    const any = (label: string): [string, string] => ['', `any ${label.toLowerCase()}`];
    const inputs: Input[] = [];
    if (this.db.hasText()) inputs.push({ name: 'q', label: 'Keywords', type: 'text', options: [] });
    for (const a of this.db.attrs) {
      // the departure date is typed, as on airline sites; its options bound the date input
      const type = a.name === 'date' ? 'date' : 'select';
      inputs.push({
        name: a.name,
        label: a.label,
        type,
        options: [any(a.label), ...a.values.map((v): [string, string] => [v, v])],
      });
    }
    if (this.db.year) {
      const years = Array.from({ length: YEAR_MAX - YEAR_MIN + 1 }, (_, k): [string, string] => [
        String(YEAR_MIN + k),
        String(YEAR_MIN + k),
      ]);
      inputs.push({ name: 'year_from', label: 'From year', type: 'select', options: [['', 'any'], ...years] });
      inputs.push({ name: 'year_to', label: 'To year', type: 'select', options: [['', 'any'], ...years] });
    }
    const sorts: [string, string][] =
      cfg.kind === 'catalogue'
        ? [
            ['relevance', 'relevance'],
            ['date', 'newest first'],
          ]
        : [
            ['relevance', 'relevance'],
            ['date', cfg.kind === 'flights' ? 'departure' : 'newest first'],
            ['price', cfg.kind === 'flights' ? 'price' : 'salary'],
          ];
    inputs.push({ name: 'sort', label: 'Sort by', type: 'select', options: sorts, presentation: true });
    inputs.push({
      name: 'per_page',
      label: 'Results per page',
      type: 'select',
      options: [String(cfg.pageSize), ...PER_PAGE.filter((p) => p !== String(cfg.pageSize))].map(
        (p): [string, string] => [p, p],
      ),
      presentation: true,
    });
    inputs.push({ name: 'src', label: '', type: 'hidden', options: [['form', 'form']], presentation: true });
    this.inputs = inputs;
  }

  get host(): string {
    return this.cfg.host;
  }

  /** The detail URL path of record i, and back. */
  itemPath(i: number): string {
    return `${ITEM_PREFIX}${i}`;
  }

  recordOf(path: string): number {
    const m = /^\/item\/(\d+)$/.exec(path);
    const i = m ? Number(m[1]) : -1;
    return i >= 0 && i < this.db.n ? i : -1;
  }

  handle(method: string, path: string, params: URLSearchParams): SitePage {
    if (path === '/robots.txt')
      return { status: 200, contentType: 'text/plain; charset=utf-8', body: 'User-agent: *\nDisallow: /admin/\n' };
    if (path === '/')
      return this.page(
        TITLES[this.cfg.kind],
        `<p>Search ${this.db.n.toLocaleString('en-US')} ${this.noun()} on ${this.cfg.host}.</p>\n<p><a href="${FORM_PATH}">Start a search</a></p>`,
      );
    if (path === '/about')
      return this.page(
        'About',
        `<p>A vertical search site with ${this.db.n.toLocaleString('en-US')} ${this.noun()}.</p>`,
      );
    if (path === FORM_PATH) return this.page(TITLES[this.cfg.kind], this.form());
    if (path === ACTION_PATH) {
      if (method !== this.method)
        return {
          ...this.page('Method not allowed', `<p class="error">This search accepts ${this.method} only.</p>`, 405),
          headers: { allow: this.method },
        };
      return this.results(params);
    }
    const id = this.recordOf(path);
    if (id >= 0)
      return this.page(
        this.recordTitle(id),
        `<p>${esc(this.summary(id))}</p>\n<p>${esc(this.db.words(id).join(' '))}</p>\n<p><a href="${FORM_PATH}">New search</a></p>`,
      );
    return this.page('Not found', '<p>No such page.</p>', 404);
  }

  private noun(): string {
    return { jobs: 'job offers', flights: 'flights', catalogue: 'papers' }[this.cfg.kind];
  }

  private page(title: string, body: string, status = 200): SitePage {
    return {
      status,
      contentType: 'text/html; charset=utf-8',
      body:
        `<!DOCTYPE html>\n<html><head><meta ` +
        `charset="utf-8"><title>${esc(title)}</title></head>\n<body>\n<div class="nav"><a ` +
        `href="/">Home</a> | <a href="${FORM_PATH}">Search</a> | <a ` +
        `href="/about">About</a></div>\n<h1>${esc(title)}</h1>\n${body}\n<div ` +
        `class="footer">Copyright ${esc(this.cfg.host)}</div>\n</body></html>\n`,
    };
  }

  private form(): string {
    const fields = this.inputs.map((i) => {
      if (i.type === 'hidden') return `<input type="hidden" name="${i.name}" value="${esc(i.options[0][0])}">`;
      if (i.type === 'text') return `<label>${esc(i.label)} <input type="text" name="${i.name}" size="30"></label>`;
      if (i.type === 'date')
        return `<label>${esc(i.label)} <input type="date" name="${i.name}" min="${i.options[1][0]}" max="${i.options[i.options.length - 1][0]}"></label>`;
      return (
        `<label>${esc(i.label)} <select ` +
        `name="${i.name}">${i.options
          .map(([v, l], k) => `<option value="${esc(v)}"${k === 0 ? ' selected' : ''}>${esc(l)}</option>`)
          .join('')}</select></label>`
      );
    });
    return `<form method="${this.method.toLowerCase()}" action="${ACTION_PATH}">\n${fields.join('<br>\n')}\n<input type="submit" value="Search">\n</form>`;
  }

  private error(msg: string): SitePage {
    return this.page(
      'Search error',
      `<p class="error">${esc(msg)}</p>\n<p><a href="${FORM_PATH}">Back to the search form</a></p>`,
      400,
    );
  }

  /** Parses and validates the submitted values; a string is the error message. */
  private parse(
    params: URLSearchParams,
  ): { q: Query; sort: SortKey; perPage: number; page: number; echo: string[] } | string {
    const q: Query = { eq: new Map(), words: [] };
    const echo: string[] = [];
    let sort: SortKey = 'relevance';
    let perPage = this.cfg.pageSize;
    for (const input of this.inputs) {
      const raw = params.get(input.name) ?? '';
      if (input.type === 'hidden') continue;
      if (input.type === 'text') {
        const words = raw
          .toLowerCase()
          .split(/[^\p{L}\p{N}-]+/u)
          .filter(Boolean);
        if (words.length > 8) return 'Too many keywords (at most 8).';
        q.words = words;
        if (words.length) echo.push(`${input.label}: ${raw.trim()}`);
        continue;
      }
      if (raw === '') continue;
      if (input.type === 'date') {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(raw)))
          return `Invalid date "${raw}": expected YYYY-MM-DD.`;
        // a real date without flights is a valid query that matches nothing
        q.eq.set(input.name, input.options.findIndex(([v]) => v === raw) - 1);
        echo.push(`${input.label}: ${raw}`);
        continue;
      }
      const k = input.options.findIndex(([v]) => v === raw);
      if (k < 0) return `Invalid value for ${input.label.toLowerCase()}: "${raw}".`;
      if (input.name === 'sort') sort = raw as SortKey;
      else if (input.name === 'per_page') perPage = Number(raw);
      else if (input.name === 'year_from') {
        q.yearFrom = Number(raw);
        echo.push(`${input.label}: ${raw}`);
      } else if (input.name === 'year_to') {
        q.yearTo = Number(raw);
        echo.push(`${input.label}: ${raw}`);
      } else {
        q.eq.set(input.name, k - 1);
        echo.push(`${input.label}: ${raw}`);
      }
    }
    if (q.yearFrom !== undefined && q.yearTo !== undefined && q.yearFrom > q.yearTo)
      return `Invalid year range: ${q.yearFrom} is after ${q.yearTo}.`;
    const pageRaw = params.get('page') ?? '1';
    if (!/^\d{1,6}$/.test(pageRaw) || Number(pageRaw) < 1) return `Invalid page number "${pageRaw}".`;
    return { q, sort, perPage, page: Number(pageRaw), echo };
  }

  private results(params: URLSearchParams): SitePage {
    const p = this.parse(params);
    if (typeof p === 'string') return this.error(p);
    const { q, sort, perPage, page, echo } = p;
    if (!echo.length)
      return this.page('Search', `<p class="notice">Please choose at least one search criterion.</p>\n${this.form()}`);
    const ids = this.db.match(q);
    const echoHtml = `<p class="echo">You searched for ${echo.map(esc).join('; ')}</p>`;
    if (!ids.length)
      return this.page(
        'No results',
        `${echoHtml}\n<p class="none">No ${this.noun()} match your search.</p>\n<p><a href="${FORM_PATH}">New search</a></p>`,
      );
    const shown = Math.min(ids.length, this.topK);
    const pages = Math.ceil(shown / perPage);
    if (page > pages)
      return this.error(
        `Page ${page} is out of range: this search has ${pages} page${pages > 1 ? 's' : ''} of results.`,
      );
    // the ranking is keyed by what was asked (filters and keywords), not by layout inputs
    const top = this.ranking(ids, sort, shown, q);
    const slice = top.subarray((page - 1) * perPage, Math.min(shown, page * perPage));
    const items = [...slice].map(
      (i) => `<li><a href="${this.itemPath(i)}">${esc(this.recordTitle(i))}</a><br>${esc(this.summary(i))}</li>`,
    );
    const cap = ids.length > this.topK ? ` (only the first ${this.topK} can be shown; refine your search)` : '';
    const count = `<p class="count">Results ${(page - 1) * perPage + 1}-${(page - 1) * perPage + slice.length} of ${ids.length}${cap}</p>`;
    return this.page(
      'Search results',
      `${echoHtml}\n${count}\n<ol class="results">\n${items.join('\n')}\n</ol>\n${this.pager(params, page, pages)}`,
    );
  }

  /** The query's first `shown` records in order, cached for the few latest queries. */
  private ranking(ids: Int32Array, sort: SortKey, shown: number, q: Query): Int32Array {
    const key = `${sort}|${shown}|${queryKey(q)}`;
    let top = this.rankings.get(key);
    if (!top) {
      top = this.db.sorted(ids, sort, shown, queryHash(q));
      if (this.rankings.size >= 8) this.rankings.delete(this.rankings.keys().next().value!);
      this.rankings.set(key, top);
    }
    return top;
  }

  private pager(params: URLSearchParams, page: number, pages: number): string {
    const link = (n: number, text: string): string => {
      const next = new URLSearchParams(params);
      next.set('page', String(n));
      if (this.method === 'GET') return `<a href="${ACTION_PATH}?${esc(next.toString())}">${text}</a>`;
      const hidden = [...next].map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join('');
      return `<form method="post" action="${ACTION_PATH}" class="pager">${hidden}<button type="submit">${text}</button></form>`;
    };
    const parts: string[] = [];
    if (page > 1) parts.push(link(page - 1, 'Previous page'));
    if (page < pages) parts.push(link(page + 1, 'Next page'));
    return `<div class="pager">${parts.join(' ')}</div>`;
  }

  recordTitle(i: number): string {
    const db = this.db;
    if (db.kind === 'flights') {
      const a = (n: string): string => db.attr(n)!.values[db.attr(n)!.column[i]];
      return `Flight ${a('from')} to ${a('to')}`;
    }
    return db.words(i).slice(0, db.titleLen[i]).join(' ');
  }

  /** One line about the record, as a result list shows it. */
  summary(i: number): string {
    const db = this.db;
    const a = (n: string): string => db.attr(n)!.values[db.attr(n)!.column[i]];
    const words = db.words(i).slice(db.titleLen[i]);
    if (db.kind === 'jobs')
      return (
        `${a('industry')}, ${a('location')}; ${a('category')}; posted ${90 - db.day[i]} days into ` +
        `the quarter; ${db.price[i]} a year. ${words.slice(0, 8).join(' ')}`
      );
    if (db.kind === 'flights')
      return `${a('date')}, ${a('cabin')} fare ${db.price[i]}, flight number ${1000 + (i % 9000)}`;
    return `${a('subject')}, ${db.year![i]}. ${words.slice(0, 12).join(' ')}`;
  }
}
