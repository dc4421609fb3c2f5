/**
 * The contract between crawler processes and whatever connects them (in memory on one machine,
 * Redis across machines): membership with heartbeats, per-bucket queues with acknowledged
 * delivery (a delivery not acknowledged stays pending and can be claimed by the bucket's next
 * owner), an atomic claim of each URL before it is fetched (no URL fetched twice, a global page
 * budget) and the counters that tell when the whole crawl is quiet.
 */
export interface Member {
  id: string;
  datacentre: string;
  /** Last heartbeat, ms since the epoch. */
  beat: number;
}

export interface UrlMessage {
  url: string;
  score: number;
  depth: number;
}

export interface Delivery {
  /** Transport id, used to acknowledge. */
  id: string;
  bucket: string;
  msg: UrlMessage;
}

export type ClaimResult = 'ok' | 'done' | 'taken' | 'budget';

export interface Coordinator {
  /** Registers or refreshes a member (the heartbeat). */
  heartbeat(m: Member): Promise<void>;
  leave(id: string): Promise<void>;
  /** Members whose heartbeat is younger than deadMs; older ones are removed. */
  members(deadMs: number): Promise<Member[]>;
  /** Queues messages in buckets, counting them as outstanding. */
  publish(items: readonly { bucket: string; msg: UrlMessage }[]): Promise<void>;
  /** Queues the seeds once per crawl (later calls do nothing); true if this call queued them. */
  seed(items: readonly { bucket: string; msg: UrlMessage }[]): Promise<boolean>;
  /** New messages of the given buckets for this consumer (at most max). */
  read(consumer: string, buckets: readonly string[], max: number): Promise<Delivery[]>;
  /** Takes over messages of the given buckets delivered to other consumers and unacknowledged for idleMs. */
  reclaim(consumer: string, buckets: readonly string[], idleMs: number, max: number): Promise<Delivery[]>;
  /** Acknowledges deliveries; each message counts as settled once. */
  ack(items: readonly Delivery[]): Promise<void>;
  /**
   * Claims a URL for fetching by `member`: 'done' if fetched already, 'taken' if another member
   * holds it and has beaten within deadMs, 'budget' if the global page budget is spent, else
   * 'ok' (counted against it). Liveness is judged here, from heartbeats, not by the caller.
   */
  claim(url: string, member: string, budget: number, deadMs: number): Promise<ClaimResult>;
  /** Marks a claimed URL fetched. */
  done(url: string): Promise<void>;
  /** Messages published and settled so far, and pages claimed. */
  counters(): Promise<{ published: number; settled: number; pages: number }>;
  close(): Promise<void>;
}
