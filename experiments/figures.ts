/**
 * Figures, one theme for every experiment: Vega-Lite specs compiled and rendered in Node
 * (vega's headless SVG renderer), then passed through resvg, which converts every glyph to a path
 * using DejaVu Sans from the dejavu-fonts-ttf package, so the SVG renders the same anywhere and
 * needs no font. From that SVG: a PNG (resvg) and a vector PDF (pdfkit + svg-to-pdfkit) for
 * LaTeX.
 *
 * Journal sizes: a one-column figure is 3.3 in wide, a two-column one 7 in. The SVG carries its
 * physical size; text is 10 px, and renderFigure refuses a figure whose text would print below
 * 7 pt at that width. Curve figures have a fixed layout (autosize none, fixed padding), so
 * recall, precision, harvest and difference figures share one plot area and one pixel size.
 * No titles: the caption line under each figure in report.md says what it shows. Okabe-Ito
 * colours (colour-blind safe) and a dash pattern per strategy; the oracle is a thin grey line.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { BUILT_INS } from './strategies.ts';

const require = createRequire(import.meta.url);
const FONT_FILE = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf');

/** Points per inch, and the printed widths of journal figures. */
const PT = 72;
const COLUMN_IN = { 1: 3.3, 2: 7 } as const;
/** Text size in the SVG's own units (px) and the smallest printed size allowed. */
const FONT_PX = 10;
const MIN_PT = 7;
/** PNG resolution. */
const DPI = 360;

/** Layout of every curve figure: plot area and padding in px (330 x 235 with a legend of up to two rows). */
const CURVE = { width: 260, height: 150, padding: { left: 58, right: 12, top: 8, bottom: 77 } };
const LEGEND_ROW = 14;

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
      columnPadding: 10,
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

/** The house colour of each series (Okabe-Ito; series without one of their own take the spare ones in turn). */
export function seriesColours(series: readonly string[]): string[] {
  let extra = 0;
  return series.map((s) => STYLE[s]?.[0] ?? EXTRA[extra++ % EXTRA.length]);
}

function seriesScales(series: readonly string[]): {
  colour: { domain: string[]; range: string[] };
  dash: { domain: string[]; range: number[][] };
} {
  const colours = seriesColours(series);
  const dashes = series.map((s, i) => STYLE[s]?.[1] ?? DASHES[i % DASHES.length]);
  return { colour: { domain: [...series], range: colours }, dash: { domain: [...series], range: dashes } };
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
  const color = { field: seriesField, type: 'nominal' as const, scale: colour, sort: series };
  const layers: unknown[] = [
    {
      transform: [{ filter: `datum.${seriesField} !== 'oracle'` }],
      mark: { type: 'area', opacity: 0.15 },
      encoding: {
        x,
        y: { field: `${metric}_lo`, type: 'quantitative', title: opts.y, scale: yScale },
        y2: { field: `${metric}_hi` },
        color,
      },
    },
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
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: CURVE.width,
    height: CURVE.height,
    autosize: { type: 'none', contains: 'content' },
    padding: {
      ...CURVE.padding,
      bottom: CURVE.padding.bottom + LEGEND_ROW * Math.max(0, Math.ceil(series.length / (opts.legendColumns ?? 3)) - 2),
    },
    data: { values: rows.map((r) => ({ ...r })) },
    layer: layers,
    config: themeConfig(opts.legendColumns ?? 3),
  } as TopLevelSpec;
}

async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
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
  // glyphs to paths: the SVG no longer depends on a font being installed
  const flat = new Resvg(raw, resvgOptions).toString();
  const heightIn = (widthIn * heightPx) / widthPx;
  const svg = flat.replace(
    /<svg([^>]*?)\swidth="[\d.]+"\s+height="[\d.]+"/,
    `<svg$1 width="${widthIn}in" height="${heightIn.toFixed(4)}in"`,
  );
  // the flattened SVG has no text left, so the PNG needs no font: loading DejaVu was 60 of the PNG's
  // 90 ms per figure, and the PNG is byte-identical without it
  const png = new Resvg(flat, {
    background: resvgOptions.background,
    font: { loadSystemFonts: false },
    fitTo: { mode: 'width', value: Math.round(widthIn * DPI) },
  })
    .render()
    .asPng();
  return { svg, png, pdf: await svgToPdf(flat, widthIn * PT, heightIn * PT), widthPx, heightPx, fontPt };
}

/** A one-page vector PDF of a (paths-only) SVG at the given size in points; no timestamp, so reruns match. */
function svgToPdf(svg: string, widthPt: number, heightPt: number): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [widthPt, heightPt],
    margin: 0,
    info: { Producer: 'crawler-harness', Creator: 'crawler-harness', CreationDate: new Date(0) },
  });
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
