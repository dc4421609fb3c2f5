/**
 * The frontier against a model anyone can check: a plain list, best score first, ties by discovery
 * order, hosts the caller rules out skipped. Thousands of seeded random operations (push, update,
 * next with an eligibility rule, dropHost) must give the same entries in the same order.
 */
import { describe, expect, it } from 'vitest';
import { Sfc32 } from '../lib/rng.ts';
import { Frontier, type QueueEntry } from './frontier.ts';

/** The model: every queued entry in a list; the best is found by a scan. */
class ListFrontier {
  items: QueueEntry[] = [];
  push(e: QueueEntry): void {
    this.items.push({ ...e });
  }
  next(eligible: (host: string) => boolean): QueueEntry | null {
    let best = -1;
    for (let i = 0; i < this.items.length; i++) {
      const e = this.items[i];
      if (!eligible(e.host)) continue;
      const b = this.items[best];
      if (best < 0 || e.score > b.score || (e.score === b.score && e.seq < b.seq)) best = i;
    }
    return best < 0 ? null : this.items.splice(best, 1)[0];
  }
  update(url: string, score: number): QueueEntry | null {
    const e = this.items.find((x) => x.url === url);
    if (!e) return null;
    e.score = score;
    return { ...e };
  }
  dropHost(host: string): number {
    const before = this.items.length;
    this.items = this.items.filter((e) => e.host !== host);
    return before - this.items.length;
  }
}

describe('Frontier', () => {
  it('pops what a plain list would, through pushes, updates, ineligible hosts and dropped hosts', () => {
    for (const seed of [1, 2, 3]) {
      const r = new Sfc32(seed, seed * 7 + 1, seed * 13 + 2, 12);
      const f = new Frontier();
      const m = new ListFrontier();
      const hosts = ['a.test', 'b.test', 'c.test', 'd.test', 'e.test'];
      let seq = 0;
      const queued: string[] = [];
      for (let step = 0; step < 5000; step++) {
        const op = r.next();
        if (op < 0.5) {
          const host = hosts[r.int(hosts.length)];
          // scores from a small set, so that ties (broken by discovery order) are common
          const e: QueueEntry = {
            url: `http://${host}/p${seq}`,
            host,
            score: r.int(8) / 4,
            depth: r.int(9),
            parent: seq - 1,
            redirects: r.int(3),
            seq: seq++,
          };
          f.push(e);
          m.push(e);
          queued.push(e.url);
        } else if (op < 0.65 && queued.length) {
          const url = queued[r.int(queued.length)];
          const score = r.int(8) / 4;
          expect(f.update(url, score)).toEqual(m.update(url, score));
        } else if (op < 0.67) {
          const host = hosts[r.int(hosts.length)];
          expect(f.dropHost(host)).toBe(m.dropHost(host));
        } else {
          const closed = new Set(hosts.filter(() => r.next() < 0.3));
          const eligible = (h: string): boolean => !closed.has(h);
          expect(f.next(eligible)).toEqual(m.next(eligible));
        }
        expect(f.size).toBe(m.items.length);
      }
      expect(new Set(f.hostsWithWork())).toEqual(new Set(m.items.map((e) => e.host)));
      while (m.items.length) expect(f.next()).toEqual(m.next(() => true));
      expect(f.next()).toBeNull();
    }
  });

  it('keeps depth and redirects within their columns', () => {
    const f = new Frontier();
    f.push({ url: 'http://a.test/', host: 'a.test', score: 1, depth: 70000, parent: -1, redirects: 300, seq: 0 });
    expect(f.next()).toMatchObject({ depth: 65535, redirects: 255, parent: -1 });
  });
});
