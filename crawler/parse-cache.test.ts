/** The parse cache: one parse per response content and options, a changed body or option parsed anew, the oldest dropped. */
import { describe, expect, it } from 'vitest';
import { ParseCache } from './parse-cache.ts';
import { DEFAULT_SETTINGS } from './settings.ts';

const html = (t: string): Buffer =>
  Buffer.from(`<html><title>${t}</title><p>one two three four</p><a href="/x?utm_source=s">x</a></html>`);
const D = DEFAULT_SETTINGS;

describe('ParseCache', () => {
  it('parses a response once, a changed body or another URL again, and forgets the oldest past its size', () => {
    const c = new ParseCache(2);
    const a1 = c.parse(html('one'), 'text/html', 'http://a.test/', D, D.aroundWords);
    expect(c.parse(html('one'), 'text/html', 'http://a.test/', D, D.aroundWords)).toBe(a1);
    expect(a1.title).toBe('one');
    // the same URL with another body, and another URL with the same body: new parses
    expect(c.parse(html('two'), 'text/html', 'http://a.test/', D, D.aroundWords).title).toBe('two');
    const b = c.parse(html('one'), 'text/html', 'http://b.test/', D, D.aroundWords);
    expect(b.links[0].url).toBe('http://b.test/x');
    expect([c.hits, c.misses]).toEqual([1, 3]);
    // size 2: the first entry is gone
    expect(c.parse(html('one'), 'text/html', 'http://a.test/', D, D.aroundWords)).not.toBe(a1);
    expect([c.hits, c.misses]).toEqual([1, 4]);
  });

  it('keeps the parses of other options apart: normalisation, link limits, around-words, Content-Type', () => {
    const c = new ParseCache();
    const body = html('t');
    const url = 'http://a.test/';
    const base = c.parse(body, 'text/html', url, D, D.aroundWords);
    expect(base.links[0].url).toBe('http://a.test/x');
    const kept = c.parse(body, 'text/html', url, { ...D, stripParams: [] }, D.aroundWords);
    expect(kept).not.toBe(base);
    expect(kept.links[0].url).toBe('http://a.test/x?utm_source=s');
    const none = c.parse(body, 'text/html', url, { ...D, maxLinksPerPage: 0 }, D.aroundWords);
    expect(none.links).toEqual([]);
    const around = c.parse(body, 'text/html', url, D, 0);
    expect(around).not.toBe(base);
    expect(around.links[0].around).toBe('');
    expect(c.parse(body, 'text/plain', url, D, D.aroundWords)).not.toBe(base);
    // an equal options object (not the same one) finds the same parse
    expect(c.parse(body, 'text/html', url, { ...D }, D.aroundWords)).toBe(base);
    expect([c.hits, c.misses]).toEqual([1, 5]);
  });
});
