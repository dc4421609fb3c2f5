/**
 * A figure's size and text: the font it is drawn in and text measured with that font's own
 * advance widths, the curve figures' fixed layout, and the legend's layout -- predicted from the
 * text widths (legendLayout), then checked on vega's own layout and refitted where a label would
 * leave the canvas (legendFitted). experiments/figures.ts draws with them.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';

const require = createRequire(import.meta.url);
export const FONT_FILE = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf');
/** fontkit ships no types: the two calls used here. */
const fontkit = require('fontkit') as {
  openSync(path: string): { unitsPerEm: number; layout(text: string): { advanceWidth: number } };
};
/** Text size in the SVG's own units (px). */
export const FONT_PX = 10;

/** Layout of every curve figure: plot area and padding in px (330 x 235 with a legend of up to two rows). */
export const CURVE = { width: 260, height: 150, padding: { left: 58, right: 12, top: 8, bottom: 77 } };
export const LEGEND_ROW = 15;
/** A legend entry: the stroke symbol and the gap before its label (px), and the gap between columns. */
const LEGEND_SYMBOL = 19;
export const LEGEND_COLUMN_PADDING = 10;

let font: ReturnType<typeof fontkit.openSync> | undefined;
const widthCache = new Map<string, number>();

/** Width in px of one line of text set in DejaVu Sans at `sizePx`: what resvg, a browser and the PDF draw. */
export function textWidth(text: string, sizePx = FONT_PX): number {
  const key = `${sizePx}|${text}`;
  let w = widthCache.get(key);
  if (w === undefined) {
    font ??= fontkit.openSync(FONT_FILE);
    w = (font.layout(text).advanceWidth / font.unitsPerEm) * sizePx;
    if (widthCache.size > 10_000) widthCache.clear();
    widthCache.set(key, w);
  }
  return w;
}

// Vega's documented hook for text measurement (vl-convert sets it too): without a canvas it guesses
// 0.8 em a character, half as wide again as DejaVu Sans, which misplaces legends and labels.
// (the hook is not in vega's typings)
(
  vega as unknown as { textMetrics: { width: (item: { fontSize?: number }, text: unknown) => number } }
).textMetrics.width = (item, text) =>
  textWidth(text == null ? '' : String(text).trim(), item.fontSize != null ? Number(item.fontSize) || 0 : 11);

/**
 * How a curve figure's legend fits its canvas: as many columns (up to `maxColumns`) as the labels
 * allow in the width from the plot's left edge to the canvas's right edge -- entries fill rows left
 * to right and each column is as wide as its widest entry, as vega lays them out -- then as many
 * rows as the series need. A label too long for even one column is cut with an ellipsis (`cut`:
 * name -> label), here rather than by vega's labelLimit, whose layout counts the uncut width.
 */
export function legendLayout(
  series: readonly string[],
  maxColumns = 3,
  available = CURVE.width + CURVE.padding.right,
): { columns: number; rows: number; cut: Map<string, string> } {
  const room = available - LEGEND_SYMBOL;
  const cut = new Map<string, string>();
  for (const s of series) {
    if (textWidth(s) <= room) continue;
    let keep = s.length;
    while (keep > 1 && textWidth(`${s.slice(0, keep)}\u2026`) > room) keep--;
    cut.set(s, `${s.slice(0, keep)}\u2026`);
  }
  const entries = series.map((s) => LEGEND_SYMBOL + textWidth(cut.get(s) ?? s));
  const width = (columns: number): number => {
    const widest = Array.from({ length: columns }, () => 0);
    entries.forEach((w, i) => {
      widest[i % columns] = Math.max(widest[i % columns], w);
    });
    return widest.reduce((a, b) => a + b, 0) + (columns - 1) * LEGEND_COLUMN_PADDING;
  };
  let columns = Math.max(1, Math.min(maxColumns, series.length));
  while (columns > 1 && width(columns) > available) columns--;
  return { columns, rows: Math.ceil(series.length / columns), cut };
}

/** Scenegraph items as vega's view holds them (not in its typings): a group's items are offset by its x, y. */
interface SceneItem {
  x?: number;
  marktype?: string;
  role?: string;
  bounds?: { x2: number };
  items?: SceneItem[];
}

/** The legend's labels: how many, and the right edge of the furthest, in the canvas's px. */
function legendLabels(root: SceneItem): { count: number; right: number } {
  let count = 0;
  let right = Number.NEGATIVE_INFINITY;
  const walk = (mark: SceneItem, ox: number): void => {
    for (const it of mark.items ?? []) {
      if (mark.role === 'legend-label' && it.bounds) {
        count++;
        right = Math.max(right, ox + it.bounds.x2);
      }
      walk(it, mark.marktype === 'group' ? ox + (it.x ?? 0) : ox);
    }
  };
  walk({ marktype: 'group', items: [root] }, 0);
  return { count, right };
}

/**
 * The spec with its legend in fewer columns until every label lies inside the canvas, measured on
 * vega's own layout (legendLayout predicts it from the text widths, but vega's placement of the
 * entries differs from that model by a few px a column: a label of the last column ran up to 5 px
 * off the canvas, issue #87); the bottom padding grows by a row for each row the legend gains.
 */
export function legendFitted(spec: TopLevelSpec, view: vega.View): TopLevelSpec | null {
  const s = spec as { width?: number; padding?: { left: number; right: number; bottom: number } } & {
    config?: { legend?: { columns?: number } };
  };
  const columns = s.config?.legend?.columns ?? 1;
  if (!s.padding || s.width === undefined || columns <= 1) return null;
  const { count, right } = legendLabels((view as unknown as { scenegraph(): { root: SceneItem } }).scenegraph().root);
  // the scenegraph's x is from the plot's origin, padding.left from the canvas's edge
  if (!count || right <= s.width + s.padding.right) return null;
  const rows = (c: number): number => Math.max(0, Math.ceil(count / c) - 2);
  const bottom = s.padding.bottom + LEGEND_ROW * (rows(columns - 1) - rows(columns));
  return {
    ...spec,
    padding: { ...s.padding, bottom },
    config: { ...s.config, legend: { ...s.config?.legend, columns: columns - 1 } },
  } as TopLevelSpec;
}
