import type { ViewContext } from '../app.js';
import { badge, cell, el, fmt, link, query } from '../dom.js';
import type {
  ExpectedCalls,
  ExpectedPath,
  StepMark,
  WorkupAnswer,
  WorkupLedgerEntry,
  WorkupNote,
  WorkupStep,
} from '../types.js';
import { empty, rowHeight, VirtualList } from '../vlist.js';
import { workupPath } from './run.js';

/** A row of the steps list: a step, or an expected call the run never made, where it would have stood. */
type Item = { kind: 'step'; index: number } | { kind: 'missing'; call: number };

const MARK_TEXT: Record<StepMark['status'], string> = {
  matched: 'matched',
  'out-of-order': 'out of order',
  extra: 'extra',
  'extra-allowed': 'extra (allowed)',
};

/**
 * The One workup view (`/runs/<run>/workups/<workup>`; the router asks the API path of the same name for its answer
 * while this module loads): its steps (messages, tool calls with their arguments and results, errors) in a list that
 * draws only the rows in view, with the expected tool calls of a tool-calls check laid over them (matched, out of
 * order, missing, extra); its note with each citation resolved to the ledger entry it names; the ledger with each
 * required path's hops on it. `?expect=<n>` picks which check's expected calls, `?step=<id>` selects a step.
 */
export function workupView(answered: Promise<WorkupAnswer>) {
  return async (context: ViewContext): Promise<void> => {
    const answer = await answered;
    if (!context.current()) return;
    drawWorkup(context.root, answer, context);
    performance.mark('needlework:workup-drawn');
  };
}

/** Draws a workup's answer into `root` (the served view, and any page that holds the answer itself). */
export function drawWorkup(main: HTMLElement, answer: WorkupAnswer, context: ViewContext): void {
  const { url } = context;
  // One block that keeps its height: the page scrolls, rather than squeezing the tables to fit.
  const root = el('div', { class: 'workup' });
  main.append(root);
  root.append(
    el(
      'h1',
      null,
      'Workup ',
      el('span', { class: 'ident' }, answer.workup),
      ' of run ',
      link(`/runs/${encodeURIComponent(answer.run)}`, el('span', { class: 'ident' }, answer.run)),
    ),
    el(
      'p',
      { class: 'meta' },
      [
        answer.path ?? 'no file',
        answer.task !== undefined ? `task ${answer.task}` : '',
        answer.trial !== undefined ? `trial ${answer.trial}` : '',
        answer.tally
          ? `${answer.steps.length} steps, ${answer.tally.toolCalls} tool calls, ${answer.tally.errors} errors, ${answer.tally.redundant} repeated, ${answer.tally.tokens} tokens, ${fmt(answer.tally.latencyMs)} ms`
          : '',
      ]
        .filter(Boolean)
        .join(' · '),
    ),
  );
  if (answer.files) {
    const files = el('p', { class: 'meta' }, 'This workup id names several files in this run: ');
    answer.files.forEach((f, i) => {
      files.append(i > 0 ? ' · ' : '', link(workupPathOf(answer, i + 1), f));
    });
    root.append(files);
  }
  if (answer.problem)
    root.append(
      el('p', { class: `problem p-${answer.problem.kind}`, role: 'alert' }, answer.problem.message),
    );
  if (answer.input !== undefined)
    root.append(el('p', { class: 'reason' }, el('strong', null, 'Asked: '), answer.input));
  root.append(checksTable(answer));

  const chosen = Math.min(
    Math.max(0, Number(url.searchParams.get('expect') ?? 0) || 0),
    Math.max(0, answer.expected.length - 1),
  );
  const expected = answer.expected[chosen];
  if (answer.expected.length > 0) root.append(expectedPanel(answer, chosen));

  root.append(el('h2', null, 'Steps'));
  if (answer.steps.length === 0) {
    root.append(
      empty(
        answer.problem && answer.problem.kind !== 'changed'
          ? 'No step to show.'
          : 'This workup recorded no trajectory.',
      ),
    );
  } else root.append(...stepsList(answer, expected, chosen, context));
  if (answer.finalAnswer !== undefined)
    root.append(el('p', { class: 'reason' }, el('strong', null, 'Final answer: '), answer.finalAnswer));

  const cite = el('div', { class: 'detail cite-detail', 'aria-live': 'polite' });
  if (answer.note) root.append(el('h2', null, 'Note'), noteSection(answer.note, answer.ledger, cite), cite);
  if (answer.paths.length > 0)
    root.append(el('h2', null, 'Required paths'), pathsSection(answer.paths, answer));
  if (answer.ledger.length > 0) root.append(el('h2', null, 'Ledger'), ledgerTable(answer));
}

