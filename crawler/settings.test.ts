import { describe, expect, it } from 'vitest';
import { resolveSettings } from './settings.ts';

describe('crawl settings', () => {
  it('need start URLs, absolute and http(s); refuse a setting they do not know', () => {
    expect(() => resolveSettings({})).toThrow(/startUrls: at least one start URL/);
    expect(() => resolveSettings({ startUrls: ['/a'] })).toThrow(/startUrls: "\/a" is not an absolute URL/);
    expect(() => resolveSettings({ startUrls: ['ftp://a.test/'] })).toThrow(/must be http or https/);
    expect(() => resolveSettings({ startUrl: ['http://a.test/'] } as never)).toThrow(/startUrl: unknown setting/);
  });

  it('drop maxParseMs, the parse deadline that maxParseTags replaced, so a crawl journalled with it resumes', () => {
    const s = resolveSettings({ startUrls: ['http://a.test/'], maxParseMs: 5000 } as never);
    expect('maxParseMs' in s).toBe(false);
    expect(s.maxParseTags).toBe(1_000_000);
  });

  it('read "seeds", the former name of startUrls, as start URLs, and refuse both at once', () => {
    const s = resolveSettings({ seeds: ['http://a.test/'] } as never);
    expect(s.startUrls).toEqual(['http://a.test/']);
    expect('seeds' in s).toBe(false);
    expect(() => resolveSettings({ seeds: ['http://a.test/'], startUrls: ['http://b.test/'] } as never)).toThrow(
      /give startUrls alone/,
    );
  });
});
