import { get } from '../api.js';
import type { ViewContext } from '../app.js';
import { badge, el, link, pct, when } from '../dom.js';
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
      const section = el(
        'section',
        null,
        el('h2', null, `${c.spec} ${c.criterion}`),
        el(
          'p',
          { class: 'meta' },
          `${c.passes} of ${c.trials} trials passed over ${c.tasks} tasks · ${c.ks.map((k) => `pass@${k} ${pct(c.passAtK[k])}, pass^${k} ${pct(c.passHatK[k])}`).join(' · ')}`,
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
