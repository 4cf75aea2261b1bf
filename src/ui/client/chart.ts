import { el } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

export interface LineChart {
  title: string;
  /** One value per x position (null: no value there). */
  values: Array<number | null>;
  /** The label of each x position (a run), shown in its point's tooltip. */
  labels: string[];
  /** Positions where something changed (the model, the agent), with what. */
  marks: Array<{ index: number; what: string }>;
  format(value: number): string;
  /** The y range; default the values' own. */
  range?: [number, number];
  /** Clicking a point. */
  open?(index: number): void;
}

/** A line over runs as an SVG the width of its box, with a dashed rule where the model or agent version changed. */
export function lineChart(chart: LineChart): HTMLElement {
  const width = 600;
  const height = 140;
  const pad = { left: 40, right: 8, top: 8, bottom: 16 };
  const present = chart.values.filter((v): v is number => v !== null);
  let [lo, hi] = chart.range ?? [Math.min(...present), Math.max(...present)];
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (lo === hi) [lo, hi] = [lo - 0.5, hi + 0.5];
  const n = chart.values.length;
  const x = (i: number) => pad.left + (n <= 1 ? 0 : (i / (n - 1)) * (width - pad.left - pad.right));
  const y = (v: number) => pad.top + (1 - (v - lo) / (hi - lo)) * (height - pad.top - pad.bottom);
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    class: 'chart',
    preserveAspectRatio: 'none',
  });
  const label = svg('title', {});
  label.textContent = chart.title;
  root.append(label);
  for (const v of [lo, hi]) {
    root.append(svg('line', { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: 'grid' }));
    const t = svg('text', { x: pad.left - 4, y: y(v) + 4, class: 'axis', 'text-anchor': 'end' });
    t.textContent = chart.format(v);
    root.append(t);
  }
  for (const mark of chart.marks) {
    const line = svg('line', {
      x1: x(mark.index),
      x2: x(mark.index),
      y1: pad.top,
      y2: height - pad.bottom,
      class: 'mark',
    });
    const tip = svg('title', {});
    tip.textContent = mark.what;
    line.append(tip);
    root.append(line);
  }
  let d = '';
  chart.values.forEach((v, i) => {
    if (v === null) return;
    d += `${d && chart.values[i - 1] !== null ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
  });
  root.append(svg('path', { d, class: 'line' }));
  if (n <= 200)
    chart.values.forEach((v, i) => {
      if (v === null) return;
      const dot = svg('circle', { cx: x(i), cy: y(v), r: 3, class: 'dot' });
      const tip = svg('title', {});
      tip.textContent = `${chart.labels[i] ?? ''}: ${chart.format(v)}`;
      dot.append(tip);
      if (chart.open) dot.addEventListener('click', () => chart.open?.(i));
      root.append(dot);
    });
  return el(
    'figure',
    { class: 'figure' },
    el('figcaption', null, chart.title),
    root as unknown as HTMLElement,
  );
}
