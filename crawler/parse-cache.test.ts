/** The parse cache: one parse per response content, a changed body parsed anew, the oldest dropped. */
import { describe, expect, it } from 'vitest';
import { ParseCache } from './parse-cache.ts';
import { parseBody } from './parser.ts';
import { DEFAULT_SETTINGS } from './settings.ts';

const html = (t: string): Buffer => Buffer.from(`<html><title>${t}</title><a href="/x">x</a></html>`);
const parse = (url: string, body: Buffer) => (): ReturnType<typeof parseBody> =>
  parseBody(body, 'text/html', url, DEFAULT_SETTINGS, DEFAULT_SETTINGS.aroundWords);

describe('ParseCache', () => {
  it('parses a response once, a changed body or another URL again, and forgets the oldest past its size', () => {
    const c = new ParseCache(2);
    const a1 = c.get('http://a.test/', 'text/html', html('one'), parse('http://a.test/', html('one')));
    const a2 = c.get('http://a.test/', 'text/html', html('one'), () => {
      throw new Error('parsed twice');
    });
    expect(a2).toBe(a1);
    expect(a1.title).toBe('one');
    // the same URL with another body, and another URL with the same body: new parses
    expect(c.get('http://a.test/', 'text/html', html('two'), parse('http://a.test/', html('two'))).title).toBe('two');
    const b = c.get('http://b.test/', 'text/html', html('one'), parse('http://b.test/', html('one')));
    expect(b.links[0].url).toBe('http://b.test/x');
    expect([c.hits, c.misses]).toEqual([1, 3]);
    // size 2: the first entry is gone
    let again = false;
    c.get('http://a.test/', 'text/html', html('one'), () => {
      again = true;
      return a1;
    });
    expect(again).toBe(true);
  });
});
