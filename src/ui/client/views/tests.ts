import { get } from '../api.js';
import type { ViewContext } from '../app.js';
import { badge, el, link, stackedTable } from '../dom.js';
import type { PlainTests } from '../types.js';
import { empty } from '../vlist.js';

const SHOWN = 1000;

/**
 * The plain Vitest tests of a run (tests that attached no needlework check), failing first: only the static report of a
 * run as it ran holds them (`/api/runs/<id>/tests`); the store keeps checks.
 */
export function testsView(id: string) {
  return async (context: ViewContext): Promise<void> => {
    const { root } = context;
    const answer = await get<PlainTests>(`/api/runs/${encodeURIComponent(id)}/tests`);
    if (!context.current()) return;
    const failed = answer.tests.filter((t) => t.state === 'failed').length;
    root.append(
      el(
        'h1',
        null,
        'Plain tests of ',
        link(`/runs/${encodeURIComponent(id)}`, el('span', { class: 'ident' }, id)),
      ),
      el(
        'p',
        { class: 'meta' },
        `${answer.tests.length - failed} of ${answer.tests.length} passed: Vitest tests that attached no needlework check${answer.tests.length > SHOWN ? `; the first ${SHOWN}, failing first` : ''}`,
      ),
    );
    if (answer.tests.length === 0) {
      root.append(empty('This run had no plain Vitest test.'));
      return;
    }
    const rows = answer.tests.slice(0, SHOWN).map((test) => {
      const verdict = test.state === 'passed' ? 'pass' : test.state === 'failed' ? 'fail' : 'na';
      return el(
        'tr',
        { class: `v-${verdict}` },
        el('td', null, badge(verdict, test.state)),
        el('td', { class: 'ident' }, test.file),
        el('td', null, test.name),
        el('td', { class: 'reason' }, test.errors.join('\n')),
      );
    });
    root.append(stackedTable('plain-tests', ['state', 'file', 'test', 'error'], rows));
  };
}
