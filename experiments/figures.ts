/**
 * Figures, one theme for every experiment: Vega-Lite specs compiled and rendered in Node
 * (vega's headless SVG renderer) with text set in DejaVu Sans (the dejavu-fonts-ttf package). Vega
 * measures text with that font's own advance widths (fontkit), not its default estimate, so legends
 * and labels are laid out at the size they are drawn. From one SVG: the SVG itself, with real text
 * (selectable, searchable) and the subset of DejaVu Sans it uses embedded as WOFF2 (subset-font),
 * so it renders the same anywhere; a PNG (resvg with the same font file); a vector PDF for LaTeX
 * (pdfkit + svg-to-pdfkit, real text, the font subset embedded) -- as matplotlib's svg.fonttype
 * 'none' and pdf.fonttype 42, with the font carried along.
 *
 * Journal sizes: a one-column figure is 3.3 in wide, a two-column one 7 in. The SVG carries its
 * physical size; text is 10 px, and renderFigure refuses a figure whose text would print below
 * 7 pt at that width. Curve figures have a fixed layout (autosize none, fixed padding), so
 * recall, precision, harvest and difference figures share one plot area and one pixel size.
 * No titles: the caption line under each figure in report.md says what it shows. Okabe-Ito
 * colours (colour-blind safe) and a dash pattern per strategy; the oracle is a thin grey line.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { BUILT_INS, strategyStyle } from './strategy-registry.ts';
import {
  CURVE,
  FONT_FILE,
  FONT_PX,
  LEGEND_COLUMN_PADDING,
  LEGEND_ROW,
  legendFitted,
  legendLayout,
} from './figure-layout.ts';

const require = createRequire(import.meta.url);
/** subset-font ships no types: the call used here. */
const subsetFont = require('subset-font') as (
  font: Buffer,
  text: string,
  options: { targetFormat: 'woff2' },
) => Promise<Buffer>;

/** Points per inch, and the printed widths of journal figures. */
const PT = 72;
const COLUMN_IN = { 1: 3.3, 2: 7 } as const;
/** The smallest printed text size allowed (text is FONT_PX in the SVG's own units). */
const MIN_PT = 7;
/** PNG resolution. */
const DPI = 360;

/** The deep-web methods (experiments/deepweb/), which are not crawl strategies. */
const DEEPWEB_STYLE: Record<string, [string, number[]]> = {
  isit: ['#D55E00', [10, 2]],
  cartesian: ['#000000', [2, 2]],
  'probe-random': ['#E69F00', [6, 3]],
  'probe-generic': ['#56B4E9', [8, 3, 2, 3]],
  'probe-adaptive': ['#009E73', [4, 4]],
};
/** Series order: the oracle, the built-in strategies in their house order (their descriptors), the deep-web methods. */
const ORDER = ['oracle', ...BUILT_INS.map((d) => d.name), ...Object.keys(DEEPWEB_STYLE)];
/** Colour and dash pattern of each house series (Okabe-Ito colours; a strategy looks the same in every figure). */
const STYLE: Record<string, [string, number[]]> = {
  oracle: ['#9E9E9E', []],
  ...Object.fromEntries(BUILT_INS.map((d) => [d.name, [d.style[0], [...d.style[1]]]])),
  ...DEEPWEB_STYLE,
};
/** Colours and dashes of series without a house style, taken in turn. */
const EXTRA = ['#0072B2', '#CC79A7', '#F0E442'];
const DASHES = [[], [2, 2], [6, 3], [8, 3, 2, 3], [4, 4], [10, 2]];

/** Theme settings every figure shares (fonts, sizes, legend below the plot, horizontal labels). */
export function themeConfig(legendColumns = 3): Record<string, unknown> {
  return {
    font: 'DejaVu Sans',
    background: 'white',
    view: { stroke: '#888' },
    axis: {
      labelFontSize: FONT_PX,
      titleFontSize: FONT_PX,
      titleFontWeight: 'normal',
      labelAngle: 0,
      grid: true,
      gridColor: '#e6e6e6',
    },
    axisX: { labelAngle: 0 },
    header: { labelFontSize: FONT_PX, titleFontSize: FONT_PX },
    legend: {
      orient: 'bottom',
      direction: 'horizontal',
      columns: legendColumns,
      labelFontSize: FONT_PX,
      titleFontSize: FONT_PX,
      title: null,
      symbolStrokeWidth: 2,
      symbolSize: 150,
      symbolType: 'stroke',
      symbolOpacity: 1,
      labelLimit: 0,
      columnPadding: LEGEND_COLUMN_PADDING,
      rowPadding: 2,
      offset: 14,
      symbolLimit: 0,
    },
  };
}

