import { describe, expect, it } from 'vitest';
import { type GraphPage, HorizonOne, localValue } from './local-values.ts';

/** A seeded uniform in [0, 1) (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('Q at horizon 1 kept as pages are crawled', () => {
  it('equals the breadth-first search to the last bit, through duplicates, self-links, pages never crawled and pages crawled again', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = rng(seed);
      const universe = 400;
      const nodes: GraphPage[] = [];
      const urls: string[] = [];
      const index = new Map<string, number>();
      const local = new HorizonOne(nodes, urls, index);
      const gamma = 0.3 + r() * 0.6;
      const page = (): GraphPage => ({
        // links to any of the universe (most never crawled), some twice, now and then to itself
        links: Array.from({ length: Math.floor(r() * 30) }, () => `u${Math.floor(r() * universe)}`),
        relevant: r() < 0.3,
      });
      for (let step = 0; step < 300; step++) {
        const url = `u${Math.floor(r() * universe)}`;
        const known = index.get(url);
        if (known !== undefined) {
          nodes[known] = page();
          local.replace();
        } else {
          const i = nodes.length;
          index.set(url, i);
          nodes.push(page());
          urls.push(url);
          local.add(i);
        }
        if (step % 25 === 24)
          for (let v = 0; v < nodes.length; v++)
            expect(
              Object.is(local.value(v, gamma), localValue(nodes, index, v, gamma, 1)),
              `seed ${seed} page ${v}`,
            ).toBe(true);
      }
    }
  });

  it('counts relevant pages it links to, once each, crawled before or after it', () => {
    const nodes: GraphPage[] = [];
    const urls: string[] = [];
    const index = new Map<string, number>();
    const local = new HorizonOne(nodes, urls, index);
    const crawl = (url: string, links: string[], relevant: boolean): void => {
      index.set(url, nodes.length);
      nodes.push({ links, relevant });
      urls.push(url);
      local.add(nodes.length - 1);
    };
    crawl('a', ['b', 'b', 'c', 'a'], false);
    crawl('b', [], true);
    expect(local.value(0, 0.5)).toBe(0.5);
    crawl('c', ['a'], true);
    expect(local.value(0, 0.5)).toBe(1);
    expect(local.value(2, 0.5)).toBe(1);
  });
});
