import { describe, expect, it } from 'vitest';
import { append } from './arrays.ts';

describe('append', () => {
  it('appends 500,000 elements, where push(...) runs out of stack', () => {
    const many = Array.from({ length: 500_000 }, (_, i) => i);
    expect(() => [0].push(...many)).toThrow(RangeError);
    const into = [-1];
    expect(append(into, many)).toBe(into);
    expect(into).toHaveLength(500_001);
    expect(into.at(-1)).toBe(499_999);
  });
});
