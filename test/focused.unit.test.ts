import { describe, expect, it } from 'vitest';
import { FeatureSpace } from '../crawler/focused/features.ts';
import { LinkClassifier, type Example } from '../crawler/focused/nb.ts';
import { binOf, makeBins, stateValues } from '../crawler/focused/qvalue.ts';
import { judgedTokens } from '../crawler/focused/immediate-future.ts';
import { tokenize } from '../lib/text.ts';
import { looksLikePaper, Topic } from '../crawler/focused/topic.ts';
import {
  DEFAULT_FUTURE,
  siteExamples,
  trainFutureModel,
  trainingExamples,
  type LabelledPage,
  type QExample,
} from '../crawler/focused/training-examples.ts';
import type { ParsedLink, ParsedPage } from '../crawler/parser.ts';

describe('tokens, tf-idf and cosine', () => {
  it('stems, lower-cases and drops stopwords and numbers', () => {
    expect(tokenize('The Neural Networks of 1999, and query-optimization!')).toEqual([
      'neural',
      'network',
      'queri',
      'optim',
    ]);
  });

  it('cosine of hand-made texts against a keyword topic', () => {
    const topic = new Topic(['neural network', 'database']);
    // no documents yet: idf = ln(1/1) + 1 = 1 for every word, tf = 1 + ln(count)
    // q = {neural: 1, network: 1, databas: 1}, |q| = sqrt(3)
    expect(topic.similarity(tokenize('neural network'))).toBeCloseTo(2 / (Math.sqrt(3) * Math.sqrt(2)), 10);
    expect(topic.similarity(tokenize('database'))).toBeCloseTo(1 / Math.sqrt(3), 10);
    expect(topic.similarity(tokenize('football pizza'))).toBe(0);
    expect(topic.similarity([])).toBe(0);
    // after documents, idf down-weights common words: "network" in every document, "neural" in one
    topic.addDocument(tokenize('network one'));
    topic.addDocument(tokenize('network two'));
    topic.addDocument(tokenize('neural network'));
    const idfNeural = Math.log(4 / 2) + 1;
    const idfNetwork = Math.log(4 / 4) + 1;
    expect(topic.idf('neural')).toBeCloseTo(idfNeural, 10);
    expect(topic.idf('network')).toBeCloseTo(idfNetwork, 10);
    const qn = Math.sqrt(idfNeural ** 2 + idfNetwork ** 2 + (Math.log(4 / 1) + 1) ** 2);
    expect(topic.similarity(tokenize('neural'))).toBeCloseTo((idfNeural * idfNeural) / (qn * idfNeural), 10);
  });

  it('judged tokens are remembered per page text and title, and counted once per document', () => {
    const page = { title: 'Neural networks', text: 'query optimization for neural databases' };
    const a = judgedTokens(page);
    expect(a).toEqual(tokenize(`${page.title} ${page.text}`));
    // the same page read by the next strategy: the same array, not tokenized again
    expect(judgedTokens({ ...page })).toBe(a);
    // the same text under another title is another page
    expect(judgedTokens({ ...page, title: 'Football' })).toEqual(tokenize(`Football ${page.text}`));
    expect(judgedTokens(page)).toEqual(a);
    const topic = new Topic(['neural network']);
    topic.addDocument(['neural', 'neural', 'network']);
    expect(topic.idf('neural')).toBeCloseTo(Math.log(2 / 2) + 1, 10);
  });

  it('judges papers from content, not from the file extension', () => {
    expect(looksLikePaper('pdf', 'Title: X Abstract: we show. 1 Introduction ... References [1] y')).toBe(true);
    expect(looksLikePaper('pdf', 'Title: Syllabus CS 101 office hours')).toBe(false);
    expect(looksLikePaper('html', 'Abstract ... References')).toBe(false);
  });
});

