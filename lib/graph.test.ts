import { describe, expect, it } from 'vitest';
import { breadthFirstPrefix, pathSample } from './graph.ts';

/** CSR from adjacency lists. */
const csr = (lists: number[][]) => {
  const outStart = [0];
  const outTarget: number[] = [];
  for (const l of lists) {
    outTarget.push(...l);
    outStart.push(outTarget.length);
  }
  return { outStart, outTarget };
};

describe('samples of a large site', () => {
  // 0 links 1-4 (shallow pages) and 5; 5 -> 6 -> 7, and 7 lists the targets 8 and 9
  const g = csr([[1, 2, 3, 4, 5], [], [], [], [], [6], [7], [8, 9], [], []]);
  const target = (v: number): boolean => v === 8 || v === 9;

  it('takes the first pages breadth-first, by hops then index', () => {
    expect(breadthFirstPrefix(g, 0, 4)).toEqual([0, 1, 2, 3]);
    expect(breadthFirstPrefix(g, 0, 100)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // kept to a range of nodes
    expect(breadthFirstPrefix(g, 0, 100, 0, 6)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('keeps the path to a deep target, and the targets its pages link, where a prefix has none', () => {
    expect(breadthFirstPrefix(g, 0, 6).filter(target)).toEqual([]);
    const s = pathSample(g, 0, 8, target);
    expect(s).toHaveLength(8);
    // the path 0, 5, 6, 7, both targets 7 lists, then the nearest pages
    expect(s).toEqual([0, 1, 2, 5, 6, 7, 8, 9]);
    expect(s.filter(target)).toEqual([8, 9]);
    // never more than the limit, and the whole site when it fits
    expect(pathSample(g, 0, 100, target)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pathSample(g, 0, 3, target)).toHaveLength(3);
  });
});
