/**
 * The dialable structure of the synthetic web: site conventions decide the transfer leak, gaps
 * with their bypasses off are real, every knob at the value of the former template reproduces
 * that web byte for byte, and sim:stats reports the diagnostics.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../sim/config.ts';
import { Renderer } from '../sim/content.ts';
import { structureStats, template } from '../sim/structure.ts';
import { Web } from '../sim/web.ts';
import { webKey } from '../experiments/web-training.ts';
import { DOC_FORMS } from '../sim/conventions.ts';
import { Anchor, Kind } from '../sim/web.ts';
import { parseBody } from '../crawler/parser.ts';
import { DEFAULT_SETTINGS } from '../crawler/settings.ts';
import { looksLikePaper } from '../crawler/focused/topic.ts';

/** small.json with structure overrides. */
function small(structure: Record<string, unknown>): Web {
  const raw = JSON.parse(readFileSync('data/webs/small.json', 'utf8')) as Record<string, unknown>;
  return new Web(resolveConfig({ ...raw, structure }), 1);
}

describe('site conventions and the transfer leak', () => {
  it("one template: a URL rule learnt on three departments finds the fourth one's papers exactly", () => {
    const web = small({ conventions: 0 });
    const s = structureStats(web, new Renderer(web));
    for (const site of s.sites) expect([site.transferPrecision, site.transferRecall], site.host).toEqual([1, 1]);
  });

  it('every department its own conventions: rules learnt on three departments miss the fourth', () => {
    const web = small({ conventions: 1 });
    const s = structureStats(web, new Renderer(web));
    const same = small({ conventions: 0 });
    expect(s.templateJaccard).toBeLessThan(structureStats(same, new Renderer(same)).templateJaccard - 0.3);
    // the fixed folder x type family read 0.63 / 0.75 before #35 and a learnt list read 1.0 / 1.0:
    // papers shared their file type with nothing else. Now teaching documents, CVs and talks are
    // PDFs and PostScript too, kept where papers are kept elsewhere, and papers may be served by
    // a CGI without an extension: what marks them in three departments does not in the fourth
    for (const site of s.sites)
      expect(Math.min(site.transferPrecision, site.transferRecall), site.host).toBeLessThan(0.9);
    // and the rule nobody learns, "a document file", is as poor as the documents are mixed
    expect(s.documentPrecision).toBeLessThan(0.6);
    expect(structureStats(same, new Renderer(same)).documentPrecision).toBeGreaterThan(0.7);
  });

  it('no body marks papers for free: "a PDF with an abstract and references" errs both ways, and sizes overlap', () => {
    const paper = JSON.parse(readFileSync('data/webs/paper.json', 'utf8')) as Record<string, unknown>;
    const judged = (documentBodies: number) => {
      const web = new Web(
        resolveConfig({ ...paper, structure: { ...(paper.structure as object), documentBodies } }),
        1,
      );
      const r = new Renderer(web);
      let tp = 0;
      let fp = 0;
      let fn = 0;
      const words: { paper: number[]; other: number[] } = { paper: [], other: [] };
      for (let id = 0; id < web.n; id++) {
        const k = web.kind[id];
        if (k !== Kind.Paper && k !== Kind.Syllabus && k !== Kind.Form) continue;
        const p = r.render(id);
        if (p.contentType === 'application/gzip') continue;
        const text = String(p.body);
        const says = looksLikePaper(p.contentType.includes('pdf') ? 'pdf' : 'ps', text);
        const is = k === Kind.Paper;
        if (says && is) tp++;
        else if (says) fp++;
        else if (is) fn++;
        words[is ? 'paper' : 'other'].push(text.split(/\s+/).length);
      }
      const q = (a: number[], f: number): number => a.sort((x, y) => x - y)[Math.floor(f * (a.length - 1))];
      return {
        precision: tp / (tp + fp),
        recall: tp / (tp + fn),
        paperP10: q(words.paper, 0.1),
        otherP90: q(words.other, 0.9),
      };
    };
    const now = judged(1);
    expect(now.precision).toBeLessThan(0.99);
    expect(now.recall).toBeLessThan(0.95);
    // a tenth of the papers is shorter than a tenth of the other documents are longer
    expect(now.paperP10).toBeLessThan(now.otherP90);
    // before issue #52 the rule was exact and no other document reached a paper's size
    const before = judged(0);
    expect([before.precision, before.recall]).toEqual([1, 1]);
    expect(before.paperP10).toBeGreaterThan(2 * before.otherP90);
  });

  it('at conventions 1 no folder, link text or title template of relevant items is shared by all four departments; at 0 all are', () => {
    /**
     * Per department: the folders of relevant items' paths, the link texts (titles aside) to them
     * and to the pages that list them, and those pages' title templates.
     */
    const markers = (web: Web): { folders: Set<string>; texts: Set<string>; titles: Set<string> }[] => {
      const r = new Renderer(web);
      return web.sites
        .filter((s) => s.kind === 'department')
        .map((s) => {
          const folders = new Set<string>();
          const texts = new Set<string>();
          const titles = new Set<string>();
          const lists = new Set<number>();
          for (let u = s.first; u < s.first + s.count; u++)
            for (let e = web.outStart[u]; e < web.outStart[u + 1]; e++) {
              const v = web.outTarget[e];
              if (v < s.first || v >= s.first + s.count) continue;
              if (web.isRelevant(v)) {
                lists.add(u);
                for (const f of template(r.path(v)).split('/').slice(0, -1)) if (f) folders.add(f);
                if ((web.outFlags[e] & 7) !== Anchor.Title) texts.add(r.anchorText(u, e, v, web.outFlags[e]));
              }
            }
          for (let u = s.first; u < s.first + s.count; u++)
            for (let e = web.outStart[u]; e < web.outStart[u + 1]; e++) {
              const v = web.outTarget[e];
              if (lists.has(v) && (web.outFlags[e] & 7) === Anchor.Papers)
                texts.add(r.anchorText(u, e, v, web.outFlags[e]));
            }
          for (const l of lists)
            if (web.kind[l] === Kind.Publist) {
              const owner = r.name(web.owner[l]);
              titles.add(r.title(l).replace(`${owner.first} ${owner.last}`, 'NAME'));
            }
          return { folders, texts, titles };
        });
    };
    const common = (sets: Set<string>[]): string[] => [...sets[0]].filter((x) => sets.every((s) => s.has(x)));
    const one = markers(small({ conventions: 1 }));
    const zero = markers(small({ conventions: 0 }));
    for (const k of ['folders', 'texts', 'titles'] as const) {
      expect(common(one.map((d) => d[k])), k).toEqual([]);
      expect(common(zero.map((d) => d[k])).length, k).toBeGreaterThan(0);
    }
  });

  it('templates abstract logins, numbers and slugs', () => {
    expect(template('/~smith12/papers/neural-nets-345.pdf')).toBe('/~LOGIN/papers/X.pdf');
    expect(template('/people/lee7/pubs-88.html')).toBe('/people/LOGIN/X.html');
    expect(template('/groups/databases-3/')).toBe('/groups/X/');
  });
});

