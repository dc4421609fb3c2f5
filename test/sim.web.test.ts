import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Renderer } from '../sim/content.ts';
import { GroundTruth } from '../sim/truth.ts';
import { Kind, Web } from '../sim/web.ts';
import { tinyConfig } from './helpers.ts';

function fingerprint(web: Web, sample = 3000): string {
  const h = createHash('sha256');
  h.update(Buffer.from(web.outTarget.buffer, web.outTarget.byteOffset, web.outTarget.byteLength));
  h.update(web.kind);
  const r = new Renderer(web);
  for (let id = 0; id < web.n; id += Math.max(1, Math.floor(web.n / sample))) h.update(r.render(id).body);
  return h.digest('hex');
}

describe('synthetic web generation', () => {
  it('is deterministic: same config and seed give the same graph and byte-identical pages', () => {
    expect(fingerprint(new Web(tinyConfig(), 7))).toBe(fingerprint(new Web(tinyConfig(), 7)));
  });

  it('another seed gives another web', () => {
    expect(fingerprint(new Web(tinyConfig(), 7))).not.toBe(fingerprint(new Web(tinyConfig(), 8)));
  });

  it('webs of one seed share their text pools, which follow the seed and the Zipf exponent, also once dropped', () => {
    // six other seeds push a seed's pools out of the cache (it keeps four); they are built again
    const evict = (): void => {
      for (let seed = 11; seed <= 16; seed++) new Renderer(new Web(tinyConfig(), seed)).render(0);
    };
    const first = fingerprint(new Web(tinyConfig(), 7));
    evict();
    expect(fingerprint(new Web(tinyConfig(), 7))).toBe(first);
    // another exponent right after the same seed's pools were built: its own pools, as if built first
    const steeper = tinyConfig({ text: { zipfExponent: 1.3 } });
    expect(steeper.text.zipfExponent).not.toBe(tinyConfig().text.zipfExponent);
    const afterOther = fingerprint(new Web(steeper, 7));
    evict();
    expect(fingerprint(new Web(steeper, 7))).toBe(afterOther);
  });

  it('every page has a canonical URL that resolves back to it', () => {
    const web = new Web(tinyConfig(), 3);
    const truth = new GroundTruth(web);
    for (let id = 0; id < web.n; id++) expect(truth.idOf(truth.renderer.url(id))).toBe(id);
  });

  it('renders papers in the documented .pdf/.ps formats, most with an abstract heading, and syllabi without', () => {
    const web = new Web(tinyConfig(), 3);
    const r = new Renderer(web);
    const pdf = [...web.kind.keys()].find((i) => web.kind[i] === Kind.Paper && web.aux[i] === 0)!;
    const ps = [...web.kind.keys()].find((i) => web.kind[i] === Kind.Paper && web.aux[i] === 1)!;
    const syl = [...web.kind.keys()].find((i) => web.kind[i] === Kind.Syllabus)!;
    const a = r.render(pdf);
    expect(a.contentType).toBe('application/pdf');
    expect(String(a.body)).toMatch(/^%PDF-1\.4\n%SYNTH-DOC\nTitle: .+\nAuthors: .+\n/);
    expect(String(a.body)).toContain('\nReferences\n');
    // a tenth of the papers open with their summary, no abstract heading (issue #52)
    const papers = [...web.kind.keys()].filter((i) => web.kind[i] === Kind.Paper && web.aux[i] !== 2);
    const headed = papers.filter((i) => String(r.render(i).body).includes('\nAbstract: ')).length / papers.length;
    expect(headed).toBeGreaterThan(0.8);
    expect(headed).toBeLessThan(0.97);
    expect(r.path(pdf)).toMatch(/\.pdf$/);
    const b = r.render(ps);
    expect(b.contentType).toBe('application/postscript');
    expect(String(b.body)).toMatch(/^%!PS-Adobe-3\.0\n%%Title: /);
    expect(r.path(ps)).toMatch(/\.ps$/);
    const c = r.render(syl);
    expect(c.contentType).toBe('application/pdf');
    expect(String(c.body)).not.toContain('Abstract:');
  });
});

describe('ground truth', () => {
  it('every relevant document is reachable from its site homepage', () => {
    const web = new Web(tinyConfig(), 5);
    const truth = new GroundTruth(web);
    for (const site of web.sites.filter((s) => s.kind === 'department')) {
      const dist = truth.siteDistances(site.index);
      const rel = truth.relevantOf(site.host);
      expect(rel.length).toBeGreaterThan(10);
      for (const id of rel) expect(dist[id - site.first]).toBeGreaterThan(0);
    }
  });

  it('judges URLs as a crawler saw them (session ids ignored) and never calls a syllabus relevant', () => {
    const web = new Web(tinyConfig(), 5);
    const truth = new GroundTruth(web);
    const paper = web.kind.indexOf(Kind.Paper);
    const syl = web.kind.indexOf(Kind.Syllabus);
    expect(truth.isRelevantUrl(`${truth.renderer.url(paper)}?sid=abc`)).toBe(true);
    expect(truth.isRelevantUrl(truth.renderer.url(syl))).toBe(false);
    expect(truth.isRelevantUrl('http://cs.alpha-university.test/nope-99999.pdf')).toBe(false);
    expect(truth.csv().split('\n')[0]).toBe('url,label,host,kind,topic,relevant,distance');
  });
});
