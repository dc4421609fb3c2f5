/** The adaptive crawler (crawler/focused/adaptive.ts) on hand-made pages and a toy link model. */
import { describe, expect, it } from 'vitest';
import { AdaptiveStrategy, DEFAULT_ADAPTIVE, MAX_THREADS } from '../crawler/focused/adaptive.ts';
import { chooseThreshold } from '../crawler/focused/calibrate.ts';
import { FeatureSpace, linkWords } from '../crawler/focused/features.ts';
import { type Example, LinkClassifier } from '../crawler/focused/nb.ts';
import { PageClassifier, RelevanceJudge } from '../crawler/focused/relevance.ts';
import { ImmediateStrategy } from '../crawler/focused/immediate-future.ts';
import { Topic } from '../crawler/focused/topic.ts';
import type { ParsedLink } from '../crawler/parser.ts';
import type { PageView } from '../crawler/strategy.ts';
import { tokenize } from '../lib/text.ts';

const link = (url: string, anchor: string): ParsedLink => ({ url, anchor, around: '', heading: '', nofollow: false });
const view = (
  seq: number,
  url: string,
  text: string,
  links: ParsedLink[],
  kind: 'html' | 'pdf' = 'html',
): PageView => ({
  seq,
  url,
  status: 200,
  depth: 1,
  score: 0,
  contentType: kind === 'pdf' ? 'application/pdf' : 'text/html',
  kind,
  title: '',
  headings: [],
  text,
  links,
});

function toyModel(): LinkClassifier {
  const ex: Example[] = [];
  for (let i = 0; i < 30; i++) {
    ex.push({ tokens: ['a:public', 'u:public'], label: 2 });
    ex.push({ tokens: ['a:footbal', 'u:footbal'], label: 0 });
  }
  return LinkClassifier.train(
    ex,
    { thresholds: [0.01, 1], means: [0, 0.5, 2] },
    { space: new FeatureSpace(['a:public', 'u:public', 'a:footbal', 'u:footbal']) },
  );
}

