import { get } from '../api.js';
import type { ViewContext } from '../app.js';
import { lineChart } from '../chart.js';
import { el, fmt, link, pct, query, when } from '../dom.js';
import { inlined } from '../report.js';
import type { Trends } from '../types.js';
import { empty } from '../vlist.js';

const SPANS = [20, 100, 500, 2000];

/** The Trends view: pass rate and each metric's mean over the last runs, ruled where the model or agent changed. */
export async function trendsView(context: ViewContext): Promise<void> {
  const { root, url } = context;
  // The report holds the trend up to its run over one span: it offers that one.
  const spans = inlined ? inlined.values('/api/trends', 'last').map(Number) : SPANS;
  const asked = Number(url.searchParams.get('last') ?? 100);
  const last = spans.includes(asked) ? asked : spans.includes(100) ? 100 : (spans[0] ?? 100);
  const trends = await get<Trends>(`/api/trends${query({ last })}`);
  if (!context.current()) return;
  const bar = el('div', { class: 'filters' }, 'last ');
  for (const span of spans) {
    const a = link(`/trends${query({ last: span })}`, String(span));
    a.className = 'chip';
    a.setAttribute('aria-pressed', String(span === last));
    bar.append(a);
  }
  bar.append(el('span', { class: 'count' }, `${trends.runs.length} of ${trends.total} runs`));
  root.append(el('h1', null, 'Trends'), bar);
  if (trends.runs.length === 0) {
    root.append(empty('The store holds no run yet.'));
    return;
  }
  const labels = trends.runs.map(
    (r) => `${when(r.time)} ${r.commit?.slice(0, 7) ?? r.id}${r.model ? ` ${r.model}` : ''}`,
  );
  const open = (i: number) => {
    const run = trends.runs[i];
    if (run) context.go(`/runs/${encodeURIComponent(run.id)}`);
  };
  if (trends.changes.length) {
    root.append(
      el(
        'ul',
        { class: 'marks' },
        ...trends.changes.map((c) => {
          const run = trends.runs[c.index];
          return el(
            'li',
            null,
            run ? link(`/runs/${encodeURIComponent(run.id)}`, when(run.time)) : '',
            `: ${c.what}`,
          );
        }),
      ),
    );
  }
  const grid = el('div', { class: 'charts' });
  grid.append(
    lineChart({
      title: 'pass rate',
      values: trends.runs.map((r) => r.passRate),
      labels,
      ticks: trends.labels,
      marks: trends.changes,
      axis: trends.passRateAxis,
      format: (v) => pct(v),
      tick: (v) => `${Math.round(v * 100)}%`,
      open,
    }),
  );
  for (const s of trends.series)
    grid.append(
      lineChart({
        title: `${s.spec} ${s.criterion}: ${s.metric} mean${s.unit ? ` (${s.unit})` : ''}${s.lowerIsBetter ? ', lower is better' : ''}`,
        values: s.means,
        labels,
        ticks: trends.labels,
        marks: trends.changes,
        axis: s.axis,
        format: (v) => fmt(v, s.unit),
        tick,
        open,
      }),
    );
  root.append(grid);
}

/** A value axis' tick: short enough for the axis (`12k`, `1.5M`). */
function tick(value: number): string {
  const size = Math.abs(value);
  if (size >= 1e6) return `${fmt(value / 1e6)}M`;
  if (size >= 1e4) return `${fmt(value / 1e3)}k`;
  return fmt(value);
}