describe('gaps between research communities', () => {
  it('with every bypass off, no community reaches another in fewer than gapMin off-topic pages', () => {
    const web = small({
      gapMin: 3,
      gapMax: 4,
      directGroupShare: 0,
      bypass: { navBar: false, peopleDirectory: false, extraLinks: false },
    });
    const s = structureStats(web, new Renderer(web));
    expect(s.gapMin).toBeGreaterThanOrEqual(3);
    expect(s.gapHistogram.none ?? 0).toBe(0);
    for (const site of s.sites) expect(site.relevantLinksFromOutside).toBe(0);
  });

  it('as the topic keywords see them, gaps are never longer than by the labels, and shorter where teaching is on topic', () => {
    const structure = {
      gapMin: 3,
      gapMax: 4,
      directGroupShare: 0,
      bypass: { navBar: false, peopleDirectory: false, extraLinks: false },
    };
    const web = small(structure);
    const r = new Renderer(web);
    const kw = structureStats(web, r, { keywordR1: 0.12 });
    const pairs = (h: Record<string, number>): number => Object.values(h).reduce((a, b) => a + b, 0);
    expect(pairs(kw.keywordGapHistogram!)).toBe(pairs(kw.gapHistogram));
    expect(kw.keywordGapMin!).toBeLessThan(kw.gapMin!);
    // a threshold no page reaches: every page off-topic, the labels' count exactly
    expect(structureStats(web, r, { keywordR1: 1.01 }).keywordGapHistogram).toEqual(kw.gapHistogram);
  });

  it('with the default bypasses most pairs are 0 or 1 off-topic pages apart', () => {
    const web = small({});
    const s = structureStats(web, new Renderer(web));
    expect(s.gapMin).toBe(0);
    expect((s.gapHistogram['0'] ?? 0) + (s.gapHistogram['1'] ?? 0)).toBeGreaterThan(
      0.9 * Object.values(s.gapHistogram).reduce((a, b) => a + b, 0),
    );
  });
});