describe('adaptive crawler', () => {
  // the project's first reading (adaptive-page) unless a test says otherwise: its paths are the ones tested here
  const opts = {
    ...DEFAULT_ADAPTIVE,
    scope: 'page' as const,
    tunnel: 'priority' as const,
    r1: 0.3,
    r2: 0.5,
    retrainEvery: 3,
    topK: 2,
    horizon: 1,
  };
  it('exploits topical pages by immediate score, tunnels by Q, discards the rest', () => {
    const a = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], opts);
    // topical page: links by immediate score, above every tunnelling link (1 + score)
    const d1 = a.onPage(
      view(0, 'http://s.test/ml', 'neural network learning neural', [
        link('http://s.test/a', 'neural network'),
        link('http://s.test/b', 'football'),
      ]),
      [link('http://s.test/a', 'neural network'), link('http://s.test/b', 'football')],
    );
    expect(d1.scores[0]!).toBeGreaterThan(1);
    expect(d1.scores[0]!).toBeGreaterThan(d1.scores[1]!);
    expect(d1.scores[1]!).toBeGreaterThanOrEqual(1);
    // off-topic page with a promising link: tunnel, priorities Q / Q_max < 1
    const l2 = [
      link('http://s.test/publications.html', 'publications'),
      link('http://s.test/football.html', 'football'),
    ];
    const d2 = a.onPage(view(1, 'http://s.test/people', 'staff directory phone', l2), l2);
    expect(d2.scores[0]!).toBeGreaterThan(0.5);
    expect(d2.scores[0]!).toBeLessThan(1);
    expect(d2.scores[1]!).toBeLessThan(d2.scores[0]!);
    // off-topic page with nothing promising: its links are discarded
    const l3 = [link('http://s.test/football2.html', 'football')];
    const d3 = a.onPage(view(2, 'http://s.test/sports', 'football pizza', l3), l3);
    expect(d3.scores).toEqual([null]);
    expect(a.stats()).toMatchObject({ exploitPages: 1, tunnelPages: 1, discardPages: 1, linksDiscarded: 1 });
  });

  it('per-link reading (scope "link"): each link goes by its own immediate value, then its own Q', () => {
    const links = [
      link('http://s.test/nn.html', 'neural network learning'),
      link('http://s.test/publications.html', 'publications'),
      link('http://s.test/football.html', 'football'),
    ];
    const page = view(0, 'http://s.test/people', 'staff directory phone', links);
    // by page (the default): an off-topic page whose best link reaches r2 tunnels all its links
    const byPage = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], opts);
    const p = byPage.onPage(page, links).scores as number[];
    expect(p.every((x) => x !== null && x < 1)).toBe(true);
    // by link: the topical link is exploited (above 1), the promising one tunnelled (below 1), the other discarded
    const byLink = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
      ...opts,
      scope: 'link',
    });
    const l = byLink.onPage(page, links).scores;
    expect(l[0]!).toBeGreaterThan(1);
    expect(l[1]!).toBeGreaterThan(0.5);
    expect(l[1]!).toBeLessThan(1);
    expect(l[2]).toBeNull();
    expect(byLink.stats()).toMatchObject({ exploitLinks: 1, tunnelLinks: 1, linksDiscarded: 1, exploitPages: 1 });
    // the tunnelled link's page is counted as fetched through a tunnelling link; the exploited one's is not
    byLink.onPage(view(1, 'http://s.test/publications.html', 'list', []), []);
    byLink.onPage(view(2, 'http://s.test/nn.html', 'neural', []), []);
    expect(byLink.stats()).toMatchObject({ tunnelFetched: 1, threadFetched: 0, r2AboveReach: 0 });
  });

  it("threshold rules: best F1, the quantile at the positives' share, the lowest t with 50% precision", () => {
    // values 0.9..0.1 with positives at 0.9, 0.7, 0.4 (3 of 9)
    const xs = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1].map((v) => ({
      v,
      y: v === 0.9 || v === 0.7 || v === 0.4,
    }));
    expect(chooseThreshold(xs, 'f1').t).toBe(0.7); // F1 2/3 at 0.7 and at 0.4: the higher is kept
    expect(chooseThreshold(xs, 'quantile').t).toBe(0.7); // three values reach 0.7: as many as positives
    expect(chooseThreshold(xs, 'precision').t).toBe(0.4); // 3 of 6 at 0.4: the lowest with 50%
    expect(chooseThreshold([{ v: 1, y: false }], 'precision').t).toBe(Infinity);
    expect(chooseThreshold([{ v: 1, y: false }], 'quantile').t).toBe(Infinity);
  });

  it('marks a run whose r2 no link can reach', () => {
    const a = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], { ...opts, r2: 1 });
    const links = [link('http://s.test/football.html', 'football')];
    a.onPage(view(1, 'http://s.test/people', 'staff directory phone', links), links);
    // the toy model's largest bin mean is 2, so 1 is reachable in principle but above every Q computed
    expect(a.stats().r2AboveReach).toBe(1);
    const c = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], { ...opts, r2: 1 });
    const pubs = [link('http://s.test/publications.html', 'publications')];
    c.onPage(view(1, 'http://s.test/people', 'staff directory phone', pubs), pubs);
    expect(c.stats().r2AboveReach).toBe(0);
    const b = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], { ...opts, r2: 2.5 });
    expect(b.stats().r2AboveReach).toBe(1);
  });

  it(
    "adaptive-rescue never strands: keeps the start page's links, and rescues discarded links " +
      "best Q first when the frontier runs dry; the paper's adaptive does not rescue",
    () => {
      const paper = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
        ...opts,
        r1: 2,
        r2: 100,
        rescue: false,
      });
      const s0 = { ...view(0, 'http://s.test/', 'pizza', []), depth: 0 };
      paper.onPage(s0, [link('http://s.test/football.html', 'football')]);
      const d1 = [link('http://s.test/f2.html', 'football')];
      expect(paper.onPage(view(1, 'http://s.test/football.html', 'pizza', d1), d1).scores).toEqual([null]);
      expect(paper.rescue()).toEqual([]);
      expect(paper.name).toBe('adaptive');
      const a = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
        ...opts,
        r1: 2,
        r2: 100,
        rescue: true,
      });
      expect(a.name).toBe('adaptive-rescue');
      const start = { ...view(0, 'http://s.test/', 'pizza', []), depth: 0 };
      const l0 = [link('http://s.test/football.html', 'football')];
      expect(a.onPage(start, l0).scores[0]).not.toBeNull();
      const l1 = [link('http://s.test/f2.html', 'football'), link('http://s.test/pubs.html', 'publications')];
      expect(a.onPage(view(1, 'http://s.test/football.html', 'pizza', l1), l1).scores).toEqual([null, null]);
      const r = a.rescue();
      expect(r.map((x) => x.url)).toEqual(['http://s.test/pubs.html', 'http://s.test/f2.html']);
      expect(r[0].score).toBeGreaterThan(r[1].score);
      expect(r[0].depth).toBe(2);
      expect(a.rescue()).toEqual([]);
      expect(a.stats()).toMatchObject({ tunnelPages: 1, discardPages: 1, rescuedLinks: 2 });
    },
  );

  it("learns from the experiment's judgement: a learned page classifier, or the topic alone", () => {
    const pages = [
      ...Array.from({ length: 20 }, (_, i) => ({
        url: `http://s.test/~prof${i}/`,
        kind: 'html',
        tokens: tokenize('professor research interests publications'),
        relevant: true,
      })),
      ...Array.from({ length: 20 }, (_, i) => ({
        url: `http://s.test/course${i}/`,
        kind: 'html',
        tokens: tokenize('lecture homework exam syllabus'),
        relevant: false,
      })),
    ];
    const judge = new RelevanceJudge('learned', PageClassifier.train(pages));
    const topic = new Topic(['neural network']);
    const prof = judge.judge(
      topic,
      { url: 'http://t.test/~x/', kind: 'html', text: '' },
      tokenize('professor publications interests'),
    );
    const course = judge.judge(
      topic,
      { url: 'http://t.test/c/', kind: 'html', text: '' },
      tokenize('homework lecture exam'),
    );
    expect(prof.relevant).toBe(true);
    expect(course.relevant).toBe(false);
    expect(prof.relevance).toBeGreaterThan(course.relevance);
    const kw = new RelevanceJudge('keywords').judge(
      topic,
      { url: 'http://t.test/n', kind: 'html', text: '' },
      tokenize('neural network'),
    );
    expect(kw).toMatchObject({ relevant: true, relevance: 1 });
    expect(() => new RelevanceJudge('learned')).toThrow(/page classifier/);
    expect(() => PageClassifier.train(pages.filter((p) => !p.relevant))).toThrow(/no relevant page/);
  });

  it('retrains every T pages from the top-K most relevant pages and their crawled forward links', () => {
    const a = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], opts);
    const before = a.classifier;
    const paperText = 'Title: neural learning Abstract: network References [1] neural';
    // pages 0, 1: a relevant paper and a topical page linking to it; page 2 triggers the retraining (T = 3)
    a.onPage(view(0, 'http://s.test/p.pdf', paperText, [], 'pdf'), []);
    a.onPage(
      view(1, 'http://s.test/list', 'neural network learning', [
        link('http://s.test/p.pdf', 'publications'),
        link('http://s.test/x', 'football'),
      ]),
      [],
    );
    expect(a.stats().retrainings).toBe(0);
    a.onPage(view(2, 'http://s.test/junk', 'pizza', [link('http://s.test/list', 'football')]), []);
    expect(a.stats().retrainings).toBe(1);
    // top-2 by relevance among pages with links (the paper is a leaf): the list and the junk page;
    // examples are their links to crawled pages: list -> paper (Q = 1), junk -> list (Q = 0.5)
    expect(a.stats().onlineExamples).toBe(2);
    expect(a.classifier).not.toBe(before);
    expect(a.classifier.posteriors(['a:public'])[2]).not.toBe(before.posteriors(['a:public'])[2]);
  });

  it('retrainUpdates: only "frontier" readings re-rank the queued tunnelling links, only the last re-admits discarded ones', () => {
    const paperText = 'Title: neural learning Abstract: network References [1] neural';
    // a crawl of three pages (T = 3); the retraining after the third learns that "football" links
    // lead to the paper
    const run = (retrainUpdates: 'new-links' | 'frontier' | 'frontier-and-discarded') => {
      const a = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
        ...opts,
        r1: 0.9,
        r2: 0.3,
        retrainUpdates,
      });
      // the paper first; then a tunnelling page whose "football" link leads to it (what the
      // retraining learns from), queuing two more; then a page whose football link is discarded
      a.onPage(view(0, 'http://s.test/p.pdf', paperText, [], 'pdf'), []);
      const tunnel = [
        link('http://s.test/publications.html', 'publications'),
        link('http://s.test/f1.html', 'football'),
      ];
      const people = view(1, 'http://s.test/people', 'staff directory', [
        ...tunnel,
        link('http://s.test/p.pdf', 'football'),
      ]);
      a.onPage(people, tunnel);
      const dropped = [link('http://s.test/f2.html', 'football')];
      const d2 = a.onPage(view(2, 'http://s.test/sports', 'pizza', dropped), dropped);
      expect(d2.scores).toEqual([null]);
      return { a, d2 };
    };
    const plain = run('new-links');
    expect(plain.d2.reprioritise).toBeUndefined();
    expect(plain.d2.readmit).toBeUndefined();
    const front = run('frontier');
    expect(front.a.stats().retrainings).toBe(1);
    expect(front.d2.reprioritise).toBe(true);
    expect(front.d2.readmit).toBeUndefined();
    const queued = [
      { url: 'http://s.test/publications.html', score: 0.9, depth: 2 },
      { url: 'http://s.test/f1.html', score: 0.1, depth: 2 },
      { url: 'http://s.test/elsewhere.html', score: 2, depth: 1 },
    ];
    const ups = front.a.reprioritise(queued);
    // the two links it scored, at the new classifier's priorities; a link it did not score is left alone
    expect(ups.map((u) => u.url).sort()).toEqual(['http://s.test/f1.html', 'http://s.test/publications.html']);
    expect(ups.every((u) => u.score >= 0 && u.score < 1)).toBe(true);
    expect(front.a.stats()).toMatchObject({ rerankedLinks: 2, readmittedLinks: 0 });
    const all = run('frontier-and-discarded');
    expect(all.a.readmits).toBe(true);
    expect(all.d2.reprioritise).toBe(true);
    // football's new Q reaches r2: the link it discarded comes back, at depth 2, tunnelling priority
    expect(all.d2.readmit?.map((r) => r.url)).toEqual(['http://s.test/f2.html']);
    expect(all.d2.readmit?.[0]).toMatchObject({ depth: 2 });
    expect(all.a.stats()).toMatchObject({ readmittedLinks: 1 });
    expect(plain.a.readmits).toBe(false);
  });

  it('tunnel "thread": a tunnelled page\'s links come next, above exploiting links, for three pages in a row', () => {
    const make = (tunnel: 'priority' | 'thread') =>
      new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
        ...opts,
        r1: 0.9,
        r2: 0.3,
        tunnel,
      });
    const hop = (i: number) => [link(`http://s.test/pubs${i + 1}.html`, 'publications')];
    const walk = (a: AdaptiveStrategy) =>
      [0, 1, 2, 3].map(
        (i) => a.onPage(view(i, `http://s.test/pubs${i}.html`, 'staff directory', hop(i)), hop(i)).scores[0]!,
      );
    const thread = walk(make('thread'));
    // pubs0 starts the thread; pubs1 and pubs2 continue it; pubs3 is the fourth tunnelling page in a row
    expect(thread.slice(0, 3).every((s) => s >= 2)).toBe(true);
    expect(thread[3]).toBeLessThan(1);
    // the paper's default reading queues them by Q below every exploiting link (which score 1 and up)
    expect(walk(make('priority')).every((s) => s < 1)).toBe(true);
  });

  it('tunnel "subcrawl": a thread for every tunnelling link, taking turns with the main crawl, up to its pages', () => {
    const a = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
      ...opts,
      r1: 0.9,
      r2: 0.3,
      tunnel: 'subcrawl',
      threadPages: 2,
    });
    expect(a.readmits).toBe(true);
    const held = [
      link('http://s.test/f1.html', 'football'),
      link('http://s.test/pubs1.html', 'publications'),
      link('http://s.test/pubs2.html', 'publications'),
    ];
    // a tunnelled page of the main crawl: each of its links opens a thread, whose first link is released at once
    const d0 = a.onPage(view(0, 'http://s.test/people', 'staff directory', held), held);
    expect(d0.scores).toEqual([null, null, null]);
    expect(d0.readmit!.map((r) => r.url)).toEqual(held.map((l) => l.url));
    expect(d0.readmit!.every((r) => r.score > 2 && r.depth === 2)).toBe(true);
    expect(a.stats().threadsOpened).toBe(3);
    // a page of pubs1's thread comes back (with its priority, 2 and up): its tunnelling links join that thread
    const back = (seq: number, url: string, links: ParsedLink[] = []): PageView => ({
      ...view(seq, url, 'list', links),
      score: 2.5,
      depth: 2,
    });
    const more = [link('http://s.test/pubs1a.html', 'publications'), link('http://s.test/pubs1b.html', 'publications')];
    const d1 = a.onPage(back(1, 'http://s.test/pubs1.html', more), more);
    expect(d1.scores).toEqual([null, null]);
    expect(d1.readmit).toBeUndefined();
    expect(a.stats().threadsOpened).toBe(3);
    // a page of the main crawl comes back: every open thread with a link left releases one (here pubs1's)
    const d2 = a.onPage(view(2, 'http://s.test/other', 'pizza', []), []);
    expect(d2.readmit!.map((r) => r.url)).toEqual(['http://s.test/pubs1a.html']);
    // pubs1's thread has spent its two pages: when its last one is back it closes, its link left to the main frontier by Q
    const d3 = a.onPage(back(3, 'http://s.test/pubs1a.html'), []);
    expect(d3.readmit!.map((r) => r.url)).toEqual(['http://s.test/pubs1b.html']);
    expect(d3.readmit![0].score).toBeLessThan(1);
    expect(a.stats()).toMatchObject({ threadsOpened: 3, threadFetched: 2, tunnelFetched: 2, threadLinks: 5 });
  });

  it(`tunnel "subcrawl": at most ${MAX_THREADS} threads at a time; tunnelling links wait for one, best Q first`, () => {
    const a = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
      ...opts,
      r1: 0.9,
      r2: 0.3,
      tunnel: 'subcrawl',
      threadPages: 1,
    });
    const links = Array.from({ length: MAX_THREADS }, (_, i) => link(`http://s.test/p${i}.html`, 'publications'));
    // two more: the football link (low Q) found first, the publications one (high Q) second
    links.push(
      link('http://s.test/late-football.html', 'football'),
      link('http://s.test/late-pubs.html', 'publications'),
    );
    const d0 = a.onPage(view(0, 'http://s.test/people', 'staff directory', links), links);
    expect(d0.readmit).toHaveLength(MAX_THREADS);
    expect(a.stats().threadsOpened).toBe(MAX_THREADS);
    // the first thread's page comes back: it has spent its one page and closes; the best waiting link opens a thread
    const d1 = a.onPage({ ...view(1, 'http://s.test/p0.html', 'list', []), score: 2.5, depth: 2 }, []);
    expect(d1.readmit).toBeUndefined();
    expect(a.stats().threadsOpened).toBe(MAX_THREADS + 1);
    const d2 = a.onPage(view(2, 'http://s.test/other', 'pizza', []), []);
    expect(d2.readmit!.map((r) => r.url)).toEqual(['http://s.test/late-pubs.html']);
    // the other threads' pages never come back (a 404 no strategy sees) and the frontier runs dry:
    // nothing is in flight then, so they are lost; their threads close and the waiting link opens one
    const r = a.rescue();
    expect(r.map((x) => x.url)).toEqual(['http://s.test/late-football.html']);
    expect(r[0].score).toBeGreaterThan(2);
    expect(a.stats().threadsOpened).toBe(MAX_THREADS + 2);
  });

  it('thresholds "online": r1 and r2 chosen again at each retraining from the pages crawled, with its own judgements', () => {
    const paperText = 'Title: neural learning Abstract: network References [1] neural';
    // r1 = 2 is out of reach (a cosine is at most 1): calibrated, no page is ever exploited
    const make = (thresholds: 'calibrated' | 'online') =>
      new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
        ...opts,
        r1: 2,
        r2: 0.3,
        thresholds,
      });
    const crawl = (a: AdaptiveStrategy) => {
      // the paper; a topical page linking it; an off-topic page linking that one (T = 3: a retraining)
      a.onPage(view(0, 'http://s.test/p.pdf', paperText, [], 'pdf'), []);
      const l1 = [link('http://s.test/p.pdf', 'publications'), link('http://s.test/x', 'football')];
      a.onPage(view(1, 'http://s.test/list', 'neural network learning pizza', l1), l1);
      const l2 = [link('http://s.test/list', 'football')];
      a.onPage(view(2, 'http://s.test/junk', 'pizza', l2), l2);
      // another topical page, after the retraining
      const l3 = [link('http://s.test/more', 'neural network')];
      return a.onPage(view(3, 'http://s.test/list2', 'neural network learning', l3), l3).scores[0]!;
    };
    const calibrated = make('calibrated');
    const fixed = crawl(calibrated);
    expect(calibrated.thresholds).toEqual({ r1: 2, r2: 0.3 });
    expect(calibrated.stats().recalibrations).toBe(0);
    expect(fixed).toBeLessThan(1);
    const online = make('online');
    const exploited = crawl(online);
    // the page linking the crawler's judged paper sets r1 at its own immediate value
    expect(online.stats().recalibrations).toBe(1);
    expect(online.thresholds.r1).toBeGreaterThan(0);
    expect(online.thresholds.r1).toBeLessThan(1);
    expect(exploited).toBeGreaterThanOrEqual(1);
    // scope "link": r1 refitted on the links' immediate values as routed (list -> paper: a judged paper)
    const byLink = new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
      ...opts,
      r1: 2,
      r2: 0.3,
      thresholds: 'online',
      scope: 'link',
    });
    crawl(byLink);
    expect(byLink.stats().recalibrations).toBe(1);
    const b = DEFAULT_ADAPTIVE.sourceWeight;
    const topic = new Topic(['neural network learning']);
    // the list page's link to the paper: its immediate value when routed (idf as the crawler had it then)
    for (const t of ['Title: neural learning Abstract: network References [1] neural', 'neural network learning pizza'])
      topic.addDocument(tokenize(` ${t}`));
    const iv =
      (1 - b) * topic.similarity(linkWords({ url: 'http://s.test/p.pdf', anchor: 'publications', around: '' })) +
      b * topic.similarity(tokenize(' neural network learning pizza'));
    expect(byLink.thresholds.r1).toBeCloseTo(iv, 12);
  });

  it('startPage "exploit": the start page\'s links by immediate score; "tunnel" (default): by Q', () => {
    const make = (startPage: 'tunnel' | 'exploit') =>
      new AdaptiveStrategy(new Topic(['neural network learning']), toyModel(), [], {
        ...opts,
        r1: 0.9,
        r2: 100,
        startPage,
      });
    const links = [link('http://s.test/nn.html', 'neural network'), link('http://s.test/pubs.html', 'publications')];
    const start = { ...view(0, 'http://s.test/', 'department of computer science', links), depth: 0 };
    const tunnel = make('tunnel').onPage(start, links).scores;
    expect(tunnel.every((x) => x !== null && x < 1)).toBe(true);
    // by Q: the publications link first
    expect(tunnel[1]!).toBeGreaterThan(tunnel[0]!);
    const exploit = make('exploit').onPage(start, links).scores;
    expect(exploit.every((x) => x !== null && x >= 1)).toBe(true);
    // by immediate score: the topical link first
    expect(exploit[0]!).toBeGreaterThan(exploit[1]!);
    // below the start page the rule is the paper's: an off-topic page without promise is discarded
    const a = make('exploit');
    a.onPage(start, links);
    expect(a.onPage(view(1, 'http://s.test/x', 'pizza', links), links).scores).toEqual([null, null]);
  });

  it('immediate value ranks on-topic links first', () => {
    const s = new ImmediateStrategy(new Topic(['query optimization', 'database']));
    const ls = [
      link('http://s.test/db/query-optimization.html', 'query optimization in databases'),
      link('http://s.test/sports.html', 'football results'),
    ];
    const d = s.onPage(view(0, 'http://s.test/', 'department home', ls), ls);
    expect(d.scores[0]!).toBeGreaterThan(d.scores[1]!);
  });
});
