import { describe, expect, it } from 'vitest';
import { checkNumbers, fieldsHelp, getPath, numberDefaults, numberProblem, type NumberField } from './fields.ts';

const FIELDS: NumberField[] = [
  { path: 'budget', default: 100, min: 10, max: Infinity, integer: true, help: 'pages' },
  { path: 'a.share', default: 0.5, min: 0, max: 1, open: true, help: 'a share' },
  { path: 'a.b.threshold', default: null, min: 0, max: 1, nullable: true, help: 'null: calibrated' },
];

describe('numeric field tables', () => {
  it('derive nested defaults', () => {
    expect(numberDefaults(FIELDS)).toEqual({ budget: 100, a: { share: 0.5, b: { threshold: null } } });
    expect(getPath({ a: { b: 3 } }, 'a.b')).toBe(3);
    expect(getPath({ a: 1 }, 'a.b')).toBeUndefined();
  });

  it('check ranges, whole numbers, open bounds and null, naming the first bad field', () => {
    const ok = { budget: 10, a: { share: 0.99, b: { threshold: null } } };
    expect(checkNumbers(FIELDS, ok)).toBeNull();
    expect(checkNumbers(FIELDS, { ...ok, budget: 9 })).toBe('budget: expected a whole number >= 10, got 9');
    expect(checkNumbers(FIELDS, { ...ok, budget: 10.5 })).toMatch(/^budget: expected a whole number/);
    expect(checkNumbers(FIELDS, { ...ok, budget: '20' })).toBe('budget: expected a whole number >= 10, got "20"');
    expect(checkNumbers(FIELDS, { ...ok, a: { share: 1, b: {} } })).toBe(
      'a.share: expected a number between 0 and 1, got 1',
    );
    expect(numberProblem(FIELDS[2], 1)).toBeNull();
    expect(numberProblem(FIELDS[2], 2)).toBe('expected a number from 0 to 1 (or null), got 2');
    expect(numberProblem(FIELDS[0], null)).toMatch(/got null$/);
    expect(numberProblem(FIELDS[0], Number.NaN)).not.toBeNull();
    // unlimited: Infinity passes a whole-number field only when its maximum is Infinity
    expect(numberProblem(FIELDS[0], Infinity)).toBeNull();
    expect(numberProblem({ min: 0, max: 100, integer: true }, Infinity)).toMatch(/got null$/);
  });

  it('print one help line per field with its default and range', () => {
    const lines = fieldsHelp(FIELDS).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ {2}budget +100 +>= 10 whole +pages$/);
    expect(lines[1]).toMatch(/^ {2}a\.share +0\.5 +\(0, 1\) +a share$/);
    expect(lines[2]).toMatch(/^ {2}a\.b\.threshold +null +\[0, 1\] or null +null: calibrated$/);
  });
});
