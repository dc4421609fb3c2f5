/**
 * Record databases behind the synthetic web's search forms: jobs, flights and a paper
 * catalogue, generated column by column from (seed, host) so the same config gives the same
 * records. Attribute values are Zipf-skewed and correlated (a category favours a few
 * industries, an airport flies to a few destinations, subjects cluster in recent years), so
 * most combinations of form inputs match nothing, as on real vertical search sites.
 *
 * Domain sizes that are open-ended in reality (cities, airports) grow with the square root of
 * the database size, as distinct values do under Heaps' law (exponent 0.4-0.6 for vocabulary;
 * Heaps 1978, Baeza-Yates & Ribeiro-Neto): the Cartesian product of two such inputs then grows
 * as fast as the database, and with the fixed inputs multiplied in, far larger.
 *
 * Record text (jobs, catalogue) mixes three sources (TEXT_MIX): the record's topic words from the
 * synthetic web's vocabulary (what the seed keywords and subjects name), the topic's jargon (Zipf
 * over a large English word list, a different slice per topic) and general English by its
 * SUBTLEX-US frequency (sim/english.ts). Distinct words then grow with the database (Heaps' law;
 * heapsFit measures K and beta), as in real collections.
 */
import { linearRegression } from 'simple-statistics';
import { drawGeneral, drawListRank, englishWordList } from '../english.ts';
import { fastRng, hash32, type Rng, seedNumber, ZipfSampler } from '../web-rng.ts';
import { loadVocab, type Topic } from '../vocab.ts';
import { flightRoutes, gauss, permutation, placeName, scaledDomain, uniqueNames } from './draws.ts';

export type DeepKind = 'jobs' | 'flights' | 'catalogue';
export const DEEP_KINDS: readonly DeepKind[] = ['jobs', 'flights', 'catalogue'];

/** A categorical attribute: the record column holds an index into `values`. */
export interface Attribute {
  name: string;
  label: string;
  values: string[];
  column: Uint16Array;
}

export interface Query {
  /** attribute name -> value index */
  eq: Map<string, number>;
  /** Numeric range on `year` (catalogue). */
  yearFrom?: number;
  yearTo?: number;
  /** Keywords, all of which must occur in the record's text. */
  words: string[];
}

/** Heaps' law V = K n^beta (V distinct words among n words of text), fitted in log-log. */
export interface HeapsFit {
  points: { tokens: number; distinct: number }[];
  K: number;
  beta: number;
}

export type SortKey = 'relevance' | 'date' | 'price';

const JOB_HEADS = [
  'engineer',
  'analyst',
  'manager',
  'specialist',
  'consultant',
  'developer',
  'assistant',
  'coordinator',
  'technician',
  'director',
  'designer',
  'administrator',
  'researcher',
  'officer',
  'advisor',
  'intern',
];
const INDUSTRIES = [
  'software',
  'finance',
  'healthcare',
  'education',
  'retail',
  'manufacturing',
  'government',
  'media',
  'energy',
  'transport',
  'hospitality',
  'telecom',
  'insurance',
  'consulting',
  'nonprofit',
  'agriculture',
];
const CABINS = ['economy', 'premium', 'business', 'first'];
export const YEAR_MIN = 1970;
export const YEAR_MAX = 2025;

/**
 * Shares of a record's body words by source: its topic's own words, the topic's jargon, general
 * English. A stated condition of this bench (no published source); titles use topic words only.
 */
const TEXT_MIX = { topic: 0.45, jargon: 0.2, general: 0.35 } as const;

/** How a record's text is written (addText) and a body word drawn for a topic (bodyWord): the constructor's, shared by each kind. */
interface RecordText {
  addText: (i: number, title: string[], body: string[]) => void;
  bodyWord: (t: Topic, tid: number) => string;
}

export class RecordDb {
  readonly kind: DeepKind;
  readonly n: number;
  readonly attrs: Attribute[] = [];
  /** Day offset (0 = newest) used by sort=date and shown as a date. */
  readonly day: Uint16Array;
  /** Price or salary, used by sort=price. */
  readonly price: Uint32Array;
  readonly year: Uint16Array | null;
  /** Text words of each record (CSR over `dict`); empty for kinds without a text box. */
  readonly dict: string[] = [];
  readonly textStart: Int32Array;
  readonly textWords: Int32Array;
  readonly titleLen: Uint8Array;
  private readonly postings = new Map<string, Int32Array[]>();
  private readonly wordIndex = new Map<string, number>();
  private wordPostings: Int32Array[] = [];

