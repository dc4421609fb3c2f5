/**
 * Figures: Vega-Lite specs compiled and rendered to SVG in Node (vega's headless renderer), and
 * to PNG with resvg using DejaVu Sans from the dejavu-fonts-ttf package, so output does not
 * depend on the machine's fonts. Mean curves with 95% confidence bands, Okabe-Ito colours
 * (colour-blind safe) and a distinct dash pattern per strategy; sized for a paper's column.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Aggregate } from './analysis.ts';

const require = createRequire(import.meta.url);
export const FONT_FILE = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf');

const ORDER = ['bfs', 'random', 'immediate', 'future', 'adaptive', 'isit', 'cartesian', 'probe-random', 'probe-generic', 'probe-adaptive'];
const COLOURS: Record<string, string> = { bfs: '#000000', random: '#E69F00', immediate: '#56B4E9', future: '#009E73', adaptive: '#D55E00', isit: '#D55E00', cartesian: '#000000', 'probe-random': '#E69F00', 'probe-generic': '#56B4E9', 'probe-adaptive': '#009E73' };
const EXTRA = ['#0072B2', '#CC79A7', '#F0E442'];
const DASHES = [[1, 0], [2, 2], [6, 3], [8, 3, 2, 3], [1, 0], [4, 4], [10, 2]];

export interface Axes { x: string; y: string; logX?: boolean; legend?: string }

export function curveSpec(aggs: readonly Aggregate[], metric: 'recall' | 'precision', title: string, axes?: Axes): TopLevelSpec {
  const strategies = [...new Set(aggs.map((a) => a.strategy))].sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
  const colours = strategies.map((s, i) => COLOURS[s] ?? EXTRA[i % EXTRA.length]);
  const dashes = strategies.map((_, i) => DASHES[i % DASHES.length]);
  const scale = { domain: strategies, range: colours };
  const x = { field: 'pages', type: 'quantitative' as const, title: axes?.x ?? 'pages crawled', ...(axes?.logX ? { scale: { type: 'log' as const } } : {}) };
  const yTitle = axes?.y ?? (metric === 'recall' ? 'recall (relevant found / all relevant)' : 'precision (harvest rate)');
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, fontSize: 12 },
    width: 300,
    height: 200,
    data: { values: aggs.map((a) => ({ ...a })) },
    layer: [
      {
        mark: { type: 'area', opacity: 0.15 },
        encoding: { x, y: { field: `${metric}_lo`, type: 'quantitative', title: yTitle, scale: { domain: [0, 1] } }, y2: { field: `${metric}_hi` }, color: { field: 'strategy', type: 'nominal', scale, title: axes?.legend ?? 'strategy' } },
      },
      {
        mark: { type: 'line', strokeWidth: 1.8 },
        encoding: {
          x,
          y: { field: metric, type: 'quantitative', title: yTitle },
          color: { field: 'strategy', type: 'nominal', scale, title: axes?.legend ?? 'strategy' },
          strokeDash: { field: 'strategy', type: 'nominal', scale: { domain: strategies, range: dashes }, title: axes?.legend ?? 'strategy' },
        },
      },
    ],
    config: { font: 'DejaVu Sans', axis: { labelFontSize: 10, titleFontSize: 10 }, legend: { labelFontSize: 10, titleFontSize: 10, orient: 'right', symbolStrokeWidth: 2, symbolSize: 200, symbolType: 'stroke', symbolOpacity: 1 }, background: 'white' },
  } as TopLevelSpec;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

export function svgToPng(svg: string, width = 1200): Buffer {
  const r = new Resvg(svg, { fitTo: { mode: 'width', value: width }, font: { fontFiles: [FONT_FILE], loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' }, background: 'white' });
  return r.render().asPng();
}
