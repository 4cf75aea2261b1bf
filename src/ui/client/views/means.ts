import { el, fmt, stackedTable } from '../dom.js';
import type { RunDetail } from '../types.js';
import { empty } from '../vlist.js';

interface Mean {
  spec: string;
  criterion: string;
  metric: string;
  unit?: string;
  sum: number;
  count: number;
  failed: number;
}

/**
 * Each spec x criterion metric's mean over the run's workups where it applies (a boolean counted as 1 or 0, as
 * `numericValue` in src/checks/format.ts counts it), with how many it is over and how many failed: the metric means tab
 * of One run.
 */
export function meansSection(detail: RunDetail): HTMLElement {
  const groups = new Map<string, Mean>();
  for (const c of detail.checks) {
    const key = `${c.spec}\0${c.criterion}`;
    let g = groups.get(key);
    if (!g) {
      g = { spec: c.spec, criterion: c.criterion, metric: c.metric, sum: 0, count: 0, failed: 0 };
      if (c.unit !== undefined) g.unit = c.unit;
      groups.set(key, g);
    }
    const value = typeof c.value === 'boolean' ? Number(c.value) : c.value;
    if (typeof value === 'number' && Number.isFinite(value)) {
      g.sum += value;
      g.count++;
    }
    if (c.verdict === 'fail') g.failed++;
  }
  if (groups.size === 0) return empty('This run recorded no needlework check.');
  const rows = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  return stackedTable(
    'means',
    ['spec', 'criterion', 'metric', 'mean', 'over', 'failed'],
    rows.map((g) =>
      el(
        'tr',
        null,
        el('td', { class: 'ident' }, g.spec),
        el('td', { class: 'ident' }, g.criterion),
        el('td', { class: 'ident' }, g.metric),
        el('td', { class: 'num' }, g.count ? fmt(g.sum / g.count, g.unit) : 'n/a'),
        el('td', { class: 'num' }, String(g.count)),
        el('td', { class: 'num' }, String(g.failed)),
      ),
    ),
  );
}