describe('Q-values on a hand-drawn graph', () => {
  //   0 -> 1 -> 2(paper)      0 -> 3(paper)      1 -> 4 -> 5(paper)      4 -> 2
  const g = { out: [[1, 3], [2, 4], [], [], [5, 2], []], reward: [0, 0, 1, 1, 0, 1] };
  it('sums gamma^distance over each reachable relevant document once (shortest path)', () => {
    const V = stateValues(g, 0.5, 5);
    expect(V[2]).toBe(1);
    expect(V[5]).toBe(1);
    expect(V[4]).toBe(0.5 + 0.5); // 5 and 2 at one hop
    expect(V[1]).toBe(0.5 + 0.25); // 2 at one hop (not also via 4), 5 at two
    expect(V[0]).toBe(0.5 + 0.25 + 0.125); // 3 at one, 2 at two, 5 at three
  });
  it('respects the horizon and the nearest-only aggregate', () => {
    const V1 = stateValues(g, 0.5, 1);
    expect(V1[0]).toBe(0.5);
    expect(V1[1]).toBe(0.5);
    const N = stateValues(g, 0.5, 5, 'nearest');
    expect(N[0]).toBe(0.5);
    expect(N[4]).toBe(0.5);
  });
  it('bins: zero, then equal shares of the positive values', () => {
    const b = makeBins([0, 0, 0, 0.5, 0.5, 1, 2, 3], 3);
    expect(b.thresholds).toEqual([0.01, 1]);
    expect([0, 0.5, 1, 3].map((q) => binOf(b, q))).toEqual([0, 1, 2, 2]);
    expect(b.means).toEqual([0, 0.5, 2]);
  });
});

describe('Naive Bayes link classifier', () => {
  const data: Example[] = [];
  for (let i = 0; i < 60; i++) {
    data.push({ tokens: ['a:paper', 'u:pdf', `n:x${i % 3}`], label: 2 });
    data.push({ tokens: ['a:publications', 'u:html', `n:x${i % 5}`], label: 1 });
    data.push({ tokens: ['a:football', 'a:pizza', `n:x${i % 4}`], label: 0 });
  }
  const bins = { thresholds: [0.01, 1], means: [0, 0.5, 1] };
  const space = new FeatureSpace([
    'a:paper',
    'u:pdf',
    'a:publications',
    'u:html',
    'a:football',
    'a:pizza',
    'n:x0',
    'n:x1',
  ]);
  it('learns separable toy data and predicts with calibrated posteriors', () => {
    const m = LinkClassifier.train(data, bins, { space });
    const p = m.posteriors(['a:paper', 'u:pdf']);
    expect(p[2]).toBeGreaterThan(0.99);
    expect(m.posteriors(['a:football'])[0]).toBeGreaterThan(0.95);
    expect(m.posteriors(['a:publications'])[1]).toBeGreaterThan(0.95);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(m.expectedQ(['a:paper'])).toBeGreaterThan(m.expectedQ(['a:publications']));
    expect(m.expectedQ(['a:publications'])).toBeGreaterThan(m.expectedQ(['a:pizza']));
    expect(m.topWords(2)[2].words.map((w) => w.word)).toEqual(expect.arrayContaining(['a:paper']));
    // round trip through JSON (the model cache)
    expect(LinkClassifier.fromJSON(JSON.parse(JSON.stringify(m.toJSON()))).posteriors(['u:pdf'])).toEqual(
      m.posteriors(['u:pdf']),
    );
  });
  it('estimates Laplace-smoothed multinomial parameters, the same by training or by adding counts up', () => {
    // known answer: F = 2 features; class 0 saw "a" twice, class 1 saw "b" once; priors over 3 examples
    const tiny = new FeatureSpace(['a', 'b']);
    const ex = [
      { tokens: ['a', 'a'], label: 0 },
      { tokens: [], label: 0 },
      { tokens: ['b'], label: 1 },
    ];
    const two = { thresholds: [0.5], means: [0, 1] };
    const j = LinkClassifier.train(ex, two, { space: tiny }).toJSON();
    expect(j.logCond[0]).toEqual([Math.log(3 / 4), Math.log(1 / 4)].map((x) => expect.closeTo(x, 12)));
    expect(j.logCond[1]).toEqual([Math.log(1 / 3), Math.log(2 / 3)].map((x) => expect.closeTo(x, 12)));
    expect(j.logPrior).toEqual([Math.log(3 / 5), Math.log(2 / 5)].map((x) => expect.closeTo(x, 12)));
    // the adaptive crawler's route: counts added up (here in two halves) give the same model
    const half = (k: number) => LinkClassifier.count(space, data.slice(k * 90, (k + 1) * 90), 3);
    const [h0, h1] = [half(0), half(1)];
    const sum = {
      classCounts: h0.classCounts.map((c, i) => c + h1.classCounts[i]),
      featureCounts: h0.featureCounts.map((row, c) => row.map((x, i) => x + h1.featureCounts[c][i])),
    };
    const whole = LinkClassifier.train(data, bins, { space, maxRows: 1_000_000 });
    expect(LinkClassifier.fromCounts(space, sum, bins).toJSON().logCond).toEqual(
      whole.toJSON().logCond.map((r) => r.map((x) => expect.closeTo(x, 12))),
    );
  });
  it('selects features by information gain within their namespace budget', () => {
    const s = FeatureSpace.select(data, 3, { a: 2, u: 1, n: 0, t: 0 });
    expect(s.names).toHaveLength(3);
    expect(s.names.filter((n) => n.startsWith('a:'))).toHaveLength(2);
    expect(s.names.filter((n) => n.startsWith('u:'))).toHaveLength(1);
  });
});