  constructor(kind: DeepKind, records: number, seed: number | string, host: string) {
    this.kind = kind;
    this.n = records;
    const base = hash32(seedNumber(seed), seedNumber(host));
    const r = fastRng(base, 1);
    this.day = new Uint16Array(records);
    this.price = new Uint32Array(records);
    this.titleLen = new Uint8Array(records);
    const text: number[] = [];
    const start = new Int32Array(records + 1);
    const word = (w: string): number => {
      let id = this.wordIndex.get(w);
      if (id === undefined) {
        id = this.dict.length;
        this.dict.push(w);
        this.wordIndex.set(w, id);
      }
      return id;
    };
    const english = englishWordList();
    /** One body word of a record about topic t (id tid): topic word, the topic's jargon or general English. */
    const bodyWord = (t: Topic, tid: number): string => {
      const u = r.next();
      if (u < TEXT_MIX.topic) return t.words[t.zipf.sample(r.next())];
      if (u < TEXT_MIX.topic + TEXT_MIX.jargon)
        return english[hash32(base, tid, drawListRank(r.next()), 43) % english.length];
      return drawGeneral(r.next());
    };
    const addText = (i: number, title: string[], body: string[]): void => {
      const ordered: number[] = [];
      for (const w of [...title, ...body]) ordered.push(word(w));
      this.titleLen[i] = title.length;
      for (const id of ordered) text.push(id);
      start[i + 1] = text.length;
    };

    if (kind === 'jobs') this.jobs(records, r, base, { addText, bodyWord });
    else if (kind === 'flights') this.flights(records, r, base, addText);
    this.year = kind === 'jobs' || kind === 'flights' ? null : this.catalogue(records, r, base, { addText, bodyWord });
    this.textStart = start;
    this.textWords = Int32Array.from(text);
    for (const a of this.attrs) this.postings.set(a.name, invert(a.column, a.values.length));
    if (this.textWords.length) this.buildWordPostings();
  }

  /** Job ads: a category (Zipf over topics), an industry its category favours, a city, a salary, a title and body. */
  private jobs(records: number, r: Rng, base: number, t: RecordText): void {
    const { addText, bodyWord } = t;
    const vocab = loadVocab(1.0);
    const topics = vocab.topics;
    const catZ = new ZipfSampler(topics.length, 1.0);
    const catPerm = permutation(topics.length, r);
    const cities = uniqueNames(scaledDomain(records, 40, 2000), (i) => placeName(i, base ^ 7));
    const cityZ = new ZipfSampler(cities.length, 1.1);
    const cityPerm = permutation(cities.length, r);
    const cat = new Uint16Array(records);
    const ind = new Uint16Array(records);
    const loc = new Uint16Array(records);
    // each category favours three industries (80% of its jobs)
    const favoured = topics.map((_, c) => [0, 1, 2].map((k) => hash32(base, c, k, 11) % INDUSTRIES.length));
    for (let i = 0; i < records; i++) {
      const c = catPerm[catZ.sample(r.next())];
      cat[i] = c;
      ind[i] = r.chance(0.8) ? favoured[c][r.chance(0.6) ? 0 : r.int(3)] : r.int(INDUSTRIES.length);
      loc[i] = cityPerm[cityZ.sample(r.next())];
      this.day[i] = r.int(90);
      this.price[i] = 30_000 + 1000 * r.int(120) + (topics[c].computing ? 20_000 : 0);
      const t = topics[c];
      const title = [t.words[t.zipf.sample(r.next())], JOB_HEADS[r.int(JOB_HEADS.length)]];
      const body: string[] = [];
      for (let k = 0; k < 10; k++) body.push(bodyWord(t, c));
      addText(i, title, body);
    }
    this.attrs.push({ name: 'category', label: 'Category', values: topics.map((t) => t.label), column: cat });
    this.attrs.push({ name: 'industry', label: 'Industry', values: [...INDUSTRIES], column: ind });
    this.attrs.push({ name: 'location', label: 'Location', values: cities, column: loc });
  }

