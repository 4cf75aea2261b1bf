import { el } from './dom.js';
import type { Axis } from './types.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

export interface LineChart {
  title: string;
  /** One value per x position (null: no value there). */
  values: Array<number | null>;
  /** The label of each x position (a run), shown in its point's tooltip. */
  labels: string[];
  /** The short name of each x position, under the x axis (at most four are shown). */
  ticks: string[];
  /** Positions where something changed (the model, the agent), with what. */
  marks: Array<{ index: number; what: string }>;
  /** The value axis, fitted to the values (`src/ui/axis.ts`). */
  axis: Axis;
  format(value: number): string;
  /** A tick's label on the value axis. */
  tick(value: number): string;
  /** Clicking a point. */
  open?(index: number): void;
}

// The drawing's own units: the SVG scales to its box's width, text and all, so it is laid out near the size it is
// shown at (a box of 420 px or so on a laptop, 360 on a phone).
const WIDTH = 420;
const HEIGHT = 176;
const PAD = { left: 44, right: 14, top: 10, bottom: 26 };

/**
 * A line over runs: a value axis labelled at its ticks, the runs named along the bottom (the first, the last and two
 * between), a point per run that measured the value and a gap in the line where one did not, and a dashed rule where
 * the model or agent version changed.
 */
export function lineChart(chart: LineChart): HTMLElement {
  const { min, max, ticks } = chart.axis;
  const n = chart.values.length;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (n <= 1 ? plotWidth / 2 : (i / (n - 1)) * plotWidth);
  const y = (v: number) => PAD.top + (1 - (v - min) / (max - min || 1)) * plotHeight;
  const root = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'chart' });
  root.append(svg('title', {}, chart.title));
  root.append(svg('rect', { x: PAD.left, y: PAD.top, width: plotWidth, height: plotHeight, class: 'plot' }));
  const yAxis = svg('g', { class: 'y-axis' });
  for (const t of ticks) {
    yAxis.append(
      svg('line', { x1: PAD.left, x2: PAD.left + plotWidth, y1: y(t), y2: y(t), class: 'grid' }),
      svg('text', { x: PAD.left - 5, y: y(t) + 3.5, class: 'axis', 'text-anchor': 'end' }, chart.tick(t)),
    );
  }
  const xAxis = svg('g', { class: 'x-axis' });
  const named =
    n <= 4
      ? chart.values.map((_, i) => i)
      : [0, Math.round((n - 1) / 3), Math.round((2 * (n - 1)) / 3), n - 1];
  for (const i of named) {
    const anchor = n > 1 && i === 0 ? 'start' : n > 1 && i === n - 1 ? 'end' : 'middle';
    const at = anchor === 'start' ? x(i) - 8 : anchor === 'end' ? x(i) + 8 : x(i);
    xAxis.append(
      svg('line', {
        x1: x(i),
        x2: x(i),
        y1: PAD.top + plotHeight,
        y2: PAD.top + plotHeight + 4,
        class: 'grid',
      }),
      svg(
        'text',
        { x: at, y: PAD.top + plotHeight + 16, class: 'axis', 'text-anchor': anchor },
        chart.ticks[i] ?? '',
      ),
    );
  }
  root.append(yAxis, xAxis);
  for (const mark of chart.marks) {
    const line = svg('line', {
      x1: x(mark.index),
      x2: x(mark.index),
      y1: PAD.top,
      y2: PAD.top + plotHeight,
      class: 'mark',
    });
    line.append(svg('title', {}, mark.what));
    root.append(line);
  }
  // A run that did not measure the value breaks the line: a path per stretch of measured runs, never a point at zero.
  const series = svg('g', { class: 'series' });
  let d = '';
  const flush = () => {
    if (d.includes('L')) series.append(svg('path', { d, class: 'line' }));
    d = '';
  };
  chart.values.forEach((v, i) => {
    if (v === null) flush();
    else d += `${d ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
  });
  flush();
  if (n <= 200)
    chart.values.forEach((v, i) => {
      if (v === null) return;
      const dot = svg('circle', {
        cx: x(i).toFixed(1),
        cy: y(v).toFixed(1),
        r: n > 40 ? 2 : 3,
        class: 'dot',
      });
      dot.append(svg('title', {}, `${chart.labels[i] ?? ''}: ${chart.format(v)}`));
      if (chart.open) dot.addEventListener('click', () => chart.open?.(i));
      series.append(dot);
    });
  root.append(series);
  return el(
    'figure',
    { class: 'figure' },
    el('figcaption', null, chart.title),
    root as unknown as HTMLElement,
  );
}