function workupPathOf(answer: WorkupAnswer, file?: number): string {
  return workupPath(answer.run, answer.workup, file);
}

function verdictBadge(verdict: 'pass' | 'fail' | 'not-applicable'): HTMLElement {
  return badge(verdict === 'not-applicable' ? 'na' : verdict, verdict === 'not-applicable' ? 'n/a' : verdict);
}

function checksTable(answer: WorkupAnswer): HTMLElement {
  return table(
    'w-checks',
    ['verdict', 'spec', 'criterion', 'value', 'reason'],
    answer.checks.map((c) =>
      el(
        'tr',
        null,
        el('td', null, verdictBadge(c.verdict)),
        el('td', null, `${c.spec}${c.case !== undefined ? ` / ${c.case}` : ''}`),
        el('td', null, c.criterion),
        el(
          'td',
          { class: 'num' },
          `${fmt(c.value, c.unit)}${c.threshold !== undefined ? ` ${c.comparator ?? '>='} ${fmt(c.threshold, c.unit)}` : ''}`,
        ),
        el('td', { class: 'why' }, c.reason ?? ''),
      ),
    ),
  );
}

/** A table of `rows` under `heads`, scrolling sideways inside itself where the screen is too narrow for it. */
function table(cls: string, heads: string[], rows: HTMLElement[]): HTMLElement {
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      { class: `trials ${cls}` },
      el('thead', null, el('tr', null, ...heads.map((h) => el('th', null, h)))),
      el('tbody', null, ...rows),
    ),
  );
}

function callText(tool: string | null | undefined, args: string | undefined): string {
  return `${tool ?? '(no tool)'}(${args ?? ''})`;
}

/** The chosen check's expected calls, each with its status and the step it was paired with. */
function expectedPanel(answer: WorkupAnswer, chosen: number): HTMLElement {
  const section = el('section', { class: 'expected' }, el('h2', null, 'Expected tool calls'));
  if (answer.expected.length > 1) {
    const pick = el('div', { class: 'filters' });
    answer.expected.forEach((e, i) => {
      const a = link(
        `${workupPathOf(answer)}${query({ expect: i })}`,
        `${e.spec}${e.case !== undefined ? ` / ${e.case}` : ''} ${e.criterion}`,
      );
      a.className = 'chip';
      a.setAttribute('aria-pressed', String(i === chosen));
      pick.append(a);
    });
    section.append(pick);
  }
  const e = answer.expected[chosen] as ExpectedCalls;
  section.append(
    el(
      'p',
      { class: 'meta' },
      verdictBadge(e.verdict),
      `${e.spec}${e.case !== undefined ? ` / ${e.case}` : ''} · ${e.mode} match, arguments ${e.args} · ${e.counts.matched} matched, ${e.counts.outOfOrder} out of order, ${e.counts.missing} missing, ${e.counts.extra} extra`,
      e.mode !== 'strict' ? ' (this mode does not check the order)' : '',
      e.reason !== undefined ? ` · ${e.reason}` : '',
    ),
  );
  const list = el('ol', { class: 'calls' });
  e.calls.forEach((call) => {
    const item = el(
      'li',
      { class: `s-${call.status}` },
      badge(call.status, call.status.replace(/-/g, ' ')),
      el('code', null, callText(call.tool, call.args)),
    );
    if (call.step !== undefined) {
      const step = answer.steps[call.step] as WorkupStep;
      item.append(
        ' → ',
        link(
          `${workupPathOf(answer)}${query({ expect: chosen || undefined, step: step.id })}`,
          `step ${step.id}`,
        ),
      );
    }
    list.append(item);
  });
  section.append(list);
  return section;
}

