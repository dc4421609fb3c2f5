import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../crawler/settings.ts';
import { decodeBody } from '../crawler/charset.ts';
import { contentTypeOf, MAX_NESTING, parseBody, parseHtml, refreshTarget, urlWords } from '../crawler/parser.ts';

const page = (html: string, url = 'http://a.test/dir/page.html') => parseHtml(html, url, DEFAULT_SETTINGS, 3);

describe('HTML parser', () => {
  it('extracts links with anchor, around-words, nearest heading, and resolves against <base>', () => {
    const p = page(`<html><head><title> My  Page </title><base href="http://b.test/root/"></head><body>
      <h1>Research</h1><p>one two three <a href="x.html">neural <b>networks</b></a> four five six seven</p>
      <h2>Other</h2><a href="/y#frag">y</a><script>var a = '<a href="/no">';</script></body></html>`);
    expect(p.title).toBe('My Page');
    expect(p.headings).toEqual(['Research', 'Other']);
    expect(p.links.map((l) => l.url)).toEqual(['http://b.test/root/x.html', 'http://b.test/y']);
    expect(p.links[0]).toMatchObject({
      anchor: 'neural networks',
      around: 'one two three four five six',
      heading: 'Research',
    });
    expect(p.links[1].heading).toBe('Other');
    expect(p.text).not.toContain('var a');
  });

  it('honours rel=nofollow and meta robots', () => {
    expect(page('<a href="/a" rel="nofollow">a</a><a href="/b">b</a>').links.map((l) => l.nofollow)).toEqual([
      true,
      false,
    ]);
    const p = page('<meta name="robots" content="noindex, nofollow"><a href="/a">a</a>');
    expect(p.noindex).toBe(true);
    expect(p.links).toEqual([]);
  });

  it('copes with malformed markup', () => {
    const p = page('<HTML><BODY><P>text <A HREF=/u1>one</A> <a href="/u2">two <a href="/u3">three</a><div><span>');
    expect(p.links.map((l) => l.url)).toEqual(['http://a.test/u1', 'http://a.test/u2', 'http://a.test/u3']);
    expect(p.links[1].anchor).toBe('two');
  });

  it('decodes ISO-8859-1 from the header and windows-1252 from a meta tag', () => {
    const latin = Buffer.from('<html><body>M\u00fcller G\u00f6del</body></html>', 'latin1');
    expect(parseBody(latin, 'text/html; charset=iso-8859-1', 'http://a.test/', DEFAULT_SETTINGS, 3).text).toBe(
      'M\u00fcller G\u00f6del',
    );
    const win = Buffer.concat([
      Buffer.from(
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><body>caf',
      ),
      Buffer.from([0xe9, 0x20, 0x93]),
      Buffer.from('q</body></html>'),
    ]);
    expect(parseBody(win, 'text/html', 'http://a.test/', DEFAULT_SETTINGS, 3).text).toBe('caf\u00e9 \u201cq');
    expect(decodeBody(Buffer.from('plain \u00e9'), undefined).text).toBe('plain \u00e9');
  });

  it('finds the encoding as WHATWG does: a BOM first; undeclared bytes that are not UTF-8 as windows-1252', () => {
    const at = (body: Buffer, ct = 'text/html') => parseBody(body, ct, 'http://a.test/', DEFAULT_SETTINGS, 3);
    // a 1997 page in Latin-1 bytes with no charset anywhere: "Goedel", not "G\ufffddel"
    expect(at(Buffer.from('<html><body>G\u00f6del</body></html>', 'latin1')).text).toBe('G\u00f6del');
    // a UTF-16LE page with its byte-order mark keeps its links, whatever the header says
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p><a href="/x.html">x</a></p>', 'utf16le')]);
    expect(at(utf16, 'text/html; charset=iso-8859-1').links.map((l) => l.url)).toEqual(['http://a.test/x.html']);
    // an ASCII page whose meta says utf-16 is read as UTF-8 (the standard's rule)
    const meta = Buffer.from('<meta charset="utf-16"><p><a href="/y.html">y</a></p>');
    expect(at(meta).links.map((l) => l.url)).toEqual(['http://a.test/y.html']);
    expect(decodeBody(Buffer.from([0xef, 0xbb, 0xbf, 0x61])).text).toBe('a');
    // bodies that cannot be decoded as declared are counted (issue #68): an unknown label, bytes
    // invalid in the charset; a replacement character the page itself wrote is not one
    expect(at(Buffer.from('<p>x</p>'), 'text/html; charset=x-unheard-of').undecodable).toBe(1);
    expect(at(Buffer.from([0x3c, 0x70, 0x3e, 0xc3, 0x28]), 'text/html; charset=utf-8').undecodable).toBe(1);
    expect(at(Buffer.from('<p>\ufffd G\u00f6del</p>'), 'text/html; charset=utf-8').undecodable ?? 0).toBe(0);
    expect(at(Buffer.from([0xc3, 0x28]), 'text/plain; charset=utf-8').undecodable).toBe(1);
    expect(JSON.parse(JSON.stringify(at(Buffer.from('<p>x</p>'), 'text/html; charset=x-unheard-of'))).undecodable).toBe(
      1,
    );
  });

  it('stops reading a page at its tag budget, keeping what it read and counting linksCut (issue #84)', () => {
    // 100,000 links, 200,002 tags: read whole under the default budget, cut under 50,000 tags
    const html = `<a href="/first">first</a>${'<p><a href="/x">x</a></p>'.repeat(100_000)}<a href="/last">last</a>`;
    const wide = { ...DEFAULT_SETTINGS, maxLinksPerPage: 1e6, maxLinkBytesPerPage: 1e8 };
    const whole = parseHtml(html, 'http://a.test/', wide, 0);
    expect(whole.links.at(-1)?.url).toBe('http://a.test/last');
    expect(whole.linksCut ?? 0).toBe(0);
    const cut = parseHtml(html, 'http://a.test/', { ...wide, maxParseTags: 50_000 }, 0);
    expect(cut.links[0]?.url).toBe('http://a.test/first');
    // the first 50,000 tags: the first link and 24,999 of the repeated ones (two tags each), no more
    expect(cut.links).toHaveLength(25_000);
    expect(cut.linksCut).toBe(1);
    expect(cut.nestingCut ?? 0).toBe(0);
  });

  it("reads a meta refresh as the page's last link, with no anchor (issue #84)", () => {
    expect(['0; url=/a', "5;URL='/b'", ' 3 , url = "c.html" ', '/d', '10', ''].map(refreshTarget)).toEqual([
      '/a',
      '/b',
      'c.html',
      '/d',
      null,
      null,
    ]);
    const html = '<head><meta http-equiv="refresh" content="2; url=/next"></head><body><a href="/x">x</a></body>';
    const p = page(html);
    expect(p.links.map((l) => [l.url, l.anchor])).toEqual([
      ['http://a.test/x', 'x'],
      ['http://a.test/next', ''],
    ]);
    expect(p.refreshLinks).toBe(1);
    expect(parseHtml(html, 'http://a.test/', { ...DEFAULT_SETTINGS, followRefresh: false }, 0).links).toHaveLength(1);
  });

  it('gives the same links whatever the clock: a page parsed with time running 10,000 times slower', () => {
    // before issue #84 a 5 s deadline cut pages on a loaded machine that a quiet one read whole
    const html = `${'<div>'.repeat(5_000)}${'<p><a href="/x">x</a></p>'.repeat(20_000)}<a href="/last">last</a>`;
    const wide = { ...DEFAULT_SETTINGS, maxLinksPerPage: 1e6, maxLinkBytesPerPage: 1e8 };
    const quiet = parseHtml(html, 'http://a.test/', wide, 0);
    let t = 0;
    const slow = vi.spyOn(performance, 'now').mockImplementation(() => (t += 10_000));
    try {
      const loaded = parseHtml(html, 'http://a.test/', wide, 0);
      expect(loaded.links.map((l) => l.url)).toEqual(quiet.links.map((l) => l.url));
      expect(loaded.linksCut ?? 0).toBe(0);
    } finally {
      slow.mockRestore();
    }
    expect(quiet.links.at(-1)?.url).toBe('http://a.test/last');
  });

  it('reads tags past MAX_NESTING open elements flat: every link kept, the flattening counted', () => {
    const nested = (n: number) =>
      `<a href="/first">first</a>${'<div>'.repeat(n)}<a href="/deep">deep</a>${'</div>'.repeat(n)}<a href="/after">after</a>`;
    // 200,000 nested elements (1.2 MB): htmlparser2's stack made this 43 s of parsing; flat past the cap, it is linear
    const cut = page(nested(200_000));
    expect(cut.links.map((l) => l.url)).toEqual(['http://a.test/first', 'http://a.test/deep', 'http://a.test/after']);
    expect(cut.nestingCut).toBe(1);
    const fine = page(nested(MAX_NESTING - 10));
    expect(fine.links.map((l) => l.url)).toEqual(['http://a.test/first', 'http://a.test/deep', 'http://a.test/after']);
    expect(fine.nestingCut ?? 0).toBe(0);
  });

  it('follows the sources of frames and iframes as links', () => {
    const p = page(
      '<html><frameset cols="20%,80%"><frame src="menu.html"><frame src="/main.html"></frameset>' +
        '<body><iframe src="news.html"></iframe></body></html>',
    );
    expect(p.links.map((l) => l.url)).toEqual([
      'http://a.test/dir/menu.html',
      'http://a.test/main.html',
      'http://a.test/dir/news.html',
    ]);
  });

  it('reads a Content-Type header the same way the first time and from memory', () => {
    const cases: [string | undefined, { mime: string; charset?: string }][] = [
      ['Text/HTML; Charset="UTF-8"', { mime: 'text/html', charset: 'utf-8' }],
      ['text/html;charset=iso-8859-1', { mime: 'text/html', charset: 'iso-8859-1' }],
      ['application/pdf', { mime: 'application/pdf', charset: undefined }],
      ["text/plain; format=flowed; charset='windows-1252'", { mime: 'text/plain', charset: 'windows-1252' }],
      ['', { mime: '' }],
      [undefined, { mime: '' }],
    ];
    for (const round of [1, 2])
      for (const [header, want] of cases) expect(contentTypeOf(header), `${header} (${round})`).toEqual(want);
    // remembered: one shared, frozen answer per header
    const a = contentTypeOf('text/html; charset=utf-8');
    expect(contentTypeOf('text/html; charset=utf-8')).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it('extracts text from the synthetic PDF and PostScript formats', () => {
    const pdf = parseBody(
      Buffer.from('%PDF-1.4\n%SYNTH-DOC\nTitle: Neural Nets\nAbstract: we learn\nReferences\n%%EOF\n'),
      'application/pdf',
      'http://a.test/p.pdf',
      DEFAULT_SETTINGS,
      3,
    );
    expect(pdf).toMatchObject({ kind: 'pdf', title: 'Neural Nets' });
    expect(pdf.text).toContain('Abstract: we learn');
    const ps = parseBody(
      Buffer.from(
        '%!PS-Adobe-3.0\n%%Title: Query \\(Plans\\)\n(Abstract: joins \\(fast\\)) show\n(References) show\nshowpage\n',
      ),
      'application/postscript',
      'http://a.test/p.ps',
      DEFAULT_SETTINGS,
      3,
    );
    expect(ps).toMatchObject({ kind: 'ps', title: 'Query (Plans)', text: 'Abstract: joins (fast) References' });
  });

  it('splits URLs into words', () => {
    expect(urlWords('http://cs.alpha.test/~smith12/papers/neural-45.pdf')).toEqual([
      'cs',
      'alpha',
      'test',
      'smith12',
      'papers',
      'neural',
      'pdf',
    ]);
  });
});
