import { get } from '../api.js';
import type { ViewContext } from '../app.js';
import { badge, cell, el, fmt, link, query, when } from '../dom.js';
import type { CaseHistory, CasePoint } from '../types.js';
import { empty, rowHeight, VirtualList } from '../vlist.js';
import { toWorkup } from './run.js';

/** The One case view: a case's verdicts across the runs, per criterion, and the first run where each failed. */
export async function caseView(context: ViewContext): Promise<void> {
  const { root, url } = context;
  const spec = url.searchParams.get('spec') ?? '';
  const task = url.searchParams.get('task') ?? '';
  const caseId = url.searchParams.get('case') ?? undefined;
  const history = await get<CaseHistory>(`/api/case${query({ spec, case: caseId, task })}`);
  if (!context.current()) return;
  const name = `${spec} / ${caseId !== undefined ? `${caseId}${task !== caseId ? ` (${task})` : ''}` : task}`;
  root.append(el('h1', null, 'Case ', el('span', { class: 'ident' }, name)));
  if (history.points.length === 0) {
    root.append(empty('No run holds a decided check of this case.'));
    return;
  }
  const criteria = [...new Set(history.points.map((p) => p.criterion))].sort();
  const strips = el('div', { class: 'strips' });
  for (const criterion of criteria) {
    const points = history.points.filter((p) => p.criterion === criterion);
    const strip = el('div', {
      class: 'strip',
      role: 'img',
      'aria-label': `${criterion} across ${points.length} checks`,
    });
    for (const p of points.slice(-400)) {
      const square = link(`/runs/${encodeURIComponent(p.run)}`);
      square.className = `sq v-${p.verdict}`;
      square.title = `${when(p.time)} ${p.commit?.slice(0, 7) ?? p.run}: ${p.verdict} ${fmt(p.value, p.unit)}`;
      strip.append(square);
    }
    const first = history.firstFailures.find((f) => f.criterion === criterion);
    strips.append(
      el(
        'div',
        { class: 'crit-row' },
        el('h3', null, criterion),
        strip,
        el('p', { class: 'first' }, first ? firstText(first.point) : 'never failed'),
      ),
    );
  }
  root.append(
    strips,
    el(
      'h2',
      null,
      history.truncated
        ? `Its checks in the newest ${new Set(history.points.map((p) => p.run)).size} runs that hold it, newest first (older runs left out)`
        : 'Every check, newest first',
    ),
  );
  const rows = [...history.points].reverse();
  const list = new VirtualList({
    label: 'checks of this case',
    count: rows.length,
    rowHeight: rowHeight(32, 60),
    row: (i) => pointElement(rows[i] as CasePoint),
    open: (i) => context.go(`/runs/${encodeURIComponent((rows[i] as CasePoint).run)}`),
    isFailure: (i) => rows[i]?.verdict === 'fail',
  });
  root.append(list.element);
}

function firstText(p: CasePoint): HTMLElement {
  return el(
    'span',
    null,
    'first failed in ',
    link(`/runs/${encodeURIComponent(p.run)}`, when(p.time)),
    ` (commit ${p.commit?.slice(0, 7) ?? 'unknown'}, model ${p.model ?? 'unknown'}${p.agentVersion ? `, agent ${p.agentVersion}` : ''}, workup `,
    toWorkup(p.run, p, p.workup || 'none'),
    ')',
    p.reason ? `: ${p.reason}` : '',
  );
}

/** The criterion, linked to the workup the check was of. */
function workupCell(p: CasePoint): HTMLElement {
  const a = toWorkup(p.run, p, p.criterion);
  a.className = 'c crit';
  a.title = `${p.criterion} of the workup ${p.workup}${p.trial !== undefined ? ` #${p.trial}` : ''}`;
  return a;
}

function pointElement(p: CasePoint): HTMLElement {
  return el(
    'div',
    { class: `r-point v-${p.verdict}` },
    el('span', { class: 'c time' }, link(`/runs/${encodeURIComponent(p.run)}`, when(p.time))),
    cell('commit', p.commit?.slice(0, 7) ?? '-', p.commit),
    cell('model', p.model ?? '-'),
    workupCell(p),
    el(
      'span',
      { class: 'c verdict' },
      badge(
        p.verdict === 'not-applicable' ? 'na' : p.verdict,
        p.verdict === 'not-applicable' ? 'n/a' : p.verdict,
      ),
    ),
    cell('value', `${fmt(p.value, p.unit)}${p.trial !== undefined ? ` #${p.trial}` : ''}`),
    cell('why', p.reason ?? ''),
  );
}
