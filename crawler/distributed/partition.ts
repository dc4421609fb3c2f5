/**
 * Who crawls a host. Level one: the data centre, by region (geo-affinity: a host goes to a
 * centre in its own region, looked up in a GeoIP-like table; hosts of regions without a centre,
 * and hosts the table lacks, fall back to hashing), by consistent hashing over the centres (the
 * baseline) or all to one centre. Level two: within the centre, the host's bucket goes to one
 * of the centre's live processes by consistent hashing. Buckets (a fixed number per centre)
 * are the unit of ownership and of the transport's queues, so a membership change moves whole
 * queues, never single URLs.
 */
import { fingerprint } from '../url.ts';
import { HashRing } from './ring.ts';

export type Assignment = 'geo' | 'hash' | 'single';
export const ASSIGNMENTS: readonly Assignment[] = ['geo', 'hash', 'single'];

export interface DataCentre {
  name: string;
  region: string;
}

export interface PartitionOptions {
  datacentres: DataCentre[];
  assignment: Assignment;
  /** Host -> region (e.g. from a GeoIP table); undefined when unknown. */
  hostRegion: (host: string) => string | undefined;
  /** Buckets per data centre (default 64). */
  buckets?: number;
}

export class Partitioner {
  readonly buckets: number;
  private readonly dcRing: HashRing;
  private readonly byRegion = new Map<string, string[]>();
  private readonly cache = new Map<string, string>();

  constructor(readonly o: PartitionOptions) {
    if (!o.datacentres.length) throw new Error('at least one data centre is needed');
    this.buckets = o.buckets ?? 64;
    this.dcRing = new HashRing(o.datacentres.map((d) => d.name));
    for (const d of o.datacentres) this.byRegion.set(d.region, [...(this.byRegion.get(d.region) ?? []), d.name]);
  }

  /** The data centre that crawls host. */
  datacentreOf(host: string): string {
    const o = this.o;
    if (o.assignment === 'single') return o.datacentres[0].name;
    if (o.assignment === 'geo') {
      const region = o.hostRegion(host);
      const local = region === undefined ? undefined : this.byRegion.get(region);
      if (local?.length === 1) return local[0];
      if (local?.length) return new HashRing(local).owner(host)!;
    }
    return this.dcRing.owner(host)!;
  }

  /** The queue a host's URLs go to: "<centre>/<n>". */
  bucketOf(host: string): string {
    let b = this.cache.get(host);
    if (!b) {
      b = `${this.datacentreOf(host)}/${(fingerprint(host)[1] >>> 0) % this.buckets}`;
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(host, b);
    }
    return b;
  }

  /** Every bucket of a centre. */
  bucketsOf(dc: string): string[] {
    return Array.from({ length: this.buckets }, (_, i) => `${dc}/${i}`);
  }

  /** The buckets of `dc` that `member` owns among the centre's live members. */
  owned(dc: string, liveMembers: readonly string[], member: string): string[] {
    const ring = new HashRing([...liveMembers].sort());
    return this.bucketsOf(dc).filter((b) => ring.owner(b) === member);
  }
}