// ---- adaptive branch logic on a scripted page stream ----

const link = (url: string, anchor: string): ParsedLink => ({ url, anchor, around: '', heading: '', nofollow: false });

describe('leave-one-site-out', () => {
  const page = (url: string, links: string[], relevant = false): LabelledPage => ({
    url,
    relevant,
    page: {
      kind: 'html',
      title: 't',
      headings: [],
      text: '',
      links: links.map((u) => link(u, 'x')),
      noindex: false,
      nofollow: false,
      charset: 'utf-8',
    } as ParsedPage,
  });
  it('uses only the other sites and refuses an example of the held-out site', () => {
    const bySite = new Map<string, QExample[]>([
      [
        'a.test',
        siteExamples([page('http://a.test/', ['http://a.test/p']), page('http://a.test/p', [], true)], {
          gamma: 0.5,
          horizon: 1,
          aggregate: 'sum',
        }),
      ],
      [
        'b.test',
        siteExamples([page('http://b.test/', ['http://b.test/q']), page('http://b.test/q', [])], {
          gamma: 0.5,
          horizon: 1,
          aggregate: 'sum',
        }),
      ],
    ]);
    const ex = trainingExamples(bySite, 'b.test');
    expect(ex.length).toBeGreaterThan(0);
    expect(ex.every((e) => e.host === 'a.test')).toBe(true);
    expect(ex[0].q).toBe(1);
    const poisoned = new Map(bySite);
    poisoned.set('c.test', [{ tokens: [], q: 0, host: 'b.test' }]);
    expect(() => trainingExamples(poisoned, 'b.test')).toThrow(/leave-one-site-out/);
  });
});