/** Series in the house order (oracle first, then the paper's strategies), then alphabetically. */
export function seriesOrder(names: Iterable<string>): string[] {
  return [...new Set(names)].sort(
    (a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
  );
}

/** The colour of each series (Okabe-Ito house colours; series without one take spare ones, seriesStyles). */
export function seriesColours(series: readonly string[]): string[] {
  return seriesStyles(series).map((s) => s[0]);
}

/**
 * Colour and dash of every series in one figure: the house style where there is one, else the
 * first spare colour x dash pair no other series of the figure draws, so no two lines look alike.
 */
export function seriesStyles(series: readonly string[]): [colour: string, dash: number[]][] {
  const key = (c: string, d: readonly number[]): string => `${c.toLowerCase()}|${d.join(',')}`;
  const taken = new Set(series.filter((s) => STYLE[s]).map((s) => key(STYLE[s][0], STYLE[s][1])));
  const colours = new Set(series.filter((s) => STYLE[s]).map((s) => STYLE[s][0].toLowerCase()));
  // a plug-in's declared style, unless another series of this figure already draws its colour:
  // a dash alone does not tell two curves apart in a small figure or a legend (issue #87). A clash
  // is resolved as a series without a style is: the next spare pair
  const declared = new Map<string, [string, number[]]>();
  for (const s of series) {
    const d = STYLE[s] ? undefined : strategyStyle(s);
    if (d && !colours.has(d[0].toLowerCase())) {
      declared.set(s, [d[0], [...d[1]]]);
      taken.add(key(d[0], d[1]));
      colours.add(d[0].toLowerCase());
    }
  }
  const free: [string, number[]][] = [];
  for (const d of DASHES) for (const c of EXTRA) if (!taken.has(key(c, d))) free.push([c, d]);
  // colours no series draws first: a colour told apart by its dash alone comes only when none is left
  const spare = [
    ...free.filter(([c]) => !colours.has(c.toLowerCase())),
    ...free.filter(([c]) => colours.has(c.toLowerCase())),
  ];
  let next = 0;
  return series.map((s) => {
    const own = STYLE[s] ?? declared.get(s);
    if (own) return [own[0], [...own[1]]];
    const pick = spare[next++ % spare.length];
    return [pick[0], [...pick[1]]];
  });
}

/**
 * The plug-ins of a figure whose declared colour another series already draws (whatever its
 * dash), in words for the caption: "mine declared #E69F00 solid, bfs's: drawn #56B4E9 dashed" (seriesStyles resolves them).
 */
export function styleClashes(series: readonly string[]): string[] {
  const styles = seriesStyles(series);
  const key = ([c, d]: readonly [string, readonly number[]]): string => `${c.toLowerCase()}|${d.join(',')}`;
  const text = ([c, d]: readonly [string, readonly number[]]): string =>
    `${c.toUpperCase()} ${d.length ? `dash ${d.join(',')}` : 'solid'}`;
  const out: string[] = [];
  series.forEach((s, i) => {
    const d = STYLE[s] ? undefined : strategyStyle(s);
    if (!d || key(styles[i]) === key(d)) return;
    const holder = series.find((_, j) => j !== i && styles[j][0].toLowerCase() === d[0].toLowerCase());
    out.push(`${s} declared ${text(d)}, which ${holder ?? 'another series'} draws: drawn ${text(styles[i])}`);
  });
  return out;
}

function seriesScales(series: readonly string[]): {
  colour: { domain: string[]; range: string[] };
  dash: { domain: string[]; range: number[][] };
} {
  const styles = seriesStyles(series);
  return {
    colour: { domain: [...series], range: styles.map((s) => s[0]) },
    dash: { domain: [...series], range: styles.map((s) => s[1]) },
  };
}

export interface CurveOptions {
  /** Field holding the series name (default strategy) and the x field (default pages). */
  series?: string;
  xField?: string;
  x?: string;
  y: string;
  logX?: boolean;
  /** y domain (default [0, 1]); null: fitted to the data. */
  yDomain?: [number, number] | null;
  /** Draw a horizontal rule at 0 (difference figures). */
  zero?: boolean;
  /** Legend columns (default 3); the legend's rows grow the bottom padding beyond two. */
  legendColumns?: number;
  /** Draw the CI bands (default true; false with fewer than intervals.ts MIN_BAND_UNITS units). */
  bands?: boolean;
}

/**
 * Mean curves with their CI bands: rows carry `${metric}`, `${metric}_lo`, `${metric}_hi`, the
 * series field and the x field. The oracle series, if present, is drawn without a band.
 */
export function curveSpec(rows: readonly object[], metric: string, opts: CurveOptions): TopLevelSpec {
  const seriesField = opts.series ?? 'strategy';
  const xField = opts.xField ?? 'pages';
  const series = seriesOrder(rows.map((r) => String((r as Record<string, unknown>)[seriesField])));
  const { colour, dash } = seriesScales(series);
  const x = {
    field: xField,
    type: 'quantitative' as const,
    title: opts.x ?? 'pages crawled',
    axis: { format: 'd', tickCount: 5 },
    ...(opts.logX ? { scale: { type: 'log' as const } } : {}),
  };
  const yScale = opts.yDomain === null ? { zero: false } : { domain: opts.yDomain ?? [0, 1] };
  const color: Record<string, unknown> = { field: seriesField, type: 'nominal', scale: colour, sort: series };
  const band = {
    transform: [{ filter: `datum.${seriesField} !== 'oracle'` }],
    mark: { type: 'area', opacity: 0.15 },
    encoding: {
      x,
      y: { field: `${metric}_lo`, type: 'quantitative', title: opts.y, scale: yScale },
      y2: { field: `${metric}_hi` },
      color,
    },
  };
  const layers: unknown[] = [
    ...(opts.bands === false ? [] : [band]),
    {
      mark: { type: 'line', clip: true },
      encoding: {
        x,
        y: { field: metric, type: 'quantitative', title: opts.y, scale: yScale },
        color,
        strokeDash: { field: seriesField, type: 'nominal', scale: dash, sort: series },
        strokeWidth: { condition: { test: `datum.${seriesField} === 'oracle'`, value: 1 }, value: 1.6 },
      },
    },
  ];
  // the zero line goes under the curves, so a strategy equal to the reference stays visible
  if (opts.zero)
    layers.unshift({
      mark: { type: 'rule', color: '#444', strokeWidth: 0.8 },
      encoding: { y: { datum: 0, type: 'quantitative' } },
    });
  const legend = legendLayout(series, opts.legendColumns ?? 3);
  const config = themeConfig(legend.columns);
  if (legend.cut.size)
    color.legend = {
      labelExpr: [...legend.cut].reduceRight(
        (rest, [name, label]) => `datum.label === ${JSON.stringify(name)} ? ${JSON.stringify(label)} : ${rest}`,
        'datum.label',
      ),
    };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: CURVE.width,
    height: CURVE.height,
    autosize: { type: 'none', contains: 'content' },
    padding: { ...CURVE.padding, bottom: CURVE.padding.bottom + LEGEND_ROW * Math.max(0, legend.rows - 2) },
    data: { values: rows.map((r) => ({ ...r })) },
    layer: layers,
    config,
  } as TopLevelSpec;
}

