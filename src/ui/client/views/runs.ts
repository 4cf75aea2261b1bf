import { get } from '../api.js';
import type { ViewContext } from '../app.js';
import { badge, cell, el, link, query, when } from '../dom.js';
import type { Facets, RunChange, RunRow, RunsPage } from '../types.js';
import { empty, rowHeight, VirtualList } from '../vlist.js';

const PAGE = 100;
const FILTERS = ['branch', 'model', 'from', 'to'] as const;

/** The Runs view: one row per run, newest first, filtered by branch, model and date; pages fetched as they scroll in. */
export async function runsView(context: ViewContext): Promise<void> {
  const { root, url } = context;
  const filter = Object.fromEntries(
    FILTERS.map((key) => [key, url.searchParams.get(key) ?? undefined]),
  ) as Record<(typeof FILTERS)[number], string | undefined>;
  const filterQuery = query(filter);
  const rows: Array<RunRow | undefined> = [];
  const pages = new Map<number, Promise<void>>();
  const changes = new Map<string, RunChange | null>();
  let wanted = new Set<string>();
  let changeTimer = 0;
  const fresh = new Set<string>();

  const first = await get<RunsPage>(`/api/runs${query({ ...filter, offset: 0, limit: PAGE })}`);
  if (!context.current()) return;
  first.rows.forEach((row, i) => {
    rows[i] = row;
  });
  pages.set(0, Promise.resolve());
  let total = first.total;

  const count = el('span', { class: 'count' });
  const showCount = () => {
    count.textContent = `${total.toLocaleString('en')} run${total === 1 ? '' : 's'}`;
  };
  showCount();
  const bar = el('form', { class: 'filters', role: 'search' });
  const branch = select('branch', 'every branch', filter.branch);
  const model = select('model', 'every model', filter.model);
  const from = dateInput('from', 'from', filter.from);
  const to = dateInput('to', 'to', filter.to);
  bar.append(branch, model, from, to, count);
  bar.addEventListener('change', () => {
    const values = Object.fromEntries(
      [branch, model, from, to].map((input) => {
        const control = input.querySelector('select, input') as HTMLInputElement;
        return [control.name, control.value || undefined];
      }),
    );
    context.go(`/runs${query(values)}`);
  });
  root.append(el('h1', null, 'Runs'), bar);
  void get<Facets>('/api/facets').then((facets) => {
    fill(branch, facets.branches, filter.branch);
    fill(model, facets.models, filter.model);
  });

  if (total === 0) {
    root.append(
      empty(
        filterQuery
          ? 'No run matches these filters.'
          : 'The store holds no run yet. Run the tests with the trend reporter (needlework run does): each run appears here as it ends.',
      ),
    );
    context.onRun(() => context.go(location.pathname + location.search, true));
    return;
  }

  const fetchChanges = () => {
    changeTimer = 0;
    const ids = [...wanted].filter((id) => !changes.has(id));
    wanted = new Set();
    if (ids.length === 0) return;
    for (const id of ids) changes.set(id, null);
    void get<RunChange[]>(`/api/changes${query({ ids: ids.join(',') })}`).then((found) => {
      for (const change of found) changes.set(change.id, change);
      list.redraw((i) => ids.includes(rows[i]?.id ?? ''));
    });
  };

  const list = new VirtualList({
    label: 'runs',
    count: total,
    rowHeight: rowHeight(36, 64),
    row: (i) => {
      const run = rows[i];
      if (!run) return el('div', { class: 'r-run loading' }, cell('time', '…'));
      return runRowElement(run, changes.get(run.id), fresh.has(run.id));
    },
    onRange: (lo, hi) => {
      for (let page = Math.floor(lo / PAGE); page <= Math.floor(hi / PAGE); page++) {
        if (pages.has(page)) continue;
        pages.set(
          page,
          get<RunsPage>(`/api/runs${query({ ...filter, offset: page * PAGE, limit: PAGE })}`).then(
            (answer) => {
              answer.rows.forEach((row, k) => {
                rows[answer.offset + k] = row;
              });
              list.redraw((i) => i >= answer.offset && i < answer.offset + answer.rows.length);
            },
          ),
        );
      }
      for (let i = lo; i <= hi; i++) {
        const id = rows[i]?.id;
        if (id !== undefined && !changes.has(id)) wanted.add(id);
      }
      if (wanted.size && !changeTimer) changeTimer = window.setTimeout(fetchChanges, 30);
    },
    open: (i) => {
      const run = rows[i];
      if (run) context.go(`/runs/${encodeURIComponent(run.id)}`);
    },
    isFailure: (i) => (rows[i]?.failed ?? 0) > 0 || (changes.get(rows[i]?.id ?? '')?.regressed ?? 0) > 0,
  });
  root.append(headerRow(), list.element);
  performance.mark('needlework:runs-drawn');

  context.onRun((event) => {
    const run = event.run;
    if (filter.branch !== undefined && run.branch !== filter.branch) return;
    if (filter.model !== undefined && run.model !== filter.model) return;
    if (filter.from !== undefined && run.time < new Date(filter.from).toISOString()) return;
    if (filter.to !== undefined && run.time >= new Date(filter.to).toISOString()) return;
    // Newest first: the new run is row 0 and every loaded row moves down one.
    rows.unshift(run);
    const shifted = new Map<number, Promise<void>>();
    for (const [page, done] of pages) if (page === 0) shifted.set(0, done);
    pages.clear();
    for (const [page, done] of shifted) pages.set(page, done);
    total++;
    fresh.add(run.id);
    showCount();
    if (list.selected >= 0) list.selected++;
    list.setCount(total);
    document.body.dataset['lastLive'] = run.id;
  });
}

