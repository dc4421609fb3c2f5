/**
 * robots.txt matching against RFC 9309, case by case. The cases follow the sections of the RFC
 * as Google's reference parser tests them (google/robotstxt, robots_test.cc), restated here as
 * data: [robots.txt, agent, path, allowed]. Google-only extensions are left out, and say so:
 * a missing colon accepted ("disallow /"), "index.html" at the end of a pattern meaning the
 * directory, lines cut at 16,664 bytes, an agent value read up to its first space, and the
 * empty-URL conventions of its system test. Where Google's parser departs from the RFC (escapes of
 * unreserved characters compared as written), the RFC is followed and the case says so. Every case
 * below holds for RobotsRules.
 */
import { describe, expect, it } from 'vitest';
import { groupLines, RobotsRules } from '../crawler/robots-cache.ts';

type Case = [robots: string, agent: string, path: string, allowed: boolean];

const lines = (...l: string[]): string => `${l.join('\n')}\n`;
const each = (robots: string, agent: string, paths: [string, boolean][]): Case[] =>
  paths.map(([p, a]) => [robots, agent, p, a]);

const GROUPS = lines(
  'allow: /foo/bar/',
  '',
  'user-agent: FooBot',
  'disallow: /',
  'allow: /x/',
  'user-agent: BarBot',
  'disallow: /',
  'allow: /y/',
  '',
  '',
  'allow: /w/',
  'user-agent: BazBot',
  '',
  'user-agent: FooBot',
  'allow: /z/',
  'disallow: /',
);

