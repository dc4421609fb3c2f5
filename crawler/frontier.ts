/**
 * The frontier: queued URLs ordered by the strategy's score (ties: first discovered first),
 * kept in per-host binary heaps so that a host that must wait does not block the others, and a
 * heap of hosts keyed by their best entry. Entries live in a columnar slab (strings plus typed
 * arrays) rather than one object each: about 150 bytes per queued URL (npm run bench:frontier).
 */
import { grown } from '../lib/typed-arrays.ts';

export interface QueueEntry {
  url: string;
  host: string;
  score: number;
  depth: number;
  /** Sequence number of the page the link was found on (-1 for seeds). */
  parent: number;
  /** Redirect hops that led here. */
  redirects: number;
  /** Discovery order; breaks ties between equal scores (FIFO). */
  seq: number;
}

class Slab {
  urls: (string | null)[] = [];
  score = new Float64Array(1024);
  seq = new Float64Array(1024);
  parent = new Int32Array(1024);
  depth = new Uint16Array(1024);
  redirects = new Uint8Array(1024);
  host = new Int32Array(1024);
  /** Position of the entry in its host's heap (for priority updates). */
  hpos = new Int32Array(1024);
  private free: number[] = [];

  alloc(): number {
    if (this.free.length) return this.free.pop()!;
    const i = this.urls.length;
    if (i === this.score.length) this.grow();
    this.urls.push(null);
    return i;
  }
  release(i: number): void {
    this.urls[i] = null;
    this.free.push(i);
  }
  private grow(): void {
    const n = this.score.length * 2;
    this.score = grown(this.score, n);
    this.seq = grown(this.seq, n);
    this.parent = grown(this.parent, n);
    this.depth = grown(this.depth, n);
    this.redirects = grown(this.redirects, n);
    this.host = grown(this.host, n);
    this.hpos = grown(this.hpos, n);
  }
}

/** A binary max-heap of slab indices by (score desc, seq asc). */
class EntryHeap {
  items = new Int32Array(16);
  size = 0;
  constructor(private readonly slab: Slab) {}
  better(a: number, b: number): boolean {
    const s = this.slab;
    return s.score[a] > s.score[b] || (s.score[a] === s.score[b] && s.seq[a] < s.seq[b]);
  }
  push(i: number): void {
    if (this.size === this.items.length) {
      const b = new Int32Array(this.size * 2);
      b.set(this.items);
      this.items = b;
    }
    this.items[this.size] = i;
    this.siftUp(this.size++);
  }
  /** Moves the item at position k up to its place. */
  siftUp(k: number): void {
    const it = this.items;
    const hpos = this.slab.hpos;
    const i = it[k];
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.better(i, it[p])) break;
      it[k] = it[p];
      hpos[it[k]] = k;
      k = p;
    }
    it[k] = i;
    hpos[i] = k;
  }
  /** Moves the item at position k down to its place. */
  siftDown(k: number): void {
    const it = this.items;
    const hpos = this.slab.hpos;
    const i = it[k];
    for (;;) {
      let c = 2 * k + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && this.better(it[c + 1], it[c])) c++;
      if (!this.better(it[c], i)) break;
      it[k] = it[c];
      hpos[it[k]] = k;
      k = c;
    }
    it[k] = i;
    hpos[i] = k;
  }
  top(): number {
    return this.items[0];
  }
  pop(): number {
    const it = this.items;
    const out = it[0];
    const last = it[--this.size];
    if (this.size > 0) {
      it[0] = last;
      this.siftDown(0);
    }
    if (this.size < this.items.length / 4 && this.items.length > 16)
      this.items = this.items.slice(0, Math.max(16, this.items.length / 2));
    return out;
  }
}

export class Frontier {
  private readonly slab = new Slab();
  private readonly hostIds = new Map<string, number>();
  private readonly hostNames: string[] = [];
  private readonly queues: EntryHeap[] = [];
  /** Heap of host ids by their best entry; pos[h] = index in hostHeap or -1. */
  private hostHeap: number[] = [];
  private pos: number[] = [];
  /** URL -> slab index, built at the first priority update: a crawl that never updates pays nothing. */
  private index: Map<string, number> | null = null;
  size = 0;

  hostId(host: string): number {
    let h = this.hostIds.get(host);
    if (h === undefined) {
      h = this.hostNames.length;
      this.hostIds.set(host, h);
      this.hostNames.push(host);
      this.queues.push(new EntryHeap(this.slab));
      this.pos.push(-1);
    }
    return h;
  }

