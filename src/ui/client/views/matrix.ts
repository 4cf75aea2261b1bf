import { el, link, query } from '../dom.js';
import type { CheckRow, RunDetail } from '../types.js';
import { empty } from '../vlist.js';

/** Rows drawn at first; the rest on request (a run of 10,000 cases x 30 criteria is 300,000 cells). */
const SHOWN = 200;

/** A column: one criterion of one spec. */
interface Column {
  spec: string;
  criterion: string;
}

/** A cell's checks counted: several when the case was run as several trials. */
interface Tally {
  pass: number;
  fail: number;
  na: number;
}

/** The row a check belongs to: its task case, else its task, else its workup (a task of one trial). */
export function rowLabel(c: CheckRow): string {
  return c.case ?? c.task ?? c.workup;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The task x criterion matrix of a run: a row per task (or case), a column per spec x criterion, each cell the verdict
 * (or k of n passed, over trials), linked to the checks it counts. The columns share the width whatever their number
 * (the headers stand on end, each whole name on hover and focus), so 40 criteria fit 1280 px; below 700 px each row
 * becomes a strip of squares. Arrow keys (and h/j/k/l) move between cells, f/F to the next/previous failing one.
 */
export function matrixSection(detail: RunDetail): HTMLElement {
  const runPath = `/runs/${encodeURIComponent(detail.run.id)}`;
  const columns: Column[] = [];
  const columnOf = new Map<string, number>();
  const rows: string[] = [];
  const rowOf = new Map<string, number>();
  for (const c of detail.checks) {
    const key = `${c.spec}\0${c.criterion}`;
    if (!columnOf.has(key)) {
      columnOf.set(key, columns.length);
      columns.push({ spec: c.spec, criterion: c.criterion });
    }
    const label = rowLabel(c);
    if (!rowOf.has(label)) {
      rowOf.set(label, rows.length);
      rows.push(label);
    }
  }
  if (columns.length === 0) return empty('This run recorded no needlework check.');
  const columnOrder = columns
    .map((_, i) => i)
    .sort(
      (a, b) => cmp(columns[a]!.spec, columns[b]!.spec) || cmp(columns[a]!.criterion, columns[b]!.criterion),
    );
  const sortedColumns = columnOrder.map((i) => columns[i]!);
  const position = new Map(columnOrder.map((original, at) => [original, at]));
  const rowOrder = rows.map((_, i) => i).sort((a, b) => cmp(rows[a]!, rows[b]!));
  const tallies = new Map<number, Tally>();
  for (const c of detail.checks) {
    const at =
      rowOf.get(rowLabel(c))! * columns.length + position.get(columnOf.get(`${c.spec}\0${c.criterion}`)!)!;
    const t = tallies.get(at) ?? { pass: 0, fail: 0, na: 0 };
    if (c.verdict === 'pass') t.pass++;
    else if (c.verdict === 'fail') t.fail++;
    else t.na++;
    tallies.set(at, t);
  }
  const failing = rowOrder.filter((r) => {
    for (let k = 0; k < columns.length; k++)
      if ((tallies.get(r * columns.length + k)?.fail ?? 0) > 0) return true;
    return false;
  }).length;

  const caption = el(
    'p',
    { class: 'm-caption', 'aria-live': 'polite' },
    'Point at or focus a cell for its whole name.',
  );
  const describe = (row: string | undefined, column: Column, t: Tally | undefined) =>
    `${row !== undefined ? `${row} · ` : ''}${column.spec} · ${column.criterion}${t ? `: ${tallyText(t)}` : ''}`;
  const cellLink = (r: number, k: number): HTMLElement => {
    const column = sortedColumns[k]!;
    const t = tallies.get(r * columns.length + k);
    if (!t) return el('span', { class: 'm-cell m-none', title: describe(rows[r], column, undefined) });
    const a = link(
      `${runPath}${query({ spec: column.spec, criterion: column.criterion, case: rows[r] })}`,
      cellText(t),
    );
    a.className = `m-cell ${cellClass(t)}`;
    a.title = describe(rows[r], column, t);
    a.setAttribute('aria-label', a.title);
    return a;
  };
  const narrow = window.matchMedia('(max-width: 700px)').matches;
  const section = el(
    'section',
    { class: `matrix${narrow ? ' narrow' : ''}` },
    el(
      'p',
      { class: 'meta' },
      `${rows.length.toLocaleString('en')} tasks x ${columns.length} criteria · ${failing.toLocaleString('en')} tasks with a failing criterion · a cell is the verdict, or k of n passed over trials`,
    ),
    caption,
  );
  const show = (event: Event) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[title]');
    if (target && section.contains(target)) caption.textContent = target.title;
  };
  section.addEventListener('mouseover', show);
  section.addEventListener('focusin', show);

  let drawn = 0;
  const more = el('button', { class: 'more', type: 'button' });
  let body: HTMLElement;
  let drawRows: (to: number) => void;
  if (narrow) {
    body = el('div', { class: 'm-strips' });
    drawRows = (to) => {
      for (const r of rowOrder.slice(drawn, to)) {
        const strip = el('div', { class: 'm-strip', role: 'row' });
        for (let k = 0; k < sortedColumns.length; k++) strip.append(cellLink(r, k));
        body.append(
          el('div', { class: 'm-row' }, el('div', { class: 'm-label', title: rows[r] }, rows[r]!), strip),
        );
      }
      drawn = Math.min(to, rowOrder.length);
    };
    section.append(body);
  } else {
    const table = el('table', { class: 'm-table', role: 'grid' });
    const colgroup = el('colgroup', null, el('col', { class: 'm-first' }));
    for (let k = 0; k < sortedColumns.length; k++) colgroup.append(el('col'));
    const specs = el('tr', { class: 'm-specs' }, el('th', { scope: 'col' }, 'spec'));
    for (let k = 0; k < sortedColumns.length; ) {
      const spec = sortedColumns[k]!.spec;
      let span = 1;
      while (sortedColumns[k + span]?.spec === spec) span++;
      specs.append(
        el('th', { colspan: String(span), scope: 'colgroup', title: spec }, el('span', null, spec)),
      );
      k += span;
    }
    const heads = el('tr', { class: 'm-heads' }, el('th', { scope: 'col' }, 'task'));
    for (const column of sortedColumns)
      heads.append(
        el(
          'th',
          { scope: 'col', tabindex: '0', title: describe(undefined, column, undefined) },
          el('span', null, column.criterion),
        ),
      );
    body = el('tbody');
    drawRows = (to) => {
      for (const r of rowOrder.slice(drawn, to)) {
        const tr = el('tr', null, el('th', { scope: 'row', title: rows[r] }, rows[r]!));
        for (let k = 0; k < sortedColumns.length; k++) tr.append(el('td', null, cellLink(r, k)));
        body.append(tr);
      }
      drawn = Math.min(to, rowOrder.length);
    };
    table.append(colgroup, el('thead', null, specs, heads), body);
    section.append(table);
    table.addEventListener('keydown', (event) => moveFocus(event, table));
  }
  drawRows(SHOWN);
  const label = () =>
    `show ${Math.min(SHOWN, rowOrder.length - drawn)} more of ${rowOrder.length - drawn} tasks`;
  if (drawn < rowOrder.length) {
    more.textContent = label();
    more.addEventListener('click', () => {
      drawRows(drawn + SHOWN);
      if (drawn >= rowOrder.length) more.remove();
      else more.textContent = label();
    });
    section.append(more);
  }
  return section;
}

