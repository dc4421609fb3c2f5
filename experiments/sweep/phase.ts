/**
 * The sweep's phase figure: which strategy wins where, the first two parameters as axes and the
 * others as panels.
 */
import type { TopLevelSpec } from 'vega-lite';
import { seriesColours, seriesOrder, themeConfig } from '../figures.ts';
import type { PhaseRow } from './sweep-data.ts';

/** A parameter's name without its web prefix. */
export const label = (k: string): string => k.replace(/^web\.structure\./, '').replace(/^web\./, '');

/** Width in pixels a row of the phase figure's panels may take (two columns of a page at 7 pt or more). */
const PHASE_ROW_WIDTH = 700;

/** The phase figure: the first two parameters as axes, the others as panels (wrapped into rows). */
export function phaseSpec(phase: readonly PhaseRow[], params: readonly string[]): TopLevelSpec {
  const [a, b, ...rest] = params;
  const winners = seriesOrder(phase.map((p) => p.winner));
  const maxMargin = Math.max(1e-9, ...phase.map((p) => p.margin));
  const values = phase.map((p) => ({
    x: String(p[a]),
    y: b ? String(p[b]) : '',
    panel: rest.map((k) => `${label(k)} ${String(p[k])}`).join(', '),
    winner: p.winner,
    strength: 0.35 + 0.65 * Math.min(1, p.margin / maxMargin),
    margin: p.margin,
    mark: `${p.tie ? '= ' : ''}+${p.margin.toFixed(2)}\n${p.runner_up}`,
  }));
  const xs = [...new Set(phase.map((p) => String(p[a])))];
  const ys = b ? [...new Set(phase.map((p) => String(p[b])))] : [''];
  const cell = Math.max(40, Math.min(80, Math.floor(240 / Math.max(xs.length, 1))));
  const panels = [...new Set(values.map((v) => v.panel))];
  // a panel's width: its cells, the y axis's labels and title, or its own title if wider (about
  // 6 px a character at the theme's sizes)
  const longest = (xs: readonly string[]): number => Math.max(0, ...xs.map((x) => x.length));
  const panelWidth = Math.max(cell * xs.length + 6 * longest(ys) + 50, 6 * longest(panels)) + 20;
  const layer = {
    width: cell * xs.length,
    height: cell * ys.length,
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
        encoding: {
          x: { field: 'x', type: 'ordinal', sort: xs, title: label(a), axis: { labelAngle: 0 } },
          y: { field: 'y', type: 'ordinal', sort: ys, title: b ? label(b) : null },
          color: {
            field: 'winner',
            type: 'nominal',
            title: 'winner (recall AUC)',
            scale: { domain: winners, range: seriesColours(winners) },
          },
          opacity: { field: 'strength', type: 'quantitative', scale: { domain: [0, 1], range: [0, 1] }, legend: null },
        },
      },
      {
        mark: { type: 'text', fontSize: 10, color: 'white', lineBreak: '\n', fontWeight: 'bold' },
        encoding: {
          x: { field: 'x', type: 'ordinal', sort: xs },
          y: { field: 'y', type: 'ordinal', sort: ys },
          text: { field: 'mark' },
        },
      },
    ],
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    // panels wrap into rows, as many to a row as fit the figure's width (a multiverse of five
    // parameters has eight panels: in one row their text printed at 2.3 pt)
    ...(rest.length
      ? {
          facet: { field: 'panel', type: 'nominal', title: null, sort: panels },
          columns: Math.max(1, Math.floor(PHASE_ROW_WIDTH / panelWidth)),
          spec: layer,
        }
      : layer),
    config: (() => {
      const t = themeConfig(2);
      return { ...t, axis: { ...(t.axis as object), grid: false } };
    })(),
  } as TopLevelSpec;
}
