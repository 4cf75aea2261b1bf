import { get } from '../api.js';
import type { ViewContext } from '../app.js';
import { badge, el, link, pct, stacked, when } from '../dom.js';
import type { TrialsView } from '../types.js';
import { empty } from '../vlist.js';
import { casePath } from './compare.js';

const SHOWN = 200;

/** The Trials view: per spec x criterion x task, k of n passed, pass@k and pass^k, and which trials differ. */
export function trialsView(id: string) {
  return async (context: ViewContext): Promise<void> => {
    const { root } = context;
    const view = await get<TrialsView>(`/api/runs/${encodeURIComponent(id)}/trials`);
    if (!context.current()) return;
    root.append(
      el(
        'h1',
        null,
        'Trials of ',
        link(`/runs/${encodeURIComponent(id)}`, el('span', { class: 'ident' }, id)),
      ),
      el(
        'p',
        { class: 'meta' },
        `${when(view.run.time)} · ${view.run.branch ?? 'no branch'} · ${view.run.model ?? 'no model'}`,
      ),
    );
    if (view.criteria.length === 0) {
      root.append(
        empty(
          'No workup of this run names a task (meta.task): each workup is a task of one trial, with no pass@k to tell.',
        ),
      );
      return;
    }
    for (const c of view.criteria) {
      const head = [
        'task',
        'k of n',
        ...c.ks.map((k) => `pass@${k}`),
        ...c.ks.map((k) => `pass^${k}`),
        'trials',
      ];
      const table = el(
        'table',
        { class: 'trials' },
        el('thead', null, el('tr', null, ...head.map((h) => el('th', null, h)))),
      );
      const body = el('tbody');
      const drawRows = (from: number, to: number) => {
        for (const row of c.rows.slice(from, to))
          body.append(
            el(
              'tr',
              { class: row.flaky ? 'flaky' : '' },
              el(
                'td',
                null,
                link(casePath({ spec: c.spec, task: row.task }), row.task),
                row.flaky ? badge('flaky') : null,
              ),
              el('td', { class: 'num' }, `${row.passes} of ${row.trials}`),
              ...c.ks.map((k) => el('td', { class: 'num' }, pct(row.passAtK[k]))),
              ...c.ks.map((k) => el('td', { class: 'num' }, pct(row.passHatK[k]))),
              el(
                'td',
                { class: 'verdicts' },
                ...row.verdicts.map((v) =>
                  el('span', {
                    class: `sq v-${v.verdict}`,
                    title: `${v.workup}${v.trial !== undefined ? ` #${v.trial}` : ''}: ${v.verdict}`,
                  }),
                ),
              ),
            ),
          );
      };
      drawRows(0, SHOWN);
      table.append(body);
      stacked(table);
      const section = el(
        'section',
        null,
        el('h2', null, `${c.spec} ${c.criterion}`),
        el(
          'p',
          { class: 'meta' },
          `${c.passes} of ${c.trials} trials passed over ${c.tasks} tasks: ${pct(c.passRate)}${c.interval ? ` [${pct(c.interval.low)}, ${pct(c.interval.high)}]` : ''} · ${c.ks.map((k) => `pass@${k} ${pct(c.passAtK[k])}, pass^${k} ${pct(c.passHatK[k])}`).join(' · ')}`,
          errorBar(c.passRate, c.interval),
        ),
        el('div', { class: 'scroll' }, table),
      );
      if (c.rows.length > SHOWN) {
        let drawn = SHOWN;
        const more = el(
          'button',
          { class: 'more', type: 'button' },
          `show ${Math.min(SHOWN, c.rows.length - drawn)} more of ${c.rows.length - drawn}`,
        );
        more.addEventListener('click', () => {
          drawRows(drawn, drawn + SHOWN);
          stacked(table);
          drawn += SHOWN;
          if (drawn >= c.rows.length) more.remove();
          else
            more.textContent = `show ${Math.min(SHOWN, c.rows.length - drawn)} more of ${c.rows.length - drawn}`;
        });
        section.append(more);
      }
      root.append(section);
    }
  };
}

/** The pass rate as a point on [0, 1] with its 95% interval as a bar (none without trials). */
function errorBar(rate: number | null, interval: { low: number; high: number } | null): Element {
  const SVG = 'http://www.w3.org/2000/svg';
  const make = (tag: string, attrs: Record<string, string | number>) => {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
    return node;
  };
  const bar = make('svg', { width: 120, height: 14, class: 'errorbar', role: 'img' });
  const x = (v: number) => (4 + v * 112).toFixed(1);
  bar.append(make('line', { x1: x(0), x2: x(1), y1: 7, y2: 7, class: 'axis' }));
  if (interval)
    bar.append(
      make('line', { x1: x(interval.low), x2: x(interval.high), y1: 7, y2: 7, class: 'range' }),
      make('line', { x1: x(interval.low), x2: x(interval.low), y1: 3, y2: 11, class: 'range' }),
      make('line', { x1: x(interval.high), x2: x(interval.high), y1: 3, y2: 11, class: 'range' }),
    );
  if (rate !== null) bar.append(make('circle', { cx: x(rate), cy: 7, r: 3 }));
  return bar;
}
