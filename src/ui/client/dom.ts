import { href } from './route.js';

/**
 * The client builds every page with DOM calls: strings go in as text nodes or `textContent`, never as markup, so a
 * case name, a reason or a model name an agent wrote renders as the characters it is and runs nowhere.
 */
export type Child = Node | string | number | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, string | undefined> | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (attrs)
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined) continue;
      // No attribute that could carry code: handlers are added with addEventListener, links are built by `link`.
      if (/^on/i.test(name) || name === 'href' || name === 'src')
        throw new Error(`el: ${name} is not set here`);
      node.setAttribute(name, value);
    }
  add(node, ...children);
  return node;
}

export function add(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false || child === '') continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** A link to one of the UI's own views (a path of this origin: never a URL an agent wrote). */
export function link(path: string, ...children: Child[]): HTMLAnchorElement {
  if (!path.startsWith('/') || path.startsWith('//'))
    throw new Error(`link: ${path} is not a path of the UI`);
  const a = el('a', null, ...children);
  a.href = href(path);
  return a;
}

/** A query string from the values given (absent and empty values left out). */
export function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** A value in its unit, as the reports print it: 3 decimals at most. */
export function fmt(value: number | boolean | null | undefined, unit?: string): string {
  if (value === null || value === undefined) return 'n/a';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = Number.isInteger(value) ? String(value) : String(Number(value.toFixed(3)));
  return unit ? `${text} ${unit}` : text;
}

export function pct(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

/** `2026-11-27 14:03`: a run's end time in the browser's zone, to the minute. */
export function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function badge(kind: string, text?: string): HTMLElement {
  return el('span', { class: `badge b-${kind.replace(/[^a-z-]/g, '')}` }, text ?? kind.replace('-', ' '));
}

/** A cell that shows one line, cut with an ellipsis, its whole text in the tooltip. */
export function cell(cls: string, text: string | undefined, title = text): HTMLElement {
  return el('span', { class: `c ${cls}`, title }, text ?? '');
}

/**
 * Marks a table to become a stack of cards on a narrow screen (style.css, below 700 px): each row a card, each cell a
 * line that starts with its column's name, so no table is wider than a phone's screen. Call it again once rows are
 * added.
 */
export function stacked(table: HTMLTableElement): HTMLTableElement {
  table.classList.add('stack');
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
  for (const row of table.querySelectorAll('tbody tr'))
    [...row.children].forEach((cell, i) => {
      const head = heads[i];
      if (head) (cell as HTMLElement).dataset['label'] = head;
    });
  return table;
}

/** A table of `rows` under `heads`, stacked into cards on a narrow screen (`stacked`). */
export function stackedTable(cls: string, heads: string[], rows: HTMLElement[]): HTMLTableElement {
  return stacked(
    el(
      'table',
      { class: cls },
      el('thead', null, el('tr', null, ...heads.map((h) => el('th', null, h)))),
      el('tbody', null, ...rows),
    ),
  );
}
