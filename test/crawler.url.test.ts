import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../crawler/settings.ts';
import { FingerprintSet, fingerprint, LinkNormalizer, normalizeUrl } from '../crawler/url.ts';
import { originOf } from '../crawler/polite.ts';

const n = (u: string, base?: string): string | null => normalizeUrl(u, base, DEFAULT_SETTINGS);

describe('URL normalisation', () => {
  it.each([
    ['HTTP://Example.TEST/a', 'http://example.test/a'],
    ['http://example.test:80/a', 'http://example.test/a'],
    ['https://example.test:443/a', 'https://example.test/a'],
    ['http://example.test:8080/a', 'http://example.test:8080/a'],
    ['http://example.test/a#frag', 'http://example.test/a'],
    ['http://example.test/a/./b/../c', 'http://example.test/a/c'],
    ['http://example.test', 'http://example.test/'],
    ['http://example.test/a?', 'http://example.test/a'],
    ['http://example.test/a?sid=123&x=1', 'http://example.test/a?x=1'],
    ['http://example.test/a?SID=123', 'http://example.test/a'],
    ['http://example.test/a?utm_source=x&utm_medium=y&id=3', 'http://example.test/a?id=3'],
    ['http://example.test/a;jsessionid=ABC123?x=1', 'http://example.test/a?x=1'],
    // RFC 3986 6.2.2: escaped unreserved characters decoded, other escapes upper-cased (issue #68)
    ['http://example.test/%7euser/%c3%a9', 'http://example.test/~user/%C3%A9'],
    ['http://example.test/a%7Eb', 'http://example.test/a~b'],
    ['http://example.test/%61bc', 'http://example.test/abc'],
    ['http://example.test/a%2fb%2D1', 'http://example.test/a%2Fb-1'],
    ['http://example.test/p?q=%7e%2f', 'http://example.test/p?q=~%2F'],
    ['http://user:pw@example.test/a', 'http://example.test/a'],
    ['mailto:someone@example.test', null],
    ['javascript:void(0)', null],
    ['ftp://example.test/file', null],
    ['http://[::1', null],
  ])('%s -> %s', (input, expected) => {
    expect(n(input)).toBe(expected);
  });

  it('resolves relative references against a base', () => {
    expect(n('../x.html', 'http://example.test/a/b/c.html')).toBe('http://example.test/a/x.html');
    expect(n('//other.test/p', 'http://example.test/')).toBe('http://other.test/p');
    expect(n('?q=1', 'http://example.test/a')).toBe('http://example.test/a?q=1');
  });
});

describe('fingerprints', () => {
  it('are stable 64-bit pairs and the set dedupes across growth', () => {
    expect(fingerprint('http://a.test/')).toEqual(fingerprint('http://a.test/'));
    expect(fingerprint('http://a.test/')).not.toEqual(fingerprint('http://a.test/x'));
    const set = new FingerprintSet(16);
    for (let i = 0; i < 50_000; i++) expect(set.add(`http://h${i % 97}.test/p${i}`)).toBe(true);
    for (let i = 0; i < 50_000; i += 7) expect(set.add(`http://h${i % 97}.test/p${i}`)).toBe(false);
    expect(set.size).toBe(50_000);
    expect(set.has('http://h0.test/p0')).toBe(true);
    expect(set.has('http://h0.test/nope')).toBe(false);
  });
});

describe('origins without a parse per URL', () => {
  it('originOf gives what URL gives, for the tricky authorities too', () => {
    const urls = [
      'http://a.test/x',
      'http://a.test:8080/x?y=/z',
      'https://a.test:443/',
      'http://user:pw@a.test/x',
      'http://user@a.test:81/x/y@z',
      'http://[::1]:8080/x',
      'HTTP://A.TEST/X',
      'http://a.test?q=/x',
      'http://a.test#f/x',
      'http://a.test\\x/y',
      'http://xn--bcher-kva.test/b',
    ];
    // twice: the second answer comes from the memory
    for (let k = 0; k < 2; k++) for (const u of urls) expect(originOf(u), u).toBe(new URL(u).origin);
  });
});

describe('links normalised once per distinct href', () => {
  it('LinkNormalizer gives what normalizeUrl gives, from the memory too', () => {
    const bases = [
      'http://a.test/x/y.html',
      'https://a.test/x/',
      'http://a.test:8080/x/y?z=1',
      'http://u:p@a.test/x/',
      'http://b.test/',
    ];
    const hrefs = [
      '/people/',
      '/people/?sid=1&a=b',
      '//other.test/p#f',
      '/\\evil.test/x',
      '/\t/evil.test/x',
      '/a/../b;jsessionid=XYZ/c%2f',
      'http://c.test/x?utm_source=z',
      'https://c.test:443/x#top',
      'http:relative',
      'people/x',
      '../up',
      '?q=1',
      '#frag',
      'mailto:x@y.test',
      'HTTP://C.TEST/Up',
      '',
    ];
    const opts = { stripParams: ['sid', 'utm_*'] };
    for (let k = 0; k < 2; k++)
      for (const b of bases)
        for (const h of hrefs)
          expect(new LinkNormalizer(b, opts).normalize(h), `${h} on ${b}`).toBe(normalizeUrl(h, b, opts));
    // another list of parameters to strip is another memory
    expect(new LinkNormalizer(bases[0], { stripParams: [] }).normalize('/p?sid=1')).toBe('http://a.test/p?sid=1');
    expect(new LinkNormalizer(bases[0], opts).normalize('/p?sid=1')).toBe('http://a.test/p');
  });
});