  /** A catalogue of papers: a computing subject, a year skewed recent around the subject's heyday, a title and body. */
  private catalogue(records: number, r: Rng, base: number, t: RecordText): Uint16Array {
    const { addText, bodyWord } = t;
    const vocab = loadVocab(1.0);
    const subjects = vocab.topics.filter((t) => t.computing);
    const subZ = new ZipfSampler(subjects.length, 0.8);
    const subPerm = permutation(subjects.length, r);
    const sub = new Uint16Array(records);
    const year = new Uint16Array(records);
    for (let i = 0; i < records; i++) {
      const s = subPerm[subZ.sample(r.next())];
      sub[i] = s;
      // publication years skew recent, and each subject has its own heyday (correlated inputs)
      const peak = YEAR_MAX - (hash32(base, s, 19) % 25);
      const y = Math.round(peak - Math.abs(gauss(r)) * 9 + (r.chance(0.2) ? r.int(10) : 0));
      year[i] = Math.max(YEAR_MIN, Math.min(YEAR_MAX, y));
      this.day[i] = YEAR_MAX - year[i];
      this.price[i] = r.int(400);
      const t = subjects[s];
      const title: string[] = [];
      for (let k = 0; k < 5; k++) title.push(t.words[t.zipf.sample(r.next())]);
      const body: string[] = [];
      for (let k = 0; k < 18; k++) body.push(bodyWord(t, s));
      addText(i, title, body);
    }
    this.attrs.push({ name: 'subject', label: 'Subject', values: subjects.map((t) => t.label), column: sub });
    return year;
  }

  /** A flights database: from, to, date and cabin drawn with popular airports and their routes; no text. */
  private flights(records: number, r: Rng, base: number, addText: (i: number, t: string[], b: string[]) => void): void {
    const A = scaledDomain(records, 24, 1500);
    const codes = uniqueNames(A, (i) => {
      const h = hash32(base, i, 13);
      return String.fromCharCode(65 + (h % 26), 65 + ((h >>> 5) % 26), 65 + ((h >>> 10) % 26));
    });
    const popZ = new ZipfSampler(A, 1.0);
    const perm = permutation(A, r);
    const dests = flightRoutes(A, perm, popZ, base);
    const destZ = new Map<number, ZipfSampler>();
    const from = new Uint16Array(records);
    const to = new Uint16Array(records);
    const cabin = new Uint16Array(records);
    const date = new Uint16Array(records);
    const cabinCdf = [0.7, 0.85, 0.97, 1];
    for (let i = 0; i < records; i++) {
      const f = perm[popZ.sample(r.next())];
      const ds = dests[f];
      let z = destZ.get(ds.length);
      if (!z) destZ.set(ds.length, (z = new ZipfSampler(ds.length, 1.0)));
      from[i] = f;
      to[i] = ds[z.sample(r.next())];
      const u = r.next();
      cabin[i] = cabinCdf.findIndex((c) => u < c);
      date[i] = r.int(28);
      this.day[i] = date[i];
      this.price[i] = Math.round((80 + r.int(400)) * [1, 1.6, 3.5, 6][cabin[i]]);
      addText(i, [], []);
    }
    const dates = Array.from({ length: 28 }, (_, d) => new Date(Date.UTC(2027, 0, 4 + d)).toISOString().slice(0, 10));
    this.attrs.push({ name: 'from', label: 'From', values: codes, column: from });
    this.attrs.push({ name: 'to', label: 'To', values: codes, column: to });
    this.attrs.push({ name: 'date', label: 'Date', values: dates, column: date });
    this.attrs.push({ name: 'cabin', label: 'Cabin', values: CABINS, column: cabin });
  }

  private buildWordPostings(): void {
    const lists: number[][] = this.dict.map(() => []);
    for (let i = 0; i < this.n; i++) {
      let last = -1;
      const ids = [...new Set(this.textWords.subarray(this.textStart[i], this.textStart[i + 1]))].sort((a, b) => a - b);
      for (const id of ids)
        if (id !== last) {
          lists[id].push(i);
          last = id;
        }
    }
    this.wordPostings = lists.map((l) => Int32Array.from(l));
  }

  attr(name: string): Attribute | undefined {
    return this.attrs.find((a) => a.name === name);
  }

  hasText(): boolean {
    return this.textWords.length > 0;
  }

  /** Words of record i (title first). */
  words(i: number): string[] {
    const out: string[] = [];
    for (let k = this.textStart[i]; k < this.textStart[i + 1]; k++) out.push(this.dict[this.textWords[k]]);
    return out;
  }

