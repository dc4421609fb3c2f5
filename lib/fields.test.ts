import { describe, expect, it } from 'vitest';
import { getPath, numberProblem, type NumberField, prototypePart, rangeText, setPath } from './fields.ts';

const FIELDS: NumberField[] = [
  { path: 'budget', default: 100, min: 10, max: Infinity, integer: true, help: 'pages' },
  { path: 'a.share', default: 0.5, min: 0, max: 1, open: true, help: 'a share' },
  { path: 'a.b.threshold', default: null, min: 0, max: 1, nullable: true, help: 'null: calibrated' },
];

describe('numbers and paths', () => {
  it('reads and writes dotted paths', () => {
    expect(getPath({ a: { b: 3 } }, 'a.b')).toBe(3);
    expect(getPath({ a: 1 }, 'a.b')).toBeUndefined();
    const o: Record<string, unknown> = {};
    setPath(o, 'x.y', 2);
    expect(o).toEqual({ x: { y: 2 } });
  });

  it('refuses a path through the prototype, and pollutes nothing', () => {
    for (const path of ['__proto__.polluted', 'a.constructor.prototype.polluted', '__proto__', 'x.prototype']) {
      const o: Record<string, unknown> = { a: {} };
      expect(() => setPath(o, path, 1), path).toThrow(/is not a field name$/);
      expect(prototypePart(path)).toMatch(/^(__proto__|constructor|prototype)$/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(prototypePart('crawl.delayMs')).toBeUndefined();
  });

  it('checks ranges, whole numbers, open bounds and null', () => {
    expect(numberProblem(FIELDS[0]!, 9)).toBe('expected a whole number >= 10, got 9');
    expect(numberProblem(FIELDS[0]!, 10.5)).toMatch(/^expected a whole number/);
    expect(numberProblem(FIELDS[0]!, '20')).toBe('expected a whole number >= 10, got "20"');
    expect(numberProblem(FIELDS[1]!, 1)).toBe('expected a number between 0 and 1, got 1');
    expect(numberProblem(FIELDS[2]!, 1)).toBeNull();
    expect(numberProblem(FIELDS[2]!, 2)).toBe('expected a number from 0 to 1 (or null), got 2');
    expect(numberProblem(FIELDS[0]!, null)).toMatch(/got null$/);
    expect(numberProblem(FIELDS[0]!, Number.NaN)).not.toBeNull();
    // unlimited: Infinity passes a whole-number field only when its maximum is Infinity
    expect(numberProblem(FIELDS[0]!, Infinity)).toBeNull();
    expect(numberProblem({ min: 0, max: 100, integer: true }, Infinity)).toMatch(/got null$/);
    expect(rangeText({ min: -Infinity, max: Infinity })).toBe('a number');
  });
});
