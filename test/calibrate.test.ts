/** The adaptive crawler's thresholds fitted on the training sites per scope (crawler/focused/calibrate.ts), by hand. */
import { describe, expect, it } from 'vitest';
import { calibrateAdaptive, thresholdsFor } from '../crawler/focused/calibrate.ts';
import { FeatureSpace, linkWords } from '../crawler/focused/features.ts';
import { type Example, LinkClassifier } from '../crawler/focused/nb.ts';
import { Topic } from '../crawler/focused/topic.ts';
import type { LabelledPage } from '../crawler/focused/training-examples.ts';
import type { ParsedLink } from '../crawler/parser.ts';
import { tokenize } from '../lib/text.ts';

const link = (url: string, anchor: string): ParsedLink => ({ url, anchor, around: '', heading: '', nofollow: false });
const page = (url: string, text: string, links: ParsedLink[], relevant = false): LabelledPage => ({
  url,
  relevant,
  page: {
    kind: relevant ? 'pdf' : 'html',
    title: '',
    headings: [],
    text,
    links,
    noindex: false,
    nofollow: false,
    charset: 'utf-8',
  },
});

describe('thresholds fitted per scope', () => {
  it('scope "link": r1 on links\' immediate values against "leads to a paper", r2 on links\' own Q below it', () => {
    const ex: Example[] = [];
    for (let i = 0; i < 30; i++) {
      ex.push({ tokens: ['a:public', 'u:public'], label: 2 });
      ex.push({ tokens: ['a:footbal', 'u:footbal'], label: 0 });
    }
    const model = LinkClassifier.train(
      ex,
      { thresholds: [0.01, 1], means: [0, 0.5, 2] },
      { space: new FeatureSpace(['a:public', 'u:public', 'a:footbal', 'u:footbal']) },
    );
    const s = 'http://s.test';
    const pages = [
      // an off-topic hub: a topical link to a paper, a football page, a publications list
      page(`${s}/hub`, 'staff directory phone', [
        link(`${s}/p1.pdf`, 'neural network learning'),
        link(`${s}/football`, 'football'),
        link(`${s}/publications`, 'publications'),
      ]),
      page(`${s}/football`, 'football pizza', []),
      page(`${s}/publications`, 'list', [link(`${s}/p2.pdf`, 'pdf')]),
      page(`${s}/p1.pdf`, 'neural network learning paper', [], true),
      page(`${s}/p2.pdf`, 'neural network paper', [], true),
    ];
    const keywords = ['neural network learning'];
    const c = calibrateAdaptive(pages, model, keywords, 0.5, 1, undefined, undefined, undefined, 0);
    // with beta 0 a link's immediate value is its words' cosine; the links between training pages:
    // hub -> p1 (cos > 0, to a paper), hub -> football, hub -> publications, publications -> p2 (to a paper)
    const topic = new Topic(keywords);
    for (const p of pages) topic.addDocument(tokenize(`${p.page.title} ${p.page.text}`));
    const cosP1 = topic.similarity(linkWords({ url: `${s}/p1.pdf`, anchor: 'neural network learning', around: '' }));
    expect(cosP1).toBeGreaterThan(0);
    // F1 at cos(hub -> p1): 1 of 2 papers among 1 link, 2/3; at 0 (all four): 2 of 2 among 4, 2/3: ties keep the higher
    expect(c.links).toBe(4);
    expect(c.link.f1.r1).toBeCloseTo(cosP1, 4);
    // below r1: football (Q ~ 0, nothing within Q's horizon), publications (Q high, a paper one link on),
    // publications -> p2 (a paper): the best F1 is at the publications link's Q or below it
    const qPub = model.expectedQ(['a:public', 'u:public']);
    expect(c.link.f1.r2).toBeLessThanOrEqual(Math.round(qPub * 1e4) / 1e4);
    expect(c.link.f1.r2).toBeGreaterThan(model.expectedQ(['a:footbal', 'u:footbal']));
    // each scope reads its own thresholds
    expect(thresholdsFor(c, 'f1', 'link')).toEqual(c.link.f1);
    expect(thresholdsFor(c, 'f1', 'page')).toEqual({ r1: c.r1, r2: c.r2 });
    expect(c.sourceWeight).toBe(0);
  });
});
