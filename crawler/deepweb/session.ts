/**
 * A surfacing session on one search form: submits queries (and follows their result pages)
 * through the polite client under a submission budget, dedupes records by detail URL, and
 * keeps what the metrics need: records surfaced after each submission, and every submission's
 * fate (useful, empty, error, duplicate of a page already seen).
 */
import { buildRequest, requestKey, type Fetched, type FormClient, type FormRequest } from './client.ts';
import type { SearchForm } from './forms.ts';
import { readResultPage, type ResultPage, type SiteTemplate } from './results.ts';
import { append } from '../../lib/arrays.ts';

export type SubmissionFate = 'useful' | 'empty' | 'error' | 'duplicate';

export interface Submission {
  /** 1-based count of submissions sent so far. */
  n: number;
  /** What the submission was for (method's own label: template, keyword, ...). */
  tag: string;
  /** Result page number (1 = the query itself). */
  page: number;
  fate: SubmissionFate;
  records: number;
  newRecords: number;
  /** Distinct records after this submission. */
  total: number;
}

export interface QueryResult {
  first: ResultPage | null;
  /** Records on all pages fetched for this query. */
  records: string[];
  newRecords: number;
  pages: number;
}

class BudgetExhausted extends Error {
  constructor() {
    super('submission budget exhausted');
  }
}

export class SurfaceSession {
  /** Record URL -> the words shown with it. */
  readonly records = new Map<string, string>();
  /** For each record, in the order surfaced: the submission (1-based) that first showed it. */
  readonly firstSeen: number[] = [];
  readonly log: Submission[] = [];
  private readonly signatures = new Set<string>();
  /** Result pages already read, by request (a repeated query costs nothing). */
  private readonly pages = new Map<string, ResultPage>();
  private readonly pageFate = new Map<string, SubmissionFate>();

  constructor(
    readonly client: FormClient,
    readonly form: SearchForm,
    readonly template: SiteTemplate,
    /** Most submissions this session may send. */
    readonly budget: number,
  ) {}

  get submissions(): number {
    return this.log.length;
  }

  get exhausted(): boolean {
    return this.log.length >= this.budget;
  }

  /** Fetches one result page; cached requests are free. Throws BudgetExhausted when out of budget. */
  async page(request: FormRequest, echoed: string[], tag: string, pageNo: number): Promise<ResultPage> {
    const key = requestKey(request);
    const known = this.pages.get(key);
    if (known) return known;
    if (this.exhausted) throw new BudgetExhausted();
    const f: Fetched = await this.client.fetch(request);
    const rp = readResultPage(f.html, request.url, f.status, this.template, echoed);
    this.pages.set(key, rp);
    let fresh = 0;
    for (const r of rp.records) {
      if (!this.records.has(r)) {
        this.records.set(r, rp.recordText.get(r) ?? '');
        this.firstSeen.push(this.log.length + 1);
        fresh++;
      }
    }
    const dup = this.signatures.has(rp.signature);
    this.signatures.add(rp.signature);
    const fate: SubmissionFate =
      rp.cls === 'error' ? 'error' : rp.cls === 'empty' ? 'empty' : dup ? 'duplicate' : 'useful';
    this.pageFate.set(key, fate);
    this.log.push({
      n: this.log.length + 1,
      tag,
      page: pageNo,
      fate,
      records: rp.records.length,
      newRecords: fresh,
      total: this.records.size,
    });
    return rp;
  }

  /**
   * Submits the form with `bound` values; with follow, also every further result page. Stops
   * quietly at the budget (the result then holds what was fetched).
   */
  async query(bound: Record<string, string>, tag: string, follow = true): Promise<QueryResult> {
    const echoed = Object.values(bound);
    const before = this.records.size;
    const out: QueryResult = { first: null, records: [], newRecords: 0, pages: 0 };
    try {
      let req = buildRequest(this.form, bound);
      let rp = await this.page(req, echoed, tag, 1);
      out.first = rp;
      out.pages = 1;
      append(out.records, rp.records);
      const seen = new Set<string>();
      // a result page seen before under another query: its further pages would be too
      while (
        follow &&
        rp.next &&
        !seen.has(requestKey(rp.next)) &&
        this.pageFate.get(requestKey(req)) !== 'duplicate'
      ) {
        req = rp.next;
        seen.add(requestKey(req));
        rp = await this.page(req, echoed, tag, ++out.pages);
        append(out.records, rp.records);
      }
    } catch (e) {
      if (!(e instanceof BudgetExhausted)) throw e;
    }
    out.newRecords = this.records.size - before;
    return out;
  }

  /** Share of submissions of each fate. */
  fates(): Record<SubmissionFate, number> {
    const c: Record<SubmissionFate, number> = { useful: 0, empty: 0, error: 0, duplicate: 0 };
    for (const s of this.log) c[s.fate]++;
    return c;
  }
}
