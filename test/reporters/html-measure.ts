import type { Page } from 'playwright-core';

// What a reader of the report sees, measured in the page. Each is a string run by `page.evaluate`, because the test
// tsconfig has no DOM types (Playwright evaluates through the DevTools protocol, which the page's CSP does not bind).

/** The page's width against its content's, and the first elements whose right edge is past the screen's. */
export interface Overflow {
  scrollWidth: number;
  width: number;
  wide: string[];
}

/**
 * Whether anything sticks out past the right edge of the screen. `except` names boxes that may scroll sideways on
 * purpose (their content is then measured against the box, which must itself fit).
 */
export function overflow(page: Page, except = ''): Promise<Overflow> {
  return page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const except = ${JSON.stringify(except)};
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().right > width + 0.5)
      .filter((el) => !except || !el.closest(except))
      .map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className : ''));
    return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5) };
  })()`);
}

/**
 * The words that a table cell shows over two lines. A word is a run of characters between spaces and the points an
 * identifier may break at (after / . _ : · , - and around brackets and quotes); one that the browser wraps is laid out
 * as rectangles on two lines. Returns each such word with the column it is in.
 */
export function brokenWords(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate(`(() => {
    const out = [];
    for (const td of document.querySelectorAll(${JSON.stringify(scope)} + ' td')) {
      if (td.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const re = /[^\\s/._:·,()\\[\\]{}"'<>=-]+/g;
        for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push((td.dataset.label || '?') + ': ' + m[0]);
        }
      }
    }
    return out;
  })()`);
}

/** One trend chart as drawn: its title, plot area, points, axis labels and where the SVG lies on the screen. */
export interface DrawnChart {
  title: string;
  plot: { left: number; top: number; right: number; bottom: number };
  points: Array<{ x: number; y: number }>;
  lines: number;
  yLabels: Array<{ text: string; y: number }>;
  xLabels: string[];
  svg: { left: number; right: number; width: number };
}

export function charts(page: Page): Promise<DrawnChart[]> {
  return page.evaluate(`(() => [...document.querySelectorAll('.charts .figure')].map((chart) => {
    const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width }; };
    const centre = (el) => { const r = el.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; };
    return {
      title: chart.querySelector('figcaption').textContent,
      plot: box(chart.querySelector('rect.plot')),
      points: [...chart.querySelectorAll('.series circle')].map(centre),
      lines: chart.querySelectorAll('.series path').length,
      yLabels: [...chart.querySelectorAll('.y-axis text')].map((t) => ({ text: t.textContent, y: centre(t).y })),
      xLabels: [...chart.querySelectorAll('.x-axis text')].map((t) => t.textContent),
      svg: box(chart.querySelector('svg')),
    };
  }))()`);
}

/** The rectangle of the first element matching `selector`, in viewport pixels (`null` when none is laid out). */
export function rect(
  page: Page,
  selector: string,
): Promise<{
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
} | null> {
  return page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el || el.getClientRects().length === 0) return null;
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  })()`);
}