/** The steps as a list that draws only the rows in view, and the whole of the selected one below it. */
function stepsList(
  answer: WorkupAnswer,
  expected: ExpectedCalls | undefined,
  chosen: number,
  context: ViewContext,
): HTMLElement[] {
  const items: Item[] = [];
  const missingAfter = new Map<number, number[]>();
  expected?.calls.forEach((call, j) => {
    if (call.after === undefined) return;
    const list = missingAfter.get(call.after) ?? [];
    list.push(j);
    missingAfter.set(call.after, list);
  });
  for (const j of missingAfter.get(-1) ?? []) items.push({ kind: 'missing', call: j });
  answer.steps.forEach((_, index) => {
    items.push({ kind: 'step', index });
    for (const j of missingAfter.get(index) ?? []) items.push({ kind: 'missing', call: j });
  });
  const info = el('div', { class: 'detail step-detail', 'aria-live': 'polite' });
  const marksOf = (step: WorkupStep) => (step.marks ?? []).filter((m) => m.expected === chosen);
  const isFailure = (item: Item) => {
    if (item.kind === 'missing') return expected?.calls[item.call]?.status === 'missing';
    const step = answer.steps[item.index] as WorkupStep;
    return (
      step.error !== undefined ||
      marksOf(step).some((m) => m.status === 'extra' || m.status === 'out-of-order')
    );
  };
  const list = new VirtualList({
    label: 'steps',
    count: items.length,
    rowHeight: rowHeight(32, 60),
    row: (i) => {
      const item = items[i] as Item;
      if (item.kind === 'missing') {
        const call = expected!.calls[item.call]!;
        return el(
          'div',
          { class: `r-step missing s-${call.status}` },
          el('span', { class: 'c id' }, ''),
          el(
            'span',
            { class: 'c kind' },
            badge(call.status, call.status === 'missing' ? 'missing' : 'not called'),
          ),
          cell('text', `expected ${callText(call.tool, call.args)}, never called`),
          el('span', { class: 'c marks' }),
        );
      }
      const step = answer.steps[item.index] as WorkupStep;
      return el(
        'div',
        { class: `r-step t-${step.type}${step.error !== undefined ? ' has-error' : ''}` },
        el('span', { class: 'c id' }, String(step.id)),
        el('span', { class: 'c kind' }, badge(`t-${step.type}`, step.type.replace('_', ' '))),
        cell('text', stepLine(step)),
        el(
          'span',
          { class: 'c marks' },
          ...marksOf(step).map((m) =>
            badge(
              m.status,
              m.call !== undefined ? `${MARK_TEXT[m.status]} #${m.call + 1}` : MARK_TEXT[m.status],
            ),
          ),
          step.redundant ? badge('repeat', 'repeated') : null,
          step.error !== undefined ? badge('fail', 'error') : null,
        ),
      );
    },
    onSelect: (i) => {
      const item = items[i] as Item;
      if (item.kind === 'missing') {
        const call = expected!.calls[item.call]!;
        info.replaceChildren(
          el(
            'p',
            null,
            el('strong', null, `Expected call ${item.call + 1}, never made: `),
            el('code', null, callText(call.tool, call.args)),
          ),
          el(
            'p',
            { class: 'muted' },
            call.status === 'missing'
              ? 'The check counts it missing.'
              : 'The match mode allows it to be missing.',
          ),
        );
        return;
      }
      const step = answer.steps[item.index] as WorkupStep;
      context.setQuery({ step: String(step.id) });
      info.replaceChildren(...stepDetail(step, marksOf(step), expected));
    },
    isFailure: (i) => isFailure(items[i] as Item),
  });
  const wanted = Number(context.url.searchParams.get('step'));
  if (wanted) {
    const at = items.findIndex((item) => item.kind === 'step' && answer.steps[item.index]?.id === wanted);
    if (at >= 0) requestAnimationFrame(() => list.select(at));
  }
  const holder = el('div', { class: 'holder steps' }, list.element);
  // As tall as its rows, up to the CSS's limit: a short run leaves no empty box.
  holder.style.height = `${items.length * rowHeight(32, 60) + 2}px`;
  return [holder, info];
}