describe('knobs at the former template reproduce the former web', () => {
  // sha256 over every page (URL, status, type, body) of small.json seed 1,
  // taken before the structure knobs existed
  const BEFORE: Record<string, string> = {
    'data/webs/small.json': '7ac048c5c86ed9f2ec88d3ffb6161a78f0f1fe7103dd5a61adb2c1981275d5df',
  };
  it('conventions 0, papersFrom.extraWeight 1, documentNames 0, documentBodies 0 and cues 0 give the former pages', () => {
    for (const [file, hash] of Object.entries(BEFORE)) {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const web = new Web(
        resolveConfig({
          ...raw,
          structure: { conventions: 0, papersFrom: { extraWeight: 1 }, documentNames: 0, documentBodies: 0, cues: 0 },
        }),
        1,
      );
      const r = new Renderer(web);
      const h = createHash('sha256');
      for (let id = 0; id < web.n; id++) {
        const p = r.render(id);
        h.update(r.url(id));
        h.update(String(p.status));
        h.update(p.contentType);
        h.update(p.body);
      }
      expect(h.digest('hex'), file).toBe(hash);
    }
  });
});

describe('the model cache', () => {
  it('keys a web by its resolved config, so a changed default never reuses a model of the former web', () => {
    expect(webKey(small({ conventions: 0 }))).not.toBe(webKey(small({ conventions: 1 })));
    expect(webKey(small({}))).toBe(webKey(small({})));
  });
});

describe('document forms', () => {
  it('puts papers behind HTML abstract pages and serves gzipped PostScript where a department draws them', () => {
    const web = small({ documentForms: 1 });
    const r = new Renderer(web);
    let abstracts = 0;
    let gzipped = 0;
    for (const s of web.sites.filter((x) => x.kind === 'department')) {
      const forms = DOC_FORMS[s.docForms];
      for (let id = s.first; id < s.first + s.count; id++) {
        if (web.kind[id] === Kind.Abstract) {
          abstracts++;
          expect(forms.abstract, s.host).toBeGreaterThan(0);
          expect(web.isRelevant(id)).toBe(false);
          const paper = web.aux[id];
          const targets = [...web.links(id)].map((l) => l.target);
          expect(targets).toContain(paper);
          expect(r.render(id).body.toString()).toContain(r.path(paper).split('/').pop());
        }
        if (web.kind[id] === Kind.Paper && web.aux[id] === 2) {
          gzipped++;
          expect(forms.gzip, s.host).toBeGreaterThan(0);
          const page = r.render(id);
          expect(page.contentType).toBe('application/gzip');
          expect(r.path(id)).toMatch(/\.ps\.gz$/);
          expect(r.resolve(s.host, r.path(id))).toBe(id);
          // the crawler reads the PostScript inside and judges it as it judges any paper (a paper
          // without an abstract heading, a tenth of them, is not judged one)
          const parsed = parseBody(page.body as Buffer, page.contentType, r.url(id), DEFAULT_SETTINGS, 6);
          expect(parsed.kind).toBe('ps');
          expect(parsed.text).toContain('References');
          expect(looksLikePaper(parsed.kind, parsed.text)).toBe(/\bAbstract:/.test(parsed.text));
        }
      }
    }
    expect(abstracts).toBeGreaterThan(0);
    expect(gzipped).toBeGreaterThan(0);
  });
});