describe('tokens from kept words', () => {
  it('a page and its links give the same tokens from their words as from their joined text (a generated department)', async () => {
    const { loadConfig } = await import('../sim/config.ts');
    const { Web } = await import('../sim/web.ts');
    const { sitePages } = await import('../experiments/web-training.ts');
    const { linkFeatures, linkWords } = await import('../crawler/focused/features.ts');
    const { pageTokens } = await import('../crawler/focused/calibrate.ts');
    const web = new Web(loadConfig('data/webs/small.json'), 3);
    const host = web.sites.find((s) => s.kind === 'department')!.host;
    let links = 0;
    for (const p of sitePages(web, host).slice(0, 400)) {
      expect(p.page.kind !== 'html' || p.page.words !== undefined).toBe(true);
      expect(pageTokens(p)).toEqual(tokenize(`${p.page.title} ${p.page.text}`));
      for (const l of p.page.links) {
        expect(l.aroundList?.join(' ')).toBe(l.around);
        const ctx = { url: l.url, anchor: l.anchor, heading: l.heading, sourceTitle: p.page.title };
        expect(linkFeatures({ ...ctx, around: l.aroundList! })).toEqual(linkFeatures({ ...ctx, around: l.around }));
        expect(linkWords({ ...ctx, around: l.aroundList! })).toEqual(linkWords({ ...ctx, around: l.around }));
        links++;
      }
    }
    expect(links).toBeGreaterThan(1000);
  });

  it('judged tokens and link features remembered with the parsed objects equal those made from text', async () => {
    const { parseBody } = await import('../crawler/parser.ts');
    const { DEFAULT_SETTINGS: D } = await import('../crawler/settings.ts');
    const { featuresOfLink, wholeTokens, JUDGED_CHARS } = await import('../crawler/focused/tokens.ts');
    const { linkFeatures } = await import('../crawler/focused/features.ts');
    const para = (n: number): string =>
      Array.from({ length: n }, (_, i) => `Crawling ${i} papers, ΟΔΟΣ web-mining`).join(' ');
    // a short page (judged whole), and a long one (judged up to JUDGED_CHARS, cut inside a word)
    for (const words of [40, 2000]) {
      const html = `<html><title>Focused Crawlers</title><p>${para(words)}</p><a href="/p.pdf">the paper</a><p>${para(5)}</p></html>`;
      const page = parseBody(Buffer.from(html), 'text/html', 'http://a.test/', D, D.aroundWords);
      expect(page.text.length > JUDGED_CHARS).toBe(words > 1000);
      const cut = page.text.length > JUDGED_CHARS ? page.text.slice(0, JUDGED_CHARS) : page.text;
      expect(judgedTokens(page)).toEqual(tokenize(`${page.title} ${cut}`));
      expect(judgedTokens({ title: page.title, text: page.text })).toEqual(tokenize(`${page.title} ${cut}`));
      expect(wholeTokens(page)).toEqual(tokenize(`${page.title} ${page.text}`));
      // remembered: the same array for the same page, another for another title
      expect(judgedTokens(page)).toBe(judgedTokens(page));
      expect(judgedTokens({ ...page, text: page.text, words: page.words, title: 'Spiders' })[0]).toBe('spider');
      const l = page.links[0];
      const made = linkFeatures({
        url: l.url,
        anchor: l.anchor,
        around: l.around,
        heading: l.heading,
        sourceTitle: page.title,
      });
      expect(featuresOfLink(l, page.title)).toEqual(made);
      expect(featuresOfLink(l, page.title)).toBe(featuresOfLink(l, page.title));
      expect(featuresOfLink(l, 'Another title')).toEqual(
        linkFeatures({
          url: l.url,
          anchor: l.anchor,
          around: l.around,
          heading: l.heading,
          sourceTitle: 'Another title',
        }),
      );
    }
  });
});

describe('future value ablation', () => {
  it('features "link" trains without the page-level cues (source title, heading): they score nothing', () => {
    const examples: QExample[] = [];
    for (let i = 0; i < 40; i++) {
      examples.push({ tokens: ['a:public', 't:publist', 'u:paper'], q: 1, host: 'a.test' });
      examples.push({ tokens: ['a:home', 't:seealso', 'u:index'], q: 0, host: 'a.test' });
    }
    const all = trainFutureModel(examples, DEFAULT_FUTURE);
    const link = trainFutureModel(examples, { ...DEFAULT_FUTURE, features: 'link' });
    expect(all.space.names.some((n) => n.startsWith('t:'))).toBe(true);
    expect(link.space.names.some((n) => n.startsWith('t:'))).toBe(false);
    expect(link.space.names).toContain('a:public');
    // the heading alone tells the bins apart for the full model, and not at all for the ablated one
    expect(all.expectedQ(['t:publist'])).toBeGreaterThan(all.expectedQ(['t:seealso']));
    expect(link.expectedQ(['t:publist'])).toBe(link.expectedQ(['t:seealso']));
  });
});
