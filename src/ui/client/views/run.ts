import { get } from '../api.js';
import type { ViewContext } from '../app.js';
import { badge, cell, el, fmt, link, pct, query, when } from '../dom.js';
import type { CheckRow, RunDetail } from '../types.js';
import { empty, rowHeight, VirtualList } from '../vlist.js';
import { casePath } from './compare.js';
import { matrixSection, rowLabel } from './matrix.js';

type Item =
  | { kind: 'spec'; spec: string; count: number }
  | { kind: 'case'; label: string; count: number }
  | { kind: 'check'; check: CheckRow; status?: string; flaky: boolean };

const QUICK = ['all', 'failing', 'regressed', 'flaky'] as const;

/** The key a comparison gives a case x criterion (`changeKey` in src/history/compare.ts). */
function keyOf(c: CheckRow): string {
  return `${c.spec}\0${c.criterion}\0${c.case ?? ''}\0${c.task ?? c.workup}`;
}

/**
 * The One run view: its checks grouped by spec and case, a row per criterion, with quick filters (failing, regressed
 * against its baseline, flaky across its trials) and a search over every field; all in the URL.
 */
export function runView(id: string) {
  return async (context: ViewContext): Promise<void> => {
    const { root, url } = context;
    const detail = await get<RunDetail>(`/api/runs/${encodeURIComponent(id)}`);
    if (!context.current()) return;
    const run = detail.run;
    const flaky = new Set(detail.flaky);
    const quick = (QUICK as readonly string[]).includes(url.searchParams.get('filter') ?? '')
      ? (url.searchParams.get('filter') as (typeof QUICK)[number])
      : 'all';
    let search = url.searchParams.get('q') ?? '';
    // The checks of one matrix cell: exactly this spec, criterion and task (or case).
    const only = {
      spec: url.searchParams.get('spec') ?? undefined,
      criterion: url.searchParams.get('criterion') ?? undefined,
      case: url.searchParams.get('case') ?? undefined,
    };
    const matrix = url.searchParams.get('tab') === 'matrix';

    root.append(
      el('h1', null, 'Run ', el('span', { class: 'ident' }, run.id)),
      el(
        'p',
        { class: 'meta' },
        `${when(run.time)} · ${run.branch ?? 'no branch'} · ${run.commit?.slice(0, 7) ?? 'no commit'} · ${run.model ?? 'no model'} · agent ${run.agentVersion ?? 'unknown'} · ${run.scope}`,
      ),
      el(
        'p',
        { class: 'meta' },
        `${run.passed} passed, ${run.failed} failed, ${run.notApplicable} not applicable, ${run.skipped} skipped of ${run.checks} (pass rate ${pct(run.passRate)}) · `,
        detail.baseline
          ? link(`/compare${query({ current: run.id })}`, 'compare with its baseline')
          : el('span', { class: 'muted' }, 'no baseline'),
        ' · ',
        link(`/runs/${encodeURIComponent(run.id)}/trials`, 'trials'),
      ),
    );
    const tabs = el('div', { class: 'filters tabs' });
    for (const [name, path] of [
      ['checks', `/runs/${encodeURIComponent(run.id)}`],
      ['task x criterion matrix', `/runs/${encodeURIComponent(run.id)}${query({ tab: 'matrix' })}`],
    ] as const) {
      const a = link(path, name);
      a.className = 'chip';
      a.setAttribute('aria-pressed', String(name === 'checks' ? !matrix : matrix));
      tabs.append(a);
    }
    root.append(tabs);
    if (matrix) {
      root.append(matrixSection(detail));
      performance.mark('needlework:matrix-drawn');
      return;
    }
    const bar = el('div', { class: 'filters' });
    for (const name of QUICK) {
      const a = link(
        `/runs/${encodeURIComponent(run.id)}${query({ filter: name === 'all' ? undefined : name, q: search || undefined })}`,
        name,
      );
      a.className = 'chip';
      a.setAttribute('aria-pressed', String(name === quick));
      bar.append(a);
    }
    const input = el('input', {
      type: 'search',
      placeholder: 'search spec, case, workup, criterion, reason  ( / )',
      'aria-label': 'search',
    });
    input.value = search;
    const count = el('span', { class: 'count' });
    bar.append(input, count);
    if (only.spec !== undefined || only.criterion !== undefined || only.case !== undefined) {
      const clear = link(`/runs/${encodeURIComponent(run.id)}`, '× all checks');
      clear.className = 'chip';
      bar.append(
        el(
          'span',
          { class: 'only' },
          `only ${[only.spec, only.case, only.criterion].filter((x) => x !== undefined).join(' · ')} `,
        ),
        clear,
      );
    }
    root.append(bar);
    const holder = el('div', { class: 'holder' });
    const info = el('div', { class: 'detail', 'aria-live': 'polite' });
    root.append(holder, info);

    const sorted = [...detail.checks].sort(
      (a, b) =>
        cmp(a.spec, b.spec) ||
        cmp(a.case ?? a.task ?? a.workup, b.case ?? b.task ?? b.workup) ||
        cmp(a.criterion, b.criterion) ||
        cmp(a.workup, b.workup),
    );
    const draw = () => {
      const needle = search.toLowerCase();
      const items: Item[] = [];
      let shown = 0;
      let lastSpec: string | undefined;
      let lastCase: string | undefined;
      let specItem: Extract<Item, { kind: 'spec' }> | undefined;
      let caseItem: Extract<Item, { kind: 'case' }> | undefined;
      for (const check of sorted) {
        const key = keyOf(check);
        const status = detail.changes[key];
        const isFlaky = flaky.has(key);
        if (quick === 'failing' && check.verdict !== 'fail') continue;
        if (quick === 'regressed' && status !== 'regressed') continue;
        if (quick === 'flaky' && !isFlaky) continue;
        if (only.spec !== undefined && check.spec !== only.spec) continue;
        if (only.criterion !== undefined && check.criterion !== only.criterion) continue;
        if (only.case !== undefined && rowLabel(check) !== only.case) continue;
        if (needle && !haystack(check).includes(needle)) continue;
        if (check.spec !== lastSpec) {
          specItem = { kind: 'spec', spec: check.spec, count: 0 };
          items.push(specItem);
          lastSpec = check.spec;
          lastCase = undefined;
        }
        const label = check.case ?? check.task ?? check.workup;
        if (label !== lastCase) {
          caseItem = { kind: 'case', label, count: 0 };
          items.push(caseItem);
          lastCase = label;
        }
        (specItem as { count: number }).count++;
        (caseItem as { count: number }).count++;
        items.push({ kind: 'check', check, ...(status !== undefined && { status }), flaky: isFlaky });
        shown++;
      }
      count.textContent = `${shown.toLocaleString('en')} of ${detail.checks.length.toLocaleString('en')} checks`;
      if (items.length === 0) {
        holder.replaceChildren(
          empty(detail.checks.length ? 'No check matches.' : 'This run recorded no needlework check.'),
        );
        return;
      }
      const list = new VirtualList({
        label: 'checks',
        count: items.length,
        rowHeight: rowHeight(32, 60),
        row: (i) => itemElement(items[i] as Item, run.id),
        onSelect: (i) => {
          const item = items[i] as Item;
          if (item.kind === 'check') showCheck(info, item.check, run.id);
        },
        open: (i) => {
          const item = items[i] as Item;
          if (item.kind === 'check')
            context.go(
              casePath({
                spec: item.check.spec,
                ...(item.check.case !== undefined && { caseId: item.check.case }),
                task: item.check.task ?? item.check.workup,
              }),
            );
        },
        isFailure: (i) => {
          const item = items[i] as Item;
          return item.kind === 'check' && item.check.verdict === 'fail';
        },
      });
      holder.replaceChildren(list.element);
    };
    let timer = 0;
    input.addEventListener('input', () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        search = input.value;
        context.setQuery({ q: search || undefined });
        draw();
      }, 120);
    });
    draw();
    performance.mark('needlework:run-drawn');
  };
}

