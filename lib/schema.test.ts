import { describe, expect, it } from 'vitest';
import {
  bool,
  defaultsOf,
  list,
  map,
  num,
  numberFieldsOf,
  numOrNull,
  obj,
  oneOf,
  optional,
  problemOf,
  publishedSchema,
  resolveWith,
  schemaHelp,
  str,
  Type,
  withDefaults,
} from './schema.ts';

const S = obj({
  name: str({ default: 'x', help: 'a name' }),
  budget: num({ default: 100, min: 10, integer: true, help: 'fetches', flag: 'budget' }),
  cap: num({ default: Infinity, min: 1, integer: true, help: 'unlimited by default' }),
  mode: oneOf(['a', 'b'], { default: 'a', help: 'a mode' }),
  inner: obj({
    share: num({ default: 0.5, min: 0, max: 1, help: 'a share' }),
    r: numOrNull({ default: null, min: 0, max: 1, help: 'threshold' }),
    on: bool({ default: true, help: 'a switch' }),
  }),
  items: list(obj({ host: str({ help: 'required host' }), pages: num({ default: 7, min: 1, help: 'pages' }) }), {
    default: [],
    maxItems: 3,
    help: 'items',
  }),
  band: Type.Tuple([Type.Number(), Type.Number()], { default: [1, 2], description: 'a band' }),
  groups: map(list(Type.String(), { minItems: 1, help: 'hosts' }), { default: {}, help: 'groups' }),
  extra: optional(str({ help: 'optional' })),
});

describe('schemas (lib/schema.ts)', () => {
  it('fills defaults at every depth, in list items too, and keeps the schema order', () => {
    const v = withDefaults(S, { inner: { share: 0.2 }, items: [{ host: 'h' }], $schema: 'x.json', _doc: 'c' });
    expect(v).toEqual({
      name: 'x',
      budget: 100,
      cap: Infinity,
      mode: 'a',
      inner: { share: 0.2, r: null, on: true },
      items: [{ host: 'h', pages: 7 }],
      band: [1, 2],
      groups: {},
    });
    expect(Object.keys(v as object)[0]).toBe('name');
    expect(defaultsOf(S)).toMatchObject({ inner: { share: 0.5, r: null, on: true } });
  });

  it('names the first problem with its JSON path, in the project wording', () => {
    const bad = (over: object) => problemOf(S, withDefaults(S, over));
    expect(bad({})).toBeNull();
    expect(bad({ budget: 9 })).toBe('budget: expected a whole number >= 10, got 9');
    expect(bad({ budget: '20' })).toBe('budget: expected a whole number >= 10, got "20"');
    expect(bad({ inner: { share: 2 } })).toBe('inner.share: expected a number from 0 to 1, got 2');
    expect(bad({ inner: { r: 'x' } })).toBe('inner.r: expected a number from 0 to 1 (or null), got "x"');
    expect(bad({ inner: { on: 1 } })).toBe('inner.on: expected true or false, got 1');
    expect(bad({ inner: { typo: 1 } })).toBe('inner.typo: unknown field');
    expect(bad({ mode: 'c' })).toBe('mode: "c" is not one of a, b');
    expect(bad({ items: [{ host: 'h' }, { pages: 2 }] })).toBe('items[1].host: required (a string)');
    expect(bad({ items: [{ host: 'h', pages: 0 }] })).toBe('items[0].pages: expected a number >= 1, got 0');
    expect(bad({ items: [1, 2, 3, 4] })).toBe('items: expected a list of 0 to 3 items, got 4');
    expect(bad({ band: [1, 'x'] })).toBe('band[1]: expected a number, got "x"');
    expect(bad({ groups: { g: [] } })).toBe('groups.g: expected a list of at least 1 item, got 0');
    expect(bad({ inner: { $schema: 'x' } })).toBe('inner.$schema: unknown field');
    // Object.prototype's names are no field (a "constructor" key passed the check once)
    expect(bad(JSON.parse('{"constructor": 1}'))).toMatch(/^constructor: unknown field/);
    expect(bad(JSON.parse('{"inner": {"toString": 1}}'))).toMatch(/^inner\.toString: unknown field/);
    // an unlimited whole number may be Infinity (in code; JSON cannot write it)
    expect(bad({ cap: Infinity })).toBeNull();
    expect(bad({ cap: 2.5 })).toBe('cap: expected a whole number >= 1, got 2.5');
    expect(() => resolveWith(S, [], (m) => new Error(m))).toThrow('config: expected a JSON object');
  });

  it('derives the help lines and the numeric fields', () => {
    const help = schemaHelp(S);
    expect(help).toMatch(/^ {2}budget +100 +>= 10 whole +fetches$/m);
    expect(help).toMatch(/^ {2}cap +unlimited +>= 1 whole/m);
    expect(help).toMatch(/^ {2}inner\.r +null +\[0, 1\] or null +threshold$/m);
    expect(help).toMatch(/^ {2}mode +"a" +a\|b +a mode$/m);
    expect(help).toMatch(/^ {2}extra +\(optional\)/m);
    const nums = numberFieldsOf(S);
    expect(nums.map((f) => f.path)).toEqual(['budget', 'cap', 'inner.share']);
    expect(nums[0]).toMatchObject({ default: 100, min: 10, max: Infinity, integer: true, flag: 'budget' });
  });

  it('publishes JSON Schema: defaulted fields not required, tuples as prefixItems, no Infinity', () => {
    const j = publishedSchema(S, { id: 'https://x.invalid/s.json', title: 'T', description: 'D' }) as Record<
      string,
      never
    >;
    expect(j.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(j.required).toBeUndefined();
    const p = j.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(p)[0]).toBe('$schema');
    expect(p.cap).not.toHaveProperty('default');
    expect(p.budget).not.toHaveProperty('flag');
    expect(p.band).toMatchObject({ prefixItems: [{ type: 'number' }, { type: 'number' }], items: false });
    expect((p.items as { items: { required: string[] } }).items.required).toEqual(['host']);
  });
});