/** A step on one line: a call with its arguments, what a tool returned, or the text. */
function stepLine(step: WorkupStep): string {
  if (step.type === 'tool_call') return callText(step.tool, step.args);
  const text = step.type === 'observation' ? (step.output ?? step.content) : step.content;
  const line = text.length > 300 ? text.slice(0, 300) : text;
  const prefix = step.type === 'observation' && step.tool ? `${step.tool} → ` : '';
  return `${prefix}${line}${step.error !== undefined ? ` · error: ${step.error}` : ''}`;
}

function stepDetail(step: WorkupStep, marks: StepMark[], expected: ExpectedCalls | undefined): Node[] {
  const out: Node[] = [
    el(
      'p',
      null,
      el(
        'strong',
        null,
        `Step ${step.id}: ${step.type.replace('_', ' ')}${step.tool ? ` ${step.tool}` : ''}`,
      ),
      ` · ${step.tokens} tokens · ${fmt(step.latencyMs)} ms${step.callId !== undefined ? ` · call id ${step.callId}` : ''}`,
    ),
  ];
  const block = (title: string, text: string | undefined, whole?: number) => {
    if (text === undefined || text === '') return;
    out.push(el('h3', null, title), el('pre', { class: 'text' }, text));
    if (whole !== undefined)
      out.push(
        el(
          'p',
          { class: 'note' },
          `cut: the first ${text.length.toLocaleString('en')} of ${whole.toLocaleString('en')} characters`,
        ),
      );
  };
  block('Arguments', step.args, step.cut?.args);
  // A call's content is most often its arguments as the source wrote them: shown only when it says something else.
  if (step.type !== 'tool_call' || !sameJson(step.content, step.args))
    block(step.type === 'tool_call' ? 'Content' : 'Text', step.content, step.cut?.content);
  block('Result', step.output, step.cut?.output);
  if (step.error !== undefined)
    out.push(el('h3', null, 'Error'), el('pre', { class: 'text error' }, step.error));
  for (const m of marks) {
    const call = m.call !== undefined ? expected?.calls[m.call] : undefined;
    out.push(
      el(
        'p',
        { class: 'evidence' },
        badge(m.status, MARK_TEXT[m.status]),
        call
          ? el('code', null, `expected call ${(m.call ?? 0) + 1}: ${callText(call.tool, call.args)}`)
          : m.status === 'extra'
            ? 'no expected call matches it, and the check counts it'
            : 'no expected call matches it, which the match mode allows',
      ),
    );
  }
  if (step.redundant)
    out.push(el('p', { class: 'muted' }, 'It repeats an earlier call exactly (same tool, same arguments).'));
  return out;
}

function sameJson(text: string, json: string | undefined): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}

function facts(n: number): string {
  return `${n} fact${n === 1 ? '' : 's'}`;
}

