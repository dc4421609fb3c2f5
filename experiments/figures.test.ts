/**
 * The figure theme: one size for every curve figure, text at 7 pt or more, legends that fit their
 * canvas whatever the strategies are called, a style no other series of the figure shares, and real
 * text (with its font) in the SVG and the PDF.
 */
import { inflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { BUILT_INS, registerStrategy } from './strategy-registry.ts';
import { legendLayout, textWidth } from './figure-layout.ts';
import { curveSpec, renderFigure, seriesOrder, seriesStyles, styleClashes } from './figures.ts';
import { bandsText } from './intervals.ts';

const rows = (names: string[], lo: number): object[] =>
  names.flatMap((strategy) =>
    [100, 200].map((pages) => ({ strategy, pages, recall: 0.5, recall_lo: lo, recall_hi: 0.6 })),
  );

/** Bounding box of everything drawn, background aside, in the SVG's own px. */
function drawnBox(svg: string, widthPx: number, heightPx: number): { right: number; bottom: number } {
  const px = svg
    .replace(/width="[\d.]+in" height="[\d.]+in"/, `width="${widthPx}" height="${heightPx}"`)
    .replace(/<rect width="[\d.]+" height="[\d.]+" fill="white"\/>/, '');
  const box = new Resvg(px).getBBox();
  if (!box) throw new Error('nothing drawn');
  return { right: box.x + box.width, bottom: box.y + box.height };
}

/** The text a PDF's content streams draw with, and the fonts it embeds. */
function pdfParts(pdf: Buffer): { streams: string; raw: string } {
  const raw = pdf.toString('latin1');
  let streams = '';
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    try {
      streams += inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      // not deflated (or a font program): not content
    }
  }
  return { streams, raw };
}

