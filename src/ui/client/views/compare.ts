import { get } from '../api.js';
import type { ViewContext } from '../app.js';
import { badge, cell, el, link, query, when } from '../dom.js';
import type { CompareRow, Comparison, RunRow } from '../types.js';
import { empty, rowHeight, VirtualList } from '../vlist.js';

const STATUSES: CompareRow['status'][] = [
  'regressed',
  'fixed',
  'flaky',
  'moved',
  'still-failing',
  'added',
  'removed',
];

/**
 * The Compare view: a run against its baseline (the gate's, unless `baseline` names another run), from the server's
 * `compare()` and `gateText()`: the same cases, statuses and words as the gate in CI. `show` narrows to statuses.
 */
export async function compareView(context: ViewContext): Promise<void> {
  const { root, url } = context;
  const current = url.searchParams.get('current');
  const baseline = url.searchParams.get('baseline') ?? undefined;
  if (!current) {
    const latest = await get<{ rows: RunRow[] }>('/api/runs?limit=1');
    const run = latest.rows[0];
    if (!run) {
      root.append(el('h1', null, 'Compare'), empty('The store holds no run yet.'));
      return;
    }
    context.go(`/compare${query({ current: run.id })}`, true);
    return;
  }
  const comparison = await get<Comparison>(`/api/compare${query({ current, baseline })}`);
  if (!context.current()) return;
  const shown = new Set((url.searchParams.get('show') ?? '').split(',').filter(Boolean));
  const rows = comparison.rows.filter((row) => shown.size === 0 || shown.has(row.status));

  root.append(
    el('h1', null, 'Compare'),
    el(
      'p',
      { class: 'pair' },
      runName(comparison.current),
      ' against ',
      comparison.baseline ? runName(comparison.baseline) : 'no baseline',
      comparison.baseline && !comparison.chosen
        ? el('span', { class: 'muted' }, ' (its baseline, as the gate picks it)')
        : null,
    ),
  );
  if (!comparison.baseline) {
    root.append(
      empty(
        'This run has no baseline: no earlier run of the same scope on its branch (or its base branch). A first run is never compared.',
      ),
    );
    return;
  }
  root.append(el('p', { class: 'headline' }, comparison.headline));
  const chips = el('div', { class: 'filters chips', role: 'group', 'aria-label': 'statuses' });
  for (const status of STATUSES) {
    const n = comparison.counts[status];
    const next = new Set(shown);
    if (next.has(status)) next.delete(status);
    else next.add(status);
    const a = link(
      `/compare${query({ current, baseline, show: [...next].join(',') })}`,
      badge(status, `${n} ${status.replace('-', ' ')}`),
    );
    a.setAttribute('aria-pressed', String(shown.has(status)));
    if (n === 0) a.classList.add('none');
    chips.append(a);
  }
  chips.append(el('span', { class: 'count' }, `${comparison.counts.unchanged} unchanged`));
  root.append(chips);
  for (const note of comparison.notes) root.append(el('p', { class: 'note' }, `note: ${note}`));
  if (comparison.criteria.length) {
    const evidence = el(
      'details',
      { class: 'evidence' },
      el('summary', null, 'The exact test, per criterion'),
    );
    for (const c of comparison.criteria) {
      evidence.append(el('p', null, c.text));
      if (c.drops.length) evidence.append(el('ul', null, ...c.drops.map((d) => el('li', null, d))));
    }
    root.append(evidence);
  }
  if (rows.length === 0) {
    root.append(empty(shown.size ? 'No case has these statuses.' : 'Nothing changed between these runs.'));
    return;
  }
  const detail = el('div', { class: 'detail', 'aria-live': 'polite' });
  const list = new VirtualList({
    label: 'changes',
    count: rows.length,
    rowHeight: rowHeight(36, 84),
    row: (i) => compareRowElement(rows[i] as CompareRow),
    onSelect: (i) => showDetail(detail, rows[i] as CompareRow),
    open: (i) => context.go(casePath(rows[i] as CompareRow)),
    isFailure: (i) => rows[i]?.status === 'regressed',
  });
  root.append(
    el(
      'div',
      { class: 'r-cmp head', 'aria-hidden': 'true' },
      cell('status', 'status'),
      cell('case', 'case'),
      cell('crit', 'criterion'),
      cell('sides', 'before -> after'),
      cell('why-before', 'baseline: why'),
      cell('why-after', 'this run: why'),
    ),
    list.element,
    detail,
  );
  performance.mark('needlework:compare-drawn');
}

function runName(run: RunRow): HTMLElement {
  const name = `${run.commit ? run.commit.slice(0, 7) : run.id}${run.branch ? ` (${run.branch})` : ''}`;
  const a = link(`/runs/${encodeURIComponent(run.id)}`, name);
  a.title = `${run.id}, ${when(run.time)}`;
  return a;
}

export function casePath(row: { spec: string; caseId?: string; task: string }): string {
  return `/case${query({ spec: row.spec, case: row.caseId, task: row.task })}`;
}

/** The case, linked to its view: the cell itself, cut with an ellipsis like every cell, its whole name in the tooltip. */
function caseLink(row: CompareRow): HTMLElement {
  const a = link(casePath(row), row.case);
  a.className = 'c case';
  a.title = row.case;
  return a;
}

function compareRowElement(row: CompareRow): HTMLElement {
  return el(
    'div',
    { class: `r-cmp s-${row.status}` },
    el('span', { class: 'c status' }, badge(row.status)),
    caseLink(row),
    cell('crit', row.criterion),
    cell(
      'sides',
      `${row.before} -> ${row.after}`,
      `${row.before} -> ${row.after}${row.basis ? ` (${row.basis}${row.direction ? `, ${row.direction}` : ''})` : ''}`,
    ),
    cell('why-before', row.beforeReason ?? '-'),
    cell('why-after', row.afterReason ?? '-'),
  );
}

function showDetail(detail: HTMLElement, row: CompareRow): void {
  detail.replaceChildren(
    el(
      'p',
      null,
      badge(row.status),
      ' ',
      el('strong', null, `${row.case} ${row.criterion}`),
      ': ',
      `${row.before} -> ${row.after}`,
      row.basis ? ` (${row.basis})` : '',
    ),
    el(
      'div',
      { class: 'sides' },
      el('div', null, el('h3', null, 'Baseline'), el('p', { class: 'reason' }, row.beforeReason ?? '-')),
      el('div', null, el('h3', null, 'This run'), el('p', { class: 'reason' }, row.afterReason ?? '-')),
    ),
  );
}