/** The note, each citation a button naming the ledger entry it resolves to; pressing one shows that entry. */
function noteSection(note: WorkupNote, ledger: WorkupLedgerEntry[], detail: HTMLElement): HTMLElement {
  const c = note.counts;
  const section = el(
    'section',
    { class: 'note-text' },
    el(
      'p',
      { class: 'meta' },
      `${c.resolved} citations resolve, ${c['failed-query']} to a failed query, ${c.dangling} dangle; ${c.uncited} uncited and ${c.unsupported} unsupported claims`,
    ),
  );
  for (const s of note.sections) {
    section.append(
      el('h3', null, s.title, s.claims ? '' : el('span', { class: 'muted' }, ' (makes no claims)')),
    );
    for (const segment of s.segments) {
      const block = el(segment.kind === 'bullet' ? 'li' : 'p', { class: 'segment' });
      for (const sentence of segment.sentences) {
        const span = el(
          'span',
          { class: `sentence${sentence.status ? ` m-${sentence.status}` : ''}` },
          sentence.text,
        );
        if (sentence.status) span.title = sentence.status;
        block.append(span);
        for (const citation of sentence.citations) {
          const entry = citation.entry !== undefined ? ledger[citation.entry] : undefined;
          const button = el('button', { type: 'button', class: `cite m-${citation.status}` }, citation.id);
          button.title = entry
            ? `${citation.status}: ${entry.store}: ${entry.query} (${facts(entry.resultCount)}${entry.error !== undefined ? `, error ${entry.error}` : ''})`
            : `${citation.status}: no ledger entry ${citation.id}`;
          button.addEventListener('click', () => {
            detail.replaceChildren(
              ...(entry
                ? entryDetail(entry)
                : [
                    el(
                      'p',
                      { class: 'error' },
                      `${citation.id}: the ledger has no such entry (a dangling citation)`,
                    ),
                  ]),
            );
          });
          block.append(' ', button);
        }
        block.append(' ');
      }
      section.append(segment.kind === 'bullet' ? el('ul', null, block) : block);
    }
  }
  return section;
}

function entryDetail(entry: WorkupLedgerEntry): Node[] {
  const out: Node[] = [
    el('p', null, el('strong', null, `${entry.id} · ${entry.store}`), ' ', el('code', null, entry.query)),
    entry.error !== undefined
      ? el('p', { class: 'error' }, `the query failed: ${entry.error}`)
      : el(
          'p',
          { class: 'muted' },
          `${facts(entry.resultCount)}${entry.results.length < entry.resultCount ? ` (the first ${entry.results.length} shown)` : ''}`,
        ),
    el(
      'ul',
      { class: 'facts' },
      ...entry.results.map((f) => el('li', null, `${f.subject} —${f.relation}→ ${f.object}`)),
    ),
  ];
  if (entry.text !== undefined) out.push(el('pre', { class: 'text' }, entry.text));
  return out;
}

function pathsSection(paths: ExpectedPath[], answer: WorkupAnswer): HTMLElement {
  const section = el('section', { class: 'paths' });
  for (const p of paths) {
    const list = el('ol', { class: 'hops' });
    for (const hop of p.hops)
      list.append(
        el(
          'li',
          { class: `s-${hop.status}` },
          badge(hop.status === 'traversed' ? 'matched' : 'missing', hop.status),
          el('code', null, hop.relation),
          hop.status === 'traversed'
            ? ` via ${hop.ledgerId ?? '?'}${hop.from !== undefined ? ` (${hop.from} → ${hop.to ?? ''})` : ''}${hop.entry !== undefined ? `: ${answer.ledger[hop.entry]?.query ?? ''}` : ''}`
            : ' not traversed',
        ),
      );
    section.append(
      el(
        'p',
        { class: 'meta' },
        verdictBadge(p.verdict),
        `${p.spec} ${p.criterion}: ${p.traversed.length} of ${p.required.length} hops`,
      ),
      list,
    );
  }
  return section;
}

function ledgerTable(answer: WorkupAnswer): HTMLElement {
  return table(
    'w-ledger',
    ['id', 'store', 'query', 'facts', 'citations', 'path'],
    answer.ledger.map((e) =>
      el(
        'tr',
        { class: e.error !== undefined ? 'failed' : '' },
        el('td', { class: 'ident id' }, e.id),
        el('td', null, e.store),
        el('td', { class: 'why' }, e.query),
        el('td', { class: 'num' }, e.error !== undefined ? 'failed' : String(e.resultCount)),
        el('td', { class: 'num' }, e.cited ? `cited ${e.cited}×` : 'not cited'),
        el(
          'td',
          null,
          ...(e.hops ?? []).map((h) =>
            badge('matched', `${answer.paths[h.path]?.required[h.hop] ?? ''} (hop ${h.hop + 1})`),
          ),
        ),
      ),
    ),
  );
}