  push(e: QueueEntry): void {
    const s = this.slab;
    const i = s.alloc();
    const h = this.hostId(e.host);
    s.urls[i] = e.url;
    s.score[i] = e.score;
    s.seq[i] = e.seq;
    s.parent[i] = e.parent;
    s.depth[i] = Math.min(e.depth, 65535);
    s.redirects[i] = Math.min(e.redirects, 255);
    s.host[i] = h;
    this.queues[h].push(i);
    this.index?.set(e.url, i);
    this.size++;
    if (this.pos[h] < 0) this.heapInsert(h);
    else this.siftUp(this.pos[h]);
  }

  /** Removes and returns the best entry among hosts for which eligible(host) holds. */
  next(eligible: (host: string) => boolean = () => true): QueueEntry | null {
    const aside: number[] = [];
    let found: QueueEntry | null = null;
    while (this.hostHeap.length) {
      const h = this.hostHeap[0];
      if (!eligible(this.hostNames[h])) {
        this.heapRemoveTop();
        aside.push(h);
        continue;
      }
      const i = this.queues[h].pop();
      found = this.read(i);
      this.index?.delete(found.url);
      this.slab.release(i);
      this.size--;
      if (this.queues[h].size === 0) this.heapRemoveTop();
      else this.siftDown(0);
      break;
    }
    for (const h of aside) this.heapInsert(h);
    return found;
  }

  /**
   * Gives a queued URL a new priority (OPIC's cash, an agent's changed estimate); returns the
   * updated entry, or null if the URL is not queued (fetched already, or never queued).
   */
  update(url: string, score: number): QueueEntry | null {
    if (!this.index) {
      this.index = new Map();
      for (const q of this.queues)
        for (let k = 0; k < q.size; k++) this.index.set(this.slab.urls[q.items[k]]!, q.items[k]);
    }
    const i = this.index.get(url);
    if (i === undefined) return null;
    const s = this.slab;
    const up = score > s.score[i];
    s.score[i] = score;
    const h = s.host[i];
    if (up) this.queues[h].siftUp(s.hpos[i]);
    else this.queues[h].siftDown(s.hpos[i]);
    // the host's best entry may have changed: its place among the hosts too
    this.siftUp(this.pos[h]);
    this.siftDown(this.pos[h]);
    return this.read(i);
  }

  /** Hosts that have queued URLs. */
  hostsWithWork(): string[] {
    return this.hostHeap.map((h) => this.hostNames[h]);
  }

  /** Drops every queued URL of a host; returns how many. */
  dropHost(host: string): number {
    const h = this.hostIds.get(host);
    if (h === undefined) return 0;
    const q = this.queues[h];
    const n = q.size;
    while (q.size) {
      const i = q.pop();
      this.index?.delete(this.slab.urls[i]!);
      this.slab.release(i);
    }
    this.size -= n;
    if (this.pos[h] >= 0) this.heapRemoveAt(this.pos[h]);
    return n;
  }

  /** Every queued entry (for checkpoints and tests), in no particular order. */
  *entries(): Generator<QueueEntry> {
    for (const q of this.queues) for (let k = 0; k < q.size; k++) yield this.read(q.items[k]);
  }

  private read(i: number): QueueEntry {
    const s = this.slab;
    return {
      url: s.urls[i]!,
      host: this.hostNames[s.host[i]],
      score: s.score[i],
      depth: s.depth[i],
      parent: s.parent[i],
      redirects: s.redirects[i],
      seq: s.seq[i],
    };
  }

  // ---- indexed heap of hosts ----
  private hostBetter(a: number, b: number): boolean {
    return this.queues[a].better(this.queues[a].top(), this.queues[b].top());
  }
  private heapInsert(h: number): void {
    this.hostHeap.push(h);
    this.pos[h] = this.hostHeap.length - 1;
    this.siftUp(this.hostHeap.length - 1);
  }
  private heapRemoveTop(): void {
    this.heapRemoveAt(0);
  }
  private heapRemoveAt(k: number): void {
    const hh = this.hostHeap;
    const h = hh[k];
    const last = hh.pop()!;
    this.pos[h] = -1;
    if (k < hh.length) {
      hh[k] = last;
      this.pos[last] = k;
      this.siftDown(k);
      this.siftUp(this.pos[last]);
    }
  }
  private siftUp(k: number): void {
    const hh = this.hostHeap;
    const h = hh[k];
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!this.hostBetter(h, hh[p])) break;
      hh[k] = hh[p];
      this.pos[hh[k]] = k;
      k = p;
    }
    hh[k] = h;
    this.pos[h] = k;
  }
  private siftDown(k: number): void {
    const hh = this.hostHeap;
    const h = hh[k];
    for (;;) {
      let c = 2 * k + 1;
      if (c >= hh.length) break;
      if (c + 1 < hh.length && this.hostBetter(hh[c + 1], hh[c])) c++;
      if (!this.hostBetter(hh[c], h)) break;
      hh[k] = hh[c];
      this.pos[hh[k]] = k;
      k = c;
    }
    hh[k] = h;
    this.pos[h] = k;
  }
}