const SECTIONS: Record<string, Case[]> = {
  '2.1 lines are name: value; unknown names are ignored': [
    [lines('user-agent: FooBot', 'disallow: /'), 'FooBot', '/x/y', false],
    [lines('foo: FooBot', 'bar: /'), 'FooBot', '/x/y', true],
  ],
  '2.1 groups: rules outside a group are ignored, blank lines end nothing, groups of one agent combine': [
    ...each(GROUPS, 'FooBot', [
      ['/x/b', true],
      ['/z/d', true],
      ['/y/c', false],
      ['/foo/bar/', false],
    ]),
    ...each(GROUPS, 'BarBot', [
      ['/y/c', true],
      ['/w/a', true],
      ['/z/d', false],
      ['/foo/bar/', false],
    ]),
    ...each(GROUPS, 'BazBot', [
      ['/z/d', true],
      ['/foo/bar/', false],
    ]),
  ],
  '2.1 record names are case-insensitive': [
    ...each(lines('USER-AGENT: FooBot', 'ALLOW: /x/', 'DISALLOW: /'), 'FooBot', [
      ['/x/y', true],
      ['/a/b', false],
    ]),
    ...each(lines('uSeR-aGeNt: FooBot', 'AlLoW: /x/', 'dIsAlLoW: /'), 'FooBot', [
      ['/x/y', true],
      ['/a/b', false],
    ]),
  ],
  '2.2.1 the agent value is case-insensitive': [
    ...each(lines('User-Agent: FOOBOT', 'Allow: /x/', 'Disallow: /'), 'foobot', [
      ['/x/y', true],
      ['/a/b', false],
    ]),
    ...each(lines('User-Agent: foobot', 'Allow: /x/', 'Disallow: /'), 'FooBot', [
      ['/x/y', true],
      ['/a/b', false],
    ]),
  ],
  '2.2.1 no matching group: the * group, else nothing applies': [
    ['', 'FooBot', '/x/y', true],
    [lines('user-agent: *', 'allow: /', 'user-agent: FooBot', 'disallow: /'), 'FooBot', '/x/y', false],
    [lines('user-agent: *', 'allow: /', 'user-agent: FooBot', 'disallow: /'), 'BarBot', '/x/y', true],
    [
      lines('user-agent: FooBot', 'allow: /', 'user-agent: BarBot', 'disallow: /', 'user-agent: BazBot', 'disallow: /'),
      'QuxBot',
      '/x/y',
      true,
    ],
    ...each(lines('User-agent: *', 'Disallow: /x/', 'User-agent: FooBot', 'Disallow: /y/'), 'FooBot', [
      ['/x/page', true],
      ['/y/page', false],
    ]),
  ],
  '2.2.2 paths match case-sensitively': [
    [lines('user-agent: FooBot', 'disallow: /x/'), 'FooBot', '/x/y', false],
    [lines('user-agent: FooBot', 'disallow: /X/'), 'FooBot', '/x/y', true],
  ],
  '2.2.2 the longest match wins; allow wins a tie': [
    [lines('user-agent: FooBot', 'disallow: /x/page.html', 'allow: /x/'), 'FooBot', '/x/page.html', false],
    ...each(lines('user-agent: FooBot', 'allow: /x/page.html', 'disallow: /x/'), 'FooBot', [
      ['/x/page.html', true],
      ['/x/', false],
    ]),
    [lines('user-agent: FooBot', 'disallow: ', 'allow: '), 'FooBot', '/x/page.html', true],
    [lines('user-agent: FooBot', 'disallow: /', 'allow: /'), 'FooBot', '/x/page.html', true],
    ...each(lines('user-agent: FooBot', 'disallow: /x', 'allow: /x/'), 'FooBot', [
      ['/x', false],
      ['/x/', true],
    ]),
    [lines('user-agent: FooBot', 'disallow: /x/page.html', 'allow: /x/page.html'), 'FooBot', '/x/page.html', true],
    ...each(lines('user-agent: FooBot', 'allow: /page', 'disallow: /*.html'), 'FooBot', [
      ['/page.html', false],
      ['/page', true],
    ]),
    ...each(lines('user-agent: FooBot', 'allow: /x/page.', 'disallow: /*.html'), 'FooBot', [
      ['/x/page.html', true],
      ['/x/y.html', false],
    ]),
    [lines('user-agent: FooBot', 'allow: /p', 'disallow: /'), 'FooBot', '/page', true],
    [lines('user-agent: FooBot', 'allow: /folder', 'disallow: /folder'), 'FooBot', '/folder/page', true],
    [lines('user-agent: FooBot', 'allow: /page', 'disallow: /*.htm'), 'FooBot', '/page.htm', false],
    ...each(lines('user-agent: FooBot', 'allow: /$', 'disallow: /'), 'FooBot', [
      ['/', true],
      ['/page.html', false],
    ]),
  ],
  '2.2.2 percent-encoding: rules and URLs compare encoded': [
    [
      lines('User-agent: FooBot', 'Disallow: /', 'Allow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par'),
      'FooBot',
      '/foo/bar?qux=taz&baz=http://foo.bar?tar&par',
      true,
    ],
    [lines('User-agent: FooBot', 'Disallow: /', 'Allow: /foo/bar/ツ'), 'FooBot', '/foo/bar/%E3%83%84', true],
    [lines('User-agent: FooBot', 'Disallow: /', 'Allow: /foo/bar/%E3%83%84'), 'FooBot', '/foo/bar/%E3%83%84', true],
    // escapes of unreserved characters compare decoded, in rules and URLs alike (Google's parser
    // compares them as written and would answer false for /foo/bar/baz here)
    ...each(lines('User-agent: FooBot', 'Disallow: /', 'Allow: /foo/bar/%62%61%7A'), 'FooBot', [
      ['/foo/bar/baz', true],
      ['/foo/bar/%62%61%7A', true],
    ]),
    ...each(lines('User-agent: FooBot', 'Disallow: /%62locked'), 'FooBot', [
      ['/blocked', false],
      ['/%62locked', false],
      ['/%2Fblocked', true],
    ]),
    // a reserved character stays encoded: %2F is not a path separator
    ...each(lines('User-agent: FooBot', 'Disallow: /a%2fb'), 'FooBot', [
      ['/a%2Fb', false],
      ['/a/b', true],
    ]),
  ],
  '2.2.3 a run of * is one wildcard, however long (a hostile file, issue #38)': [
    ...each(lines('User-agent: *', 'Disallow: /', `Allow: /${'*'.repeat(500_000)}z`), 'FooBot', [
      [`/${'a'.repeat(4000)}z`, true],
      [`/${'a'.repeat(4000)}y`, false],
      ['/z', true],
    ]),
    ...each(lines('User-agent: *', 'Disallow: /', `Allow: /${'a*'.repeat(100_000)}$`), 'FooBot', [
      [`/${'a'.repeat(4000)}`, false],
      [`/${'a'.repeat(100_000)}`, true],
    ]),
  ],
  '2.2.3 special characters: * any run, $ the end, # a comment': [
    ...each(lines('User-agent: FooBot', 'Disallow: /foo/bar/quz', 'Allow: /foo/*/qux'), 'FooBot', [
      ['/foo/bar/quz', false],
      ['/foo/quz', true],
      ['/foo//quz', true],
      ['/foo/bax/quz', true],
    ]),
    ...each(lines('User-agent: FooBot', 'Disallow: /foo/bar$', 'Allow: /foo/bar/qux'), 'FooBot', [
      ['/foo/bar', false],
      ['/foo/bar/qux', true],
      ['/foo/bar/', true],
      ['/foo/bar/baz', true],
    ]),
    ...each(lines('User-agent: FooBot', '# Disallow: /', 'Disallow: /foo/quz#qux', 'Allow: /'), 'FooBot', [
      ['/foo/bar', true],
      ['/foo/quz', false],
    ]),
  ],
  '2.2.2 prefix matching, as the RFC examples': [
    ...each(lines('user-agent: FooBot', 'disallow: /', 'allow: /fish'), 'FooBot', [
      ['/bar', false],
      ['/fish', true],
      ['/fish.html', true],
      ['/fish/salmon.html', true],
      ['/fishheads', true],
      ['/fish.html?id=anything', true],
      ['/Fish.asp', false],
      ['/catfish', false],
      ['/?id=fish', false],
    ]),
    ...each(lines('user-agent: FooBot', 'disallow: /', 'allow: /fish*'), 'FooBot', [
      ['/fish', true],
      ['/fishheads/yummy.html', true],
      ['/catfish', false],
    ]),
    ...each(lines('user-agent: FooBot', 'disallow: /', 'allow: /fish/'), 'FooBot', [
      ['/fish/', true],
      ['/fish/salmon', true],
      ['/fish/?salmon', true],
      ['/fish', false],
      ['/fish.html', false],
      ['/Fish/Salmon.html', false],
    ]),
    ...each(lines('user-agent: FooBot', 'disallow: /', 'allow: /*.php'), 'FooBot', [
      ['/filename.php', true],
      ['/folder/filename.php?parameters', true],
      ['//folder/any.php.file.html', true],
      ['/filename.php/', true],
      ['/index?f=filename.php/', true],
      ['/php/', false],
      ['/index?php', false],
      ['/windows.PHP', false],
    ]),
    ...each(lines('user-agent: FooBot', 'disallow: /', 'allow: /*.php$'), 'FooBot', [
      ['/filename.php', true],
      ['/folder/filename.php', true],
      ['/filename.php?parameters', false],
      ['/filename.php/', false],
      ['/filename.php5', false],
      ['/aaaphpaaa', false],
    ]),
    ...each(lines('user-agent: FooBot', 'disallow: /', 'allow: /fish*.php'), 'FooBot', [
      ['/fish.php', true],
      ['/fishheads/catfish.php?parameters', true],
      ['/Fish.PHP', false],
    ]),
  ],
  '2.2 line endings: LF, CRLF, CR, no final newline': ['\n', '\r\n', '\r'].flatMap((eol) => {
    const t = ['User-Agent: foo', 'Allow: /some/path', 'User-Agent: bar', '', '', 'Disallow: /'].join(eol);
    return [
      [t, 'bar', '/x', false],
      [t, 'foo', '/some/path', true],
      [t + eol, 'bar', '/x', false],
    ] as Case[];
  }),
  '2.2.4 other records (Sitemap) do not end a group': [
    ...each(
      lines('User-agent: FooBot', 'Sitemap: http://foo.bar/sitemap.xml', 'User-agent: BarBot', 'Disallow: /'),
      'FooBot',
      [['/x', false]],
    ),
    ...each(lines('User-agent: FooBot', 'Disallow: /a', 'Sitemap: http://foo.bar/s.xml', 'Disallow: /b'), 'FooBot', [
      ['/a', false],
      ['/b', false],
      ['/c', true],
    ]),
  ],
};

