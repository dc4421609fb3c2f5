import { describe, expect, it } from 'vitest';
import { PageCache } from './page-cache.ts';

const page = (n: number) => ({ body: Buffer.alloc(n) });

describe('PageCache', () => {
  it('drops the least recently used pages once the bodies pass the bound', () => {
    const c = new PageCache(100);
    c.put(1, page(40));
    c.put(2, page(40));
    expect(c.get(1)).toBeDefined(); // 1 is now the most recent
    c.put(3, page(40)); // 120 bytes: 2 goes
    expect(c.get(2)).toBeUndefined();
    expect(c.get(1)?.body.length).toBe(40);
    expect(c.get(3)?.body.length).toBe(40);
    expect(c.bytes).toBe(80);
  });

  it('keeps nothing at bound 0, nor a page larger than the bound, and counts a page once', () => {
    const off = new PageCache(0);
    const p = page(10);
    expect(off.put(1, p)).toBe(p);
    expect(off.size).toBe(0);
    const c = new PageCache(50);
    c.put(1, page(60));
    expect(c.size).toBe(0);
    c.put(2, page(30));
    c.put(2, page(30));
    expect(c.bytes).toBe(30);
  });
});