function headerRow(): HTMLElement {
  return el(
    'div',
    { class: 'r-run head', 'aria-hidden': 'true' },
    cell('time', 'ended'),
    cell('branch', 'branch'),
    cell('commit', 'commit'),
    cell('model', 'model'),
    cell('agent', 'agent'),
    cell('counts', 'pass / fail'),
    cell('change', 'against its baseline'),
  );
}

function runRowElement(run: RunRow, change: RunChange | null | undefined, fresh: boolean): HTMLElement {
  const row = el('div', { class: `r-run${run.failed > 0 ? ' failing' : ''}${fresh ? ' fresh' : ''}` });
  const time = el('span', { class: 'c time' }, link(`/runs/${encodeURIComponent(run.id)}`, when(run.time)));
  time.title = `${run.id} (${run.scope})`;
  row.append(
    time,
    cell('branch', run.branch ?? '-'),
    cell('commit', run.commit ? run.commit.slice(0, 7) : '-', run.commit),
    cell('model', run.model ?? '-'),
    cell('agent', run.agentVersion ?? '-'),
    el(
      'span',
      {
        class: 'c counts',
        title: `${run.passed} passed, ${run.failed} failed, ${run.notApplicable} n/a of ${run.checks}`,
      },
      el('span', { class: 'pass' }, String(run.passed)),
      ' / ',
      el('span', { class: run.failed ? 'fail' : '' }, String(run.failed)),
    ),
    changeCell(run, change),
  );
  return row;
}

function changeCell(run: RunRow, change: RunChange | null | undefined): HTMLElement {
  const node = el('span', { class: 'c change' });
  if (change === undefined || change === null) {
    node.textContent = '…';
    return node;
  }
  if (change.baseline === undefined) {
    node.textContent = 'no baseline';
    node.title = 'the first run of its scope on its branch';
    return node;
  }
  const parts: Array<[string, number]> = [
    ['regressed', change.regressed],
    ['fixed', change.fixed],
    ['flaky', change.flaky],
    ['moved', change.moved],
  ];
  const shown = parts.filter(([, n]) => n > 0);
  const a = link(`/compare${query({ current: run.id })}`);
  if (shown.length === 0) a.append('nothing regressed');
  for (const [kind, n] of shown) a.append(badge(kind, `${n} ${kind}`));
  node.title = change.headline ?? '';
  node.append(a);
  return node;
}

function select(name: string, all: string, value: string | undefined): HTMLElement {
  const control = el('select', { name, 'aria-label': name }, el('option', { value: '' }, all));
  if (value !== undefined) control.append(el('option', { value }, value));
  control.value = value ?? '';
  return el('label', null, control);
}

function fill(label: HTMLElement, values: string[], current: string | undefined): void {
  const control = label.querySelector('select') as HTMLSelectElement;
  for (const value of values) if (value !== current) control.append(el('option', { value }, value));
}

function dateInput(name: string, text: string, value: string | undefined): HTMLElement {
  const input = el('input', { type: 'date', name, 'aria-label': `${text} date` });
  if (value !== undefined) input.value = value.slice(0, 10);
  return el('label', null, `${text} `, input);
}