describe('figures', () => {
  it('share one size, print text at 7 pt or more and come as SVG, PNG and PDF', async () => {
    const a = await renderFigure(curveSpec(rows(['oracle', 'bfs', 'adaptive'], 0.4), 'recall', { y: 'recall' }));
    const b = await renderFigure(
      curveSpec(rows(['future'], -0.4), 'recall', { y: 'recall minus immediate', yDomain: null, zero: true }),
    );
    expect(a.png.readUInt32BE(16)).toBe(b.png.readUInt32BE(16));
    expect(a.png.readUInt32BE(20)).toBe(b.png.readUInt32BE(20));
    expect(a.fontPt).toBeGreaterThanOrEqual(7);
    expect(a.svg).toMatch(/^<svg [^>]*width="3.3in"/);
    expect(a.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // a figure too wide for one column would print its text too small
    const wide = { ...curveSpec(rows(['bfs'], 0.4), 'recall', { y: 'recall' }), width: 900 } as Parameters<
      typeof renderFigure
    >[0];
    await expect(renderFigure(wide)).rejects.toThrow(/pt at 3.3 in/);
  });

  it('fit a legend with a 25-character strategy name inside the canvas, text in the SVG', async () => {
    const long = 'my-own-strategy-with-rank';
    expect(long).toHaveLength(25);
    const names = ['oracle', 'bfs', 'immediate', 'future', 'adaptive', 'url-prior', 'docs-first', long];
    const plain = await renderFigure(curveSpec(rows(['oracle', 'bfs', 'adaptive'], 0.4), 'recall', { y: 'recall' }));
    const fig = await renderFigure(curveSpec(rows(names, 0.4), 'recall', { y: 'recall' }));
    // the canvas is no wider (its width is the journal column), only taller by the legend's rows
    expect(fig.widthPx).toBe(plain.widthPx);
    expect(fig.png.readUInt32BE(16)).toBe(plain.png.readUInt32BE(16));
    expect(fig.heightPx).toBeGreaterThan(plain.heightPx);
    const box = drawnBox(fig.svg, fig.widthPx, fig.heightPx);
    expect(box.right).toBeLessThanOrEqual(fig.widthPx);
    expect(box.bottom).toBeLessThanOrEqual(fig.heightPx);
    // every name is real text, whole (no ellipsis)
    for (const n of names) expect(fig.svg).toContain(`>${n}</text>`);
    // in as few rows as the names allow: two columns here, not one entry a row
    expect(legendLayout(names).columns).toBe(2);
    // a name longer than any column is cut with an ellipsis, still inside the canvas
    const huge = 'a-strategy-name-far-longer-than-any-column-of-a-figure-could-hold';
    expect(legendLayout([huge]).cut.get(huge)).toMatch(/^a-strategy-name-far-longer.*\u2026$/);
    const cut = await renderFigure(curveSpec(rows(['bfs', huge], 0.4), 'recall', { y: 'recall' }));
    expect(drawnBox(cut.svg, cut.widthPx, cut.heightPx).right).toBeLessThanOrEqual(cut.widthPx);
    expect(cut.svg).toContain('\u2026</text>');
  });

  it('fit the oracle and 8 strategies at 3.3 in and 7 in: every legend label whole, inside the canvas (issue #87)', async () => {
    // a set whose third legend column ran 5 px off the canvas when the columns were only predicted
    const names = ['oracle', 'bfs', 'immediate', 'url-prior', 'infospiders', 'baseline-lab', 'topic-words'];
    names.push('topic-words-v2', 'adaptive-page');
    for (const columns of [1, 2] as const) {
      const fig = await renderFigure(curveSpec(rows(names, 0.4), 'recall', { y: 'precision' }), columns);
      const box = drawnBox(fig.svg, fig.widthPx, fig.heightPx);
      expect(box.right, `${columns} column(s)`).toBeLessThanOrEqual(fig.widthPx);
      expect(box.bottom, `${columns} column(s)`).toBeLessThanOrEqual(fig.heightPx);
      for (const n of names) expect(fig.svg).toContain(`>${n}</text>`);
      expect(fig.svg).not.toContain('\u2026</text>');
    }
  });

  it('carry real text and their font in the SVG and the PDF, byte-identical on a rerun', async () => {
    const spec = curveSpec(rows(['oracle', 'bfs'], 0.4), 'recall', { y: 'recall' });
    const a = await renderFigure(spec);
    const b = await renderFigure(spec);
    expect(a.svg).toContain('>pages crawled</text>');
    expect(a.svg).toMatch(
      /@font-face\{font-family:"DejaVu Sans";src:url\(data:font\/woff2;base64,[A-Za-z0-9+/=]{1000,}\)/,
    );
    const pdf = pdfParts(a.pdf);
    expect(pdf.raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    expect(pdf.raw).toContain('/ToUnicode');
    expect(pdf.streams).toMatch(/BT[\s\S]*Tj|TJ/);
    expect(a.svg).toBe(b.svg);
    expect(a.pdf.equals(b.pdf)).toBe(true);
    expect(a.png.equals(b.png)).toBe(true);
  });

  it('give every series of a figure its own look: house styles distinct, plug-ins take unused ones', () => {
    const house = seriesOrder(['oracle', ...BUILT_INS.map((d) => d.name)]);
    const styles = seriesStyles(house);
    // CIE L*a*b* of an sRGB colour (D65): distances there are distances the eye sees
    const lab = (c: string): number[] => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const v = Number.parseInt(c.slice(i, i + 2), 16) / 255;
        return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      const xyz = [
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089,
      ].map((t) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116));
      return [116 * xyz[1] - 16, 500 * (xyz[0] - xyz[1]), 200 * (xyz[1] - xyz[2])];
    };
    for (let i = 0; i < house.length; i++)
      for (let j = i + 1; j < house.length; j++) {
        const [ci, di] = styles[i];
        const [cj, dj] = styles[j];
        // two lines look alike when their colours are near (CIE76 difference under 25: two greys
        // of the same hue and 20 points of lightness apart are) and their dashes the same
        const near = Math.hypot(...lab(ci).map((v, k) => v - lab(cj)[k])) < 25;
        expect(near && di.join() === dj.join(), `${house[i]} and ${house[j]} look alike`).toBe(false);
      }
    const withPlugins = [...house, 'mine-a', 'mine-b', 'mine-c'];
    const all = seriesStyles(withPlugins).map(([c, d]) => `${c}|${d.join()}`);
    expect(new Set(all).size).toBe(all.length);
  });

  it('draw a plug-in in the style it declares, unless another series of the figure has its colour (issues #71, #87)', () => {
    registerStrategy('pink-dotted', () => ({ name: 'pink-dotted' }) as never, ['#CC79A7', [1, 3]]);
    expect(seriesStyles(['bfs', 'pink-dotted'])[1]).toEqual(['#CC79A7', [1, 3]]);
    // declaring bfs's own look: a clash, resolved to a spare pair, not drawn like bfs
    const bfs = seriesStyles(['bfs'])[0];
    registerStrategy('like-bfs', () => ({ name: 'like-bfs' }) as never, [bfs[0], bfs[1]]);
    const [b, l] = seriesStyles(['bfs', 'like-bfs']);
    expect(l).not.toEqual(b);
    // and the caption says so, naming the series that holds the style and the one drawn instead
    expect(styleClashes(['bfs', 'pink-dotted'])).toEqual([]);
    const [clash] = styleClashes(['bfs', 'like-bfs']);
    expect(clash).toContain(`like-bfs declared ${bfs[0].toUpperCase()}`);
    expect(clash).toContain('which bfs draws: drawn');
    expect(clash).toContain(l[0].toUpperCase());
    // bfs's colour with another dash: a clash too, drawn in a colour no series of the figure has
    registerStrategy('bfs-colour', () => ({ name: 'bfs-colour' }) as never, [bfs[0], [7, 1]]);
    const styles = seriesStyles(['bfs', 'immediate', 'bfs-colour']);
    expect(new Set(styles.map(([c]) => c.toLowerCase())).size).toBe(3);
    expect(styleClashes(['bfs', 'immediate', 'bfs-colour'])).toEqual([
      `bfs-colour declared ${bfs[0].toUpperCase()} dash 7,1, which bfs draws: drawn ${styles[2][0].toUpperCase()} ${
        styles[2][1].length ? `dash ${styles[2][1].join(',')}` : 'solid'
      }`,
    ]);
  });

  it('draw bands only when asked: fewer than 3 units give none (issue #71)', () => {
    const rows = [
      { strategy: 'bfs', pages: 10, recall: 0.2, recall_lo: 0, recall_hi: 1 },
      { strategy: 'bfs', pages: 20, recall: 0.4, recall_lo: 0, recall_hi: 1 },
    ];
    const marks = (bands?: boolean): string[] =>
      (curveSpec(rows, 'recall', { y: 'recall', bands }) as { layer: { mark: { type: string } }[] }).layer.map(
        (l) => l.mark.type,
      );
    expect(marks()).toEqual(['area', 'line']);
    expect(marks(false)).toEqual(['line']);
    expect(bandsText('site', 2)).toMatch(/^none drawn: a 95% interval over 2 sites \(df 1\)/);
    expect(bandsText('seed', 3)).toMatch(/^95% Student t interval over 3 web seeds/);
  });

  it('measure text with the font it is drawn in', () => {
    // DejaVu Sans: 'm' is wider than 'i', and 25 characters of a name take about 130 px at 10 px
    expect(textWidth('m')).toBeGreaterThan(2 * textWidth('i'));
    expect(textWidth('my-own-strategy-with-rank')).toBeGreaterThan(100);
    expect(textWidth('my-own-strategy-with-rank')).toBeLessThan(160);
  });
});