/** The path of a workup's view (`file`: which of its files, when its id names several in the run). */
export function workupPath(run: string, workup: string, file?: number): string {
  return `/runs/${encodeURIComponent(run)}/workups/${encodeURIComponent(workup)}${query({ file })}`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function haystack(c: CheckRow): string {
  return `${c.spec}\n${c.case ?? ''}\n${c.workup}\n${c.task ?? ''}\n${c.criterion}\n${c.metric}\n${c.reason ?? ''}`.toLowerCase();
}

function itemElement(item: Item, runId: string): HTMLElement {
  if (item.kind === 'spec')
    return el(
      'div',
      { class: 'group g-spec' },
      cell('name', item.spec),
      el('span', { class: 'count' }, `${item.count}`),
    );
  if (item.kind === 'case')
    return el(
      'div',
      { class: 'group g-case' },
      cell('name', item.label),
      el('span', { class: 'count' }, `${item.count}`),
    );
  const c = item.check;
  const value = `${fmt(c.value, c.unit)}${c.threshold !== undefined ? ` ${c.comparator ?? '>='} ${fmt(c.threshold, c.unit)}` : ''}`;
  return el(
    'div',
    { class: `r-check v-${c.verdict}` },
    el(
      'span',
      { class: 'c verdict' },
      badge(
        c.verdict === 'not-applicable' ? 'na' : c.verdict,
        c.verdict === 'not-applicable' ? 'n/a' : c.verdict,
      ),
    ),
    cell('crit', c.criterion),
    workupLink(runId, c),
    cell('value', value),
    el(
      'span',
      { class: 'c tags' },
      item.status ? badge(item.status) : null,
      item.flaky ? badge('flaky') : null,
    ),
    cell('why', c.reason ?? ''),
  );
}

/** The check's workup, as a link to its view. */
function workupLink(runId: string, c: CheckRow): HTMLElement {
  const text = `${c.workup}${c.trial !== undefined ? ` #${c.trial}` : ''}`;
  const a = link(workupPath(runId, c.workup), text);
  a.className = 'c workup';
  a.title = `the workup ${text}: its steps, note and what was expected`;
  return a;
}

function showCheck(info: HTMLElement, c: CheckRow, runId: string): void {
  info.replaceChildren(
    el(
      'p',
      null,
      el('strong', null, `${c.spec} / ${c.case ?? c.task ?? c.workup} · ${c.criterion}`),
      ` (${c.metric}): ${c.verdict}, ${fmt(c.value, c.unit)}`,
      c.threshold !== undefined ? ` against ${c.comparator ?? '>='} ${fmt(c.threshold, c.unit)}` : '',
    ),
    el(
      'p',
      { class: 'muted' },
      'workup ',
      link(workupPath(runId, c.workup), c.workup),
      `${c.task !== undefined ? `, task ${c.task}` : ''}${c.trial !== undefined ? `, trial ${c.trial}` : ''}, ${c.state}`,
    ),
    el('p', { class: 'reason' }, c.reason ?? 'no reason recorded'),
  );
}