async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  await view.runAsync();
  const refit = legendFitted(spec, view);
  if (refit) {
    view.finalize();
    return renderSvg(refit);
  }
  const svg = await view.toSVG();
  view.finalize();
  // vega numbers clip paths with a counter shared by every figure of the process: number them
  // per figure, so a figure's SVG is the same whatever was drawn before it
  const ids = new Map<string, string>();
  return svg.replace(/\bclip\d+\b/g, (id) => {
    if (!ids.has(id)) ids.set(id, `clip${ids.size + 1}`);
    return ids.get(id) as string;
  });
}

export interface Figure {
  svg: string;
  png: Buffer;
  pdf: Buffer;
  widthPx: number;
  heightPx: number;
  fontPt: number;
}

const resvgOptions = {
  font: { fontFiles: [FONT_FILE], loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' },
  background: 'white',
};

let fontBytes: Buffer | undefined;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The characters an SVG's text elements draw (entities decoded). */
function drawnCharacters(svg: string): string {
  const chars = new Set<string>();
  for (const [, inner] of svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)) {
    const text = inner
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (m, e: string) =>
        e[0] === '#' ? String.fromCodePoint(Number(e[1] === 'x' ? `0${e.slice(1)}` : e.slice(1))) : (ENTITIES[e] ?? m),
      );
    for (const c of text) chars.add(c);
  }
  return [...chars].sort().join('');
}