  /**
   * Distinct words against words of text over growing prefixes of the database (records in id
   * order, which is generation order), and Heaps' law V = K n^beta fitted to them in log-log.
   */
  heaps(points = 12): HeapsFit | null {
    if (!this.hasText()) return null;
    const out: { tokens: number; distinct: number }[] = [];
    const seen = new Uint8Array(this.dict.length);
    let distinct = 0;
    const marks = new Set<number>();
    for (let k = 0; k < points; k++) marks.add(Math.max(1, Math.round(this.n * 2 ** (k - points + 1))));
    for (let i = 0; i < this.n; i++) {
      for (let k = this.textStart[i]; k < this.textStart[i + 1]; k++) {
        if (!seen[this.textWords[k]]) {
          seen[this.textWords[k]] = 1;
          distinct++;
        }
      }
      if (marks.has(i + 1)) out.push({ tokens: this.textStart[i + 1], distinct });
    }
    const fit = linearRegression(out.map((p) => [Math.log(p.tokens), Math.log(p.distinct)]));
    return { points: out, K: Math.exp(fit.b), beta: fit.m };
  }

  /** Matching record ids in id order. */
  match(q: Query): Int32Array {
    const lists: Int32Array[] = [];
    for (const [name, v] of q.eq) {
      // a well-formed value the attribute never takes (a date outside the schedule) matches nothing
      const list = this.postings.get(name)![v];
      if (!list) return new Int32Array(0);
      lists.push(list);
    }
    for (const w of q.words) {
      const id = this.wordIndex.get(w.toLowerCase());
      if (id === undefined) return new Int32Array(0);
      lists.push(this.wordPostings[id]);
    }
    const hasRange = q.yearFrom !== undefined || q.yearTo !== undefined;
    if (!lists.length && !hasRange) return Int32Array.from({ length: this.n }, (_, i) => i);
    const from = q.yearFrom ?? 0;
    const to = q.yearTo ?? 65535;
    if (!lists.length) {
      const out: number[] = [];
      for (let i = 0; i < this.n; i++) if (this.year![i] >= from && this.year![i] <= to) out.push(i);
      return Int32Array.from(out);
    }
    lists.sort((a, b) => a.length - b.length);
    let cur = lists[0];
    for (let k = 1; k < lists.length && cur.length; k++) cur = intersect(cur, lists[k]);
    if (hasRange) cur = cur.filter((i) => this.year![i] >= from && this.year![i] <= to);
    return cur;
  }

  /**
   * The first `limit` ids of `ids` in the given order. Relevance ranking depends on the query
   * (queryHash), as a search engine's does: two broad queries do not show the same head of the
   * database. Date and price order break ties by id.
   */
  sorted(ids: Int32Array, key: SortKey, limit: number, queryHash: number): Int32Array {
    const col = key === 'date' ? this.day : key === 'price' ? this.price : null;
    const keys = new Float64Array(ids.length);
    // 32-bit rank times 2^21 plus the id (< 2^21) stays exact in a double
    for (let k = 0; k < ids.length; k++)
      keys[k] = (col ? col[ids[k]] : hash32(ids[k], queryHash, 23)) * 2 ** 21 + ids[k];
    const top = smallest(keys, limit);
    const out = new Int32Array(top.length);
    for (let k = 0; k < top.length; k++) out[k] = top[k] % 2 ** 21;
    return out;
  }
}

/** The `limit` smallest values, ascending (a bounded max-heap: O(n log limit)). */
function smallest(keys: Float64Array, limit: number): Float64Array {
  if (keys.length <= limit * 4) return keys.sort().subarray(0, Math.min(limit, keys.length));
  const heap = new Float64Array(limit);
  let n = 0;
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && heap[l] > heap[m]) m = l;
      if (r < n && heap[r] > heap[m]) m = r;
      if (m === i) return;
      const t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
  };
  for (const v of keys) {
    if (n < limit) {
      let i = n++;
      heap[i] = v;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heap[p] >= heap[i]) break;
        const t = heap[i];
        heap[i] = heap[p];
        heap[p] = t;
        i = p;
      }
    } else if (v < heap[0]) {
      heap[0] = v;
      down(0);
    }
  }
  return heap.subarray(0, n).sort();
}

function invert(column: Uint16Array, domain: number): Int32Array[] {
  const counts = new Int32Array(domain);
  for (const v of column) counts[v]++;
  const lists = Array.from(counts, (c) => new Int32Array(c));
  const fill = new Int32Array(domain);
  for (let i = 0; i < column.length; i++) lists[column[i]][fill[column[i]]++] = i;
  return lists;
}

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return Int32Array.from(out);
}
