import { el, link, query, when } from './dom.js';
import type { InlinedAnswers } from './report.js';

/**
 * The static report's header: its title and when it was written, and the views it holds (the run, its comparison with
 * its baseline, the trend up to it when the report charts one). The views that need the whole history (the list of
 * runs, a case over time) are not offered: the report holds one run.
 */
export function reportHeader(report: InlinedAnswers): void {
  const header = document.querySelector('header');
  if (!header) return;
  const run = report.info.run;
  const runPath = `/runs/${encodeURIComponent(run)}`;
  const brand = link('/', 'needlework');
  brand.className = 'brand';
  const nav = el('nav', { 'aria-label': 'views' });
  const views: Array<[string, string, string]> = [
    ['runs', runPath, 'Run'],
    ['compare', `/compare${query({ current: run })}`, 'Compare'],
  ];
  const trends = report.values('/api/trends', 'last')[0];
  if (trends !== undefined) views.push(['trends', `/trends${query({ last: trends })}`, 'Trends']);
  for (const [name, path, text] of views) {
    const a = link(path, text);
    a.dataset['nav'] = name;
    nav.append(a);
  }
  header.replaceChildren(
    brand,
    el('span', { class: 'title' }, report.info.title),
    nav,
    el('span', { class: 'live' }, `written ${when(report.info.generatedAt)}`),
  );
}