/** The SVG with the subset of DejaVu Sans its text draws embedded as WOFF2, so it needs no installed font. */
async function withEmbeddedFont(svg: string): Promise<string> {
  const chars = drawnCharacters(svg);
  if (!chars) return svg;
  fontBytes ??= readFileSync(FONT_FILE);
  const woff2 = await subsetFont(fontBytes, chars, { targetFormat: 'woff2' });
  const style = `<defs><style>@font-face{font-family:"DejaVu Sans";src:url(data:font/woff2;base64,${woff2.toString('base64')}) format("woff2")}</style></defs>`;
  return svg.replace(/<svg\b[^>]*>/, (open) => open + style);
}

/**
 * Renders a spec to the three files of a figure, `columns` wide (1: 3.3 in, 2: 7 in). Throws if
 * the text would print below MIN_PT at that width.
 */
export async function renderFigure(spec: TopLevelSpec, columns: 1 | 2 = 1): Promise<Figure> {
  const raw = await renderSvg(spec);
  const [, w, h] = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(raw) ?? [];
  const widthPx = Number(w);
  const heightPx = Number(h);
  const widthIn = COLUMN_IN[columns];
  const fontPt = (FONT_PX * widthIn * PT) / widthPx;
  if (!(fontPt >= MIN_PT))
    throw new Error(
      `figure ${widthPx} px wide: text would print at ${fontPt.toFixed(1)} pt at ${widthIn} in (minimum ${MIN_PT} pt)`,
    );
  const heightIn = (widthIn * heightPx) / widthPx;
  const sized = raw.replace(
    /<svg([^>]*?)\swidth="[\d.]+"\s+height="[\d.]+"/,
    `<svg$1 width="${widthIn}in" height="${heightIn.toFixed(4)}in"`,
  );
  const svg = await withEmbeddedFont(sized);
  const png = new Resvg(raw, { ...resvgOptions, fitTo: { mode: 'width', value: Math.round(widthIn * DPI) } })
    .render()
    .asPng();
  return { svg, png, pdf: await svgToPdf(raw, widthIn * PT, heightIn * PT), widthPx, heightPx, fontPt };
}

/** A one-page vector PDF of an SVG at the given size in points, text in embedded DejaVu Sans; no timestamp, so reruns match. */
function svgToPdf(svg: string, widthPt: number, heightPt: number): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [widthPt, heightPt],
    margin: 0,
    info: { Producer: 'crawler-harness', Creator: 'crawler-harness', CreationDate: new Date(0) },
  });
  doc.registerFont('DejaVu Sans', FONT_FILE);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // a dash pattern with a zero length means solid in SVG; PDF rejects it
  const solid = svg.replace(/\sstroke-dasharray="([^"]*)"/g, (m, v: string) =>
    v.split(/[\s,]+/).some((x) => Number(x) <= 0) ? '' : m,
  );
  SVGtoPDF(doc, solid, 0, 0, {
    width: widthPt,
    height: heightPt,
    assumePt: false,
    preserveAspectRatio: 'xMinYMin meet',
    fontCallback: () => 'DejaVu Sans',
  });
  doc.end();
  return done;
}

/** Writes NAME.svg, NAME.png and NAME.pdf through `put` and returns the figure. */
export async function writeFigure(
  put: (name: string, content: string | Buffer) => void,
  name: string,
  spec: TopLevelSpec,
  columns: 1 | 2 = 1,
): Promise<Figure> {
  const fig = await renderFigure(spec, columns);
  put(`${name}.svg`, fig.svg);
  put(`${name}.png`, fig.png);
  put(`${name}.pdf`, fig.pdf);
  return fig;
}