function tallyText(t: Tally): string {
  const decided = t.pass + t.fail;
  if (decided === 0) return 'not applicable';
  if (decided === 1 && t.na === 0) return t.pass ? 'pass' : 'fail';
  return `${t.pass} of ${decided} passed${t.na ? `, ${t.na} not applicable` : ''}`;
}

function cellText(t: Tally): string {
  const decided = t.pass + t.fail;
  if (decided === 0) return '–';
  if (decided === 1) return t.pass ? '✓' : '✗';
  return `${t.pass}/${decided}`;
}

function cellClass(t: Tally): string {
  if (t.pass + t.fail === 0) return 'v-not-applicable';
  if (t.fail === 0) return 'v-pass';
  return t.pass === 0 ? 'v-fail' : 'v-mixed';
}

/** Arrow keys and h/j/k/l move the focus between the grid's cells; f/F to the next/previous failing cell. */
function moveFocus(event: KeyboardEvent, table: HTMLTableElement): void {
  const cell = (event.target as HTMLElement).closest('td');
  if (!cell) return;
  const row = cell.parentElement as HTMLTableRowElement;
  const at = cell.cellIndex;
  const focus = (td: Element | null | undefined) => {
    const target = td?.querySelector<HTMLElement>('a, span');
    if (target instanceof HTMLAnchorElement) target.focus();
    else if (target) {
      target.tabIndex = -1;
      target.focus();
    }
  };
  const rows = [...table.tBodies[0]!.rows];
  switch (event.key) {
    case 'ArrowRight':
    case 'l':
      focus(row.cells[at + 1]);
      break;
    case 'ArrowLeft':
    case 'h':
      if (at > 1) focus(row.cells[at - 1]);
      break;
    case 'ArrowDown':
    case 'j':
      focus(rows[row.sectionRowIndex + 1]?.cells[at]);
      break;
    case 'ArrowUp':
    case 'k':
      focus(rows[row.sectionRowIndex - 1]?.cells[at]);
      break;
    case 'f':
    case 'F': {
      const all = [...table.querySelectorAll<HTMLElement>('td .v-fail, td .v-mixed')];
      const here = all.indexOf(event.target as HTMLElement);
      const next = event.key === 'f' ? all.find((_, i) => i > here) : all.filter((_, i) => i < here).at(-1);
      next?.focus();
      break;
    }
    default:
      return;
  }
  event.preventDefault();
  event.stopPropagation();
}