describe('robots.txt matching, RFC 9309 section by section', () => {
  for (const [section, cases] of Object.entries(SECTIONS)) {
    it(section, () => {
      const wrong = cases.filter(
        ([robots, agent, path, allowed]) =>
          RobotsRules.fromResponse('http://foo.bar/robots.txt', 200, robots, agent).isAllowed(
            `http://foo.bar${path}`,
          ) !== allowed,
      );
      expect(
        wrong.map(([r, a, p, x]) => `${JSON.stringify(r)} ${a} ${p}: expected ${x ? 'allowed' : 'disallowed'}`),
      ).toEqual([]);
    });
  }

  it('a file cut at the size cap loses its partial last line', () => {
    // cut inside "Disallow: /private/": parsed whole, the partial "Disallow: /" would block everything
    const body = 'User-agent: *\nDisallow: /tmp/\nDisallow: /';
    expect(groupLines(body, true)).toBe('User-agent: *\nDisallow: /tmp/');
    const cut = RobotsRules.fromResponse('http://foo.bar/robots.txt', 200, body, 'FooBot', true);
    expect([cut.isAllowed('http://foo.bar/x'), cut.isAllowed('http://foo.bar/tmp/a')]).toEqual([true, false]);
    // the same text uncut is a complete file: its last line counts
    expect(
      RobotsRules.fromResponse('http://foo.bar/robots.txt', 200, body, 'FooBot').isAllowed('http://foo.bar/x'),
    ).toBe(false);
  });

  it('429 and 5xx disallow everything for a while; other 4xx allow everything', async () => {
    for (const status of [429, 500, 503])
      expect(
        RobotsRules.fromResponse('http://foo.bar/robots.txt', status, '', 'FooBot').isAllowed('http://foo.bar/x'),
        String(status),
      ).toBe(false);
    for (const status of [401, 403, 404, 410])
      expect(
        RobotsRules.fromResponse('http://foo.bar/robots.txt', status, '', 'FooBot').isAllowed('http://foo.bar/x'),
        String(status),
      ).toBe(true);
    const unreachable = RobotsRules.unreachable('FooBot', 5);
    expect(unreachable.expired).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(unreachable.expired).toBe(true); // fetched again on the next URL of the host
  });
});
