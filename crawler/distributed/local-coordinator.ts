/**
 * The coordinator for one machine: everything in one object, shared by the crawler processes
 * of this process (directly) or of worker threads (through thread.ts). Same semantics as the
 * Redis coordinator: pending deliveries, reclaim after idle time, claims, budget, counters.
 */
import type { ClaimResult, Coordinator, Delivery, Member, UrlMessage } from './coordinator.ts';

interface Entry {
  id: string;
  msg: UrlMessage;
  consumer: string | null;
  at: number;
}

export class MemoryCoordinator implements Coordinator {
  private readonly memberMap = new Map<string, Member>();
  private readonly queues = new Map<string, { unread: Entry[]; pending: Map<string, Entry> }>();
  private readonly claims = new Map<string, string>();
  private readonly fetched = new Set<string>();
  private seq = 0;
  private seeded = false;
  private published = 0;
  private settled = 0;
  private pages = 0;

  private queue(bucket: string): { unread: Entry[]; pending: Map<string, Entry> } {
    let q = this.queues.get(bucket);
    if (!q) this.queues.set(bucket, (q = { unread: [], pending: new Map() }));
    return q;
  }

  async heartbeat(m: Member): Promise<void> {
    this.memberMap.set(m.id, { ...m });
  }

  async leave(id: string): Promise<void> {
    this.memberMap.delete(id);
  }

  async members(deadMs: number): Promise<Member[]> {
    const now = Date.now();
    for (const [id, m] of this.memberMap) if (now - m.beat > deadMs) this.memberMap.delete(id);
    return [...this.memberMap.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async publish(items: readonly { bucket: string; msg: UrlMessage }[]): Promise<void> {
    for (const it of items)
      this.queue(it.bucket).unread.push({ id: String(++this.seq), msg: it.msg, consumer: null, at: 0 });
    this.published += items.length;
  }

  async seed(items: readonly { bucket: string; msg: UrlMessage }[]): Promise<boolean> {
    if (this.seeded) return false;
    this.seeded = true;
    await this.publish(items);
    return true;
  }

  async read(consumer: string, buckets: readonly string[], max: number): Promise<Delivery[]> {
    const out: Delivery[] = [];
    const now = Date.now();
    for (const b of buckets) {
      const q = this.queues.get(b);
      while (q?.unread.length && out.length < max) {
        const e = q.unread.shift()!;
        e.consumer = consumer;
        e.at = now;
        q.pending.set(e.id, e);
        out.push({ id: e.id, bucket: b, msg: e.msg });
      }
      if (out.length >= max) break;
    }
    return out;
  }

  async reclaim(consumer: string, buckets: readonly string[], idleMs: number, max: number): Promise<Delivery[]> {
    const out: Delivery[] = [];
    const now = Date.now();
    for (const b of buckets) {
      const q = this.queues.get(b);
      if (!q) continue;
      for (const e of q.pending.values()) {
        if (out.length >= max) return out;
        if (e.consumer !== consumer && now - e.at >= idleMs) {
          e.consumer = consumer;
          e.at = now;
          out.push({ id: e.id, bucket: b, msg: e.msg });
        }
      }
    }
    return out;
  }

  async ack(items: readonly Delivery[]): Promise<void> {
    for (const d of items) if (this.queues.get(d.bucket)?.pending.delete(d.id)) this.settled++;
  }

  async claim(url: string, member: string, budget: number, deadMs: number): Promise<ClaimResult> {
    if (this.fetched.has(url)) return 'done';
    const c = this.claims.get(url);
    if (c === member) return 'taken'; // a second copy of a URL this member is fetching
    const holder = c === undefined ? undefined : this.memberMap.get(c);
    if (holder && Date.now() - holder.beat <= deadMs) return 'taken';
    if (this.pages >= budget) return 'budget';
    this.pages++;
    this.claims.set(url, member);
    return 'ok';
  }

  async done(url: string): Promise<void> {
    this.fetched.add(url);
    this.claims.delete(url);
  }

  async counters(): Promise<{ published: number; settled: number; pages: number }> {
    return { published: this.published, settled: this.settled, pages: this.pages };
  }

  async close(): Promise<void> {}
}
