import { clear, el } from './dom.js';

export interface ListOptions {
  /** Rows in all. */
  count: number;
  /** The height of every row (px): what lets the list draw only the rows in view, of 10 or 100,000. */
  rowHeight: number;
  /** Builds the row at `index`. */
  row(index: number): HTMLElement;
  /** The rows in view changed (to fetch what they show). */
  onRange?(first: number, last: number): void;
  /** Enter on the selected row. */
  open?(index: number): void;
  /** The selection moved. */
  onSelect?(index: number): void;
  /** Whether a row is a failure: `f` and `F` move to the next and previous one. */
  isFailure?(index: number): boolean;
  /** The label screen readers give the list. */
  label: string;
}

/** Rows drawn beyond the visible ones on each side, so a fast scroll shows no gap. */
const OVERSCAN = 8;

let active: VirtualList | undefined;

/** The list the keys move in: the last one drawn. */
export function activeList(): VirtualList | undefined {
  return active?.element.isConnected ? active : undefined;
}

/**
 * A list that draws only the rows in view, positioned in a spacer as tall as every row: the first screen of 10,000
 * runs costs what the first screen of 10 does. Keys (handled by the page): j/k or arrows move, Enter opens, f/F jump to
 * the next/previous failure, Home/End.
 */
export class VirtualList {
  readonly element: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private drawn = new Map<number, HTMLElement>();
  private frame = 0;
  selected = -1;

  constructor(private options: ListOptions) {
    this.spacer = el('div', { class: 'spacer' });
    this.element = el(
      'div',
      { class: 'vlist', role: 'listbox', tabindex: '0', 'aria-label': options.label },
      this.spacer,
    );
    this.element.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.element.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (row) this.select(Number(row.dataset['index']), false);
    });
    new ResizeObserver(() => this.schedule()).observe(this.element);
    this.setCount(options.count);
    active = this;
  }

  get count(): number {
    return this.options.count;
  }

  setCount(count: number): void {
    this.options.count = count;
    this.spacer.style.height = `${count * this.options.rowHeight}px`;
    if (this.selected >= count) this.selected = count - 1;
    this.refresh();
  }

  /** Draws every row in view again (their data arrived or changed). */
  refresh(): void {
    for (const node of this.drawn.values()) node.remove();
    this.drawn.clear();
    this.draw();
  }

  /** Draws again the rows in view whose index passes `which`. */
  redraw(which: (index: number) => boolean): void {
    for (const [index, node] of this.drawn)
      if (which(index)) {
        const fresh = this.build(index);
        node.replaceWith(fresh);
        this.drawn.set(index, fresh);
      }
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private build(index: number): HTMLElement {
    const node = this.options.row(index);
    node.dataset['index'] = String(index);
    node.classList.add('row');
    node.setAttribute('role', 'option');
    node.setAttribute('aria-selected', String(index === this.selected));
    node.style.top = `${index * this.options.rowHeight}px`;
    node.style.height = `${this.options.rowHeight}px`;
    return node;
  }

  private draw(): void {
    const { rowHeight, count } = this.options;
    const height = this.element.clientHeight || window.innerHeight;
    const first = Math.max(0, Math.floor(this.element.scrollTop / rowHeight) - OVERSCAN);
    const last = Math.min(count - 1, Math.ceil((this.element.scrollTop + height) / rowHeight) + OVERSCAN);
    for (const [index, node] of this.drawn)
      if (index < first || index > last) {
        node.remove();
        this.drawn.delete(index);
      }
    const fragment = document.createDocumentFragment();
    for (let i = first; i <= last; i++) {
      if (this.drawn.has(i)) continue;
      const node = this.build(i);
      this.drawn.set(i, node);
      fragment.appendChild(node);
    }
    this.spacer.appendChild(fragment);
    if (count > 0) this.options.onRange?.(first, last);
  }

  /** Selects a row and scrolls it into view. */
  select(index: number, scroll = true): void {
    if (this.options.count === 0) return;
    const next = Math.max(0, Math.min(this.options.count - 1, index));
    this.drawn.get(this.selected)?.setAttribute('aria-selected', 'false');
    this.selected = next;
    this.drawn.get(next)?.setAttribute('aria-selected', 'true');
    if (scroll) {
      const top = next * this.options.rowHeight;
      const view = this.element.clientHeight;
      if (top < this.element.scrollTop) this.element.scrollTop = top;
      else if (top + this.options.rowHeight > this.element.scrollTop + view)
        this.element.scrollTop = top + this.options.rowHeight - view;
      this.draw();
    }
    this.options.onSelect?.(next);
  }

  /** Handles a key; whether it was one of the list's. */
  key(event: KeyboardEvent): boolean {
    const page = Math.max(1, Math.floor(this.element.clientHeight / this.options.rowHeight) - 1);
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        this.select(this.selected + 1);
        return true;
      case 'k':
      case 'ArrowUp':
        this.select(this.selected - 1);
        return true;
      case 'PageDown':
        this.select(this.selected + page);
        return true;
      case 'PageUp':
        this.select(this.selected - page);
        return true;
      case 'Home':
        this.select(0);
        return true;
      case 'End':
        this.select(this.options.count - 1);
        return true;
      case 'Enter':
        if (this.selected >= 0) this.options.open?.(this.selected);
        return this.selected >= 0;
      case 'f':
      case 'F': {
        const is = this.options.isFailure;
        if (!is) return false;
        const step = event.key === 'f' ? 1 : -1;
        for (let i = this.selected + step; i >= 0 && i < this.options.count; i += step)
          if (is(i)) {
            this.select(i);
            return true;
          }
        return true;
      }
      default:
        return false;
    }
  }
}

/** Rows are taller where the screen is narrow: each row wraps onto two lines there. */
export function rowHeight(wide: number, narrow: number): number {
  return window.matchMedia('(max-width: 700px)').matches ? narrow : wide;
}

/** A message in place of a list that has no rows. */
export function empty(text: string): HTMLElement {
  const node = el('p', { class: 'empty' });
  clear(node);
  node.textContent = text;
  return node;
}
