import { badge, el, link, query, stackedTable } from '../dom.js';
import type { RunDetail } from '../types.js';
import { casePath } from './compare.js';

/**
 * The gate's story at the head of the One run view: the headline in the gate's words, its first changed rows (what
 * regressed first) in a compact table, and the counts; the whole comparison is a click away. So the report of a run
 * (and the UI) shows on its first screen what CI's gate said, with the first failing check below it.
 */
export function gateSection(detail: RunDetail): HTMLElement | null {
  const gate = detail.gate;
  if (!gate) return null;
  const section = el(
    'section',
    { class: 'gate', 'aria-label': 'the regression gate' },
    el('p', { class: `headline ${gate.regressed ? 'v-fail' : 'v-pass'}` }, gate.headline),
  );
  if (gate.rows.length)
    section.append(
      stackedTable(
        'gate-rows',
        ['', 'case', 'criterion', 'before -> after', 'why'],
        gate.rows.map((row) =>
          el(
            'tr',
            { class: `s-${row.status}` },
            el('td', null, badge(row.status)),
            el('td', { class: 'ident' }, link(casePath(row), row.case)),
            el('td', { class: 'ident' }, row.criterion),
            el('td', null, `${row.before} -> ${row.after}`),
            el('td', null, [row.basis, row.afterReason ?? row.beforeReason].filter(Boolean).join(': ')),
          ),
        ),
      ),
    );
  const more = gate.changed - gate.rows.length;
  section.append(
    el(
      'p',
      { class: 'meta' },
      link(
        `/compare${query({ current: detail.run.id })}`,
        more > 0 ? `${more} more changed: the whole comparison` : 'the whole comparison',
      ),
      ` · ${gate.counts}`,
    ),
    ...gate.notes.map((note) => el('p', { class: 'note' }, `note: ${note}`)),
  );
  return section;
}
