/**
 * A built-in's parameters as its descriptor declares them (experiments/strategy-registry.ts
 * resolveParams): defaults, overrides, and refusals that say where a setting goes instead.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams } from './strategy-registry.ts';

describe('strategy parameters', () => {
  it('declared parameters have defaults; unknown names and bad values are refused', () => {
    expect(resolveParams('best-n-first')).toEqual({ n: 256 });
    expect(resolveParams('best-n-first', { n: 64 })).toEqual({ n: 64 });
    expect(() => resolveParams('best-n-first', { m: 1 })).toThrow(/"m" is not one of n/);
    expect(() => resolveParams('best-n-first', { n: 0.5 })).toThrow(/whole number/);
    expect(() => resolveParams('bfs', { n: 1 })).toThrow(/takes no parameters\)$/);
    // a name on Object.prototype is no parameter (it crashed on the missing range before)
    expect(() => resolveParams('best-n-first', { constructor: 1 })).toThrow(/"constructor" is not one of n/);
    expect(() => resolveParams('best-n-first', { toString: 1 })).toThrow(/"toString" is not one of n/);
    expect(() => resolveParams('best-n-first', JSON.parse('{"__proto__": 1}'))).toThrow(/"__proto__" is not one of n/);
    // a built-in set by a section of the config points there (issue #87)
    expect(() => resolveParams('future', { gamma: 1.5 })).toThrow(
      'future: parameter "gamma" is not one of (none: it takes no parameters); future reads the config\'s section ' +
        '"future": set it there ("future": {"gamma": 1.5}, or --set future.gamma=1.5)',
    );
  });
});
