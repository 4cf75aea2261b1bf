import { describe, expect, it } from 'vitest';
import { citationRecall } from '../../src/metrics/citations/recall.js';
import type { Workup } from '../../src/model/workup.js';
import { parseNote } from '../../src/note/parse.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { buildHtmlData } from '../../src/report/html/data.js';
import { workupView } from '../../src/report/html/workup-view.js';
import { checkMeta } from './harness.js';

const record = (meta: CheckRecord['meta'], state: CheckRecord['state'] = 'passed'): CheckRecord => ({
  name: meta?.criterion ?? 'plain',
  suitePath: [],
  fullName: meta?.criterion ?? 'plain',
  file: 'f.test.ts',
  state,
  durationMs: 1,
  errors: [],
  meta,
});

describe('buildHtmlData', () => {
  const checks = [
    record(
      checkMeta({
        spec: 's',
        workup: 'b',
        criterion: 'hops',
        metric: 'pivot_burden',
        value: 3,
        unit: 'queries',
      }),
    ),
    record(
      checkMeta({
        spec: 's',
        workup: 'a',
        criterion: 'hops',
        metric: 'pivot_burden',
        value: 5,
        unit: 'queries',
      }),
    ),
    record(
      checkMeta({ spec: 's', workup: 'a', criterion: 'surfaced', value: 0.2, verdict: 'fail' }),
      'failed',
    ),
    record(
      checkMeta({ spec: 's', workup: 'b', criterion: 'surfaced', value: null, verdict: 'not-applicable' }),
    ),
    record(checkMeta({ spec: 's', workup: 'c', workupPath: 'gone/c', criterion: 'surfaced', value: true })),
    record(undefined, 'failed'),
  ];
  const data = buildHtmlData({
    checks,
    workups: new Map([['gone/c', { error: 'gone/c: no such file or folder' }]]),
    now: new Date(0),
  });

  it('puts failing checks first, then not applicable, then passing, each in byte order', () => {
    expect(data.checks.map((c) => `${c.verdict} ${c.workup} ${c.criterion}`)).toEqual([
      'fail a surfaced',
      'not-applicable b surfaced',
      'pass a hops',
      'pass b hops',
      'pass c surfaced',
    ]);
  });

  it('averages each metric over the workups where it applies, booleans as 1/0', () => {
    expect(data.summary).toMatchObject({
      checks: 5,
      passed: 3,
      failed: 1,
      notApplicable: 1,
      passRate: 0.75,
      tests: 1,
      testsFailed: 1,
    });
    expect(data.summary.metrics).toEqual([
      { spec: 's', criterion: 'hops', metric: 'pivot_burden', unit: 'queries', mean: 4, count: 2, failed: 0 },
      { spec: 's', criterion: 'surfaced', metric: 'recall', mean: 0.6, count: 2, failed: 1 },
    ]);
  });

  it('keeps a workup that did not load, with the reason, and one with no path as checks only', () => {
    expect(data.workups.map((w) => [w.id, w.path, w.loadError])).toEqual([
      ['a', undefined, undefined],
      ['b', undefined, undefined],
      ['c', 'gone/c', 'gone/c: no such file or folder'],
    ]);
    expect(data.generatedAt).toBe('1970-01-01T00:00:00.000Z');
    expect(data.trend).toBeUndefined();
  });
});

describe('workupView: uncited sentences', () => {
  it('marks exactly the sentences citation recall counts as uncited, sentence by sentence', () => {
    // "A is B." is cited in the first bullet and uncited in the second; the third bullet's first two sentences are
    // covered by its trailing citation and only the last is not.
    const source =
      '# N\n\n- A is B. [cite:g1]\n- A is B.\n- C is D. E is F. [cite:g1] G is H.\n\n## Gaps & caveats\n\n- Nothing cited here.\n';
    const note = parseNote(source);
    const workup: Workup = {
      id: 'w',
      ledger: [{ id: 'g1', store: 's', query: 'q', results: [] }],
      meta: {},
      note,
    };
    const view = workupView(workup, []);
    const marked = view.note!.sections.flatMap((section) =>
      section.segments.flatMap((segment) =>
        segment.sentences.filter((s) => s.status === 'uncited').map((s) => s.text),
      ),
    );
    const recall = citationRecall(note);
    expect(marked).toEqual(['A is B.', 'G is H.']);
    expect(view.note!.counts.uncited).toBe(recall.total - recall.covered);
  });
});

describe('buildHtmlData: workups by id and place', () => {
  const live = (file: string, path: string | undefined, verdict: 'pass' | 'fail'): CheckRecord => ({
    ...record(
      checkMeta({
        spec: 'matcher',
        specKind: 'matcher',
        workup: 'agentTest-finds-the-link',
        ...(path ? { workupPath: path } : {}),
        criterion: 'toMatchTrajectory',
        verdict,
      }),
      verdict === 'fail' ? 'failed' : 'passed',
    ),
    file,
  });
  const inFile = (r: CheckRecord, file: string): CheckRecord => ({ ...r, file });

  it('keeps two workups of one id apart by their folders, and their checks with them', () => {
    const data = buildHtmlData({
      checks: [
        live('test/a.test.ts', 'w/a/agentTest-finds-the-link', 'pass'),
        live('test/b.test.ts', 'w/b/agentTest-finds-the-link', 'fail'),
      ],
    });
    expect(data.workups.map((w) => [w.id, w.path])).toEqual([
      ['agentTest-finds-the-link', 'w/a/agentTest-finds-the-link'],
      ['agentTest-finds-the-link', 'w/b/agentTest-finds-the-link'],
    ]);
    const [a, b] = data.workups;
    expect(data.checks.map((c) => [c.verdict, c.workupKey])).toEqual([
      ['fail', b!.key],
      ['pass', a!.key],
    ]);
  });

  it('keeps workups with no folder apart by test file, and one workup checked from two files whole', () => {
    const data = buildHtmlData({
      checks: [
        live('test/a.test.ts', undefined, 'pass'),
        live('test/b.test.ts', undefined, 'fail'),
        inFile(
          record(checkMeta({ spec: 's1', workup: 'grounded', workupPath: 'fx/grounded', criterion: 'x' })),
          's1.yaml',
        ),
        inFile(
          record(checkMeta({ spec: 's2', workup: 'grounded', workupPath: 'fx/grounded', criterion: 'y' })),
          's2.yaml',
        ),
      ],
    });
    expect(data.workups.map((w) => [w.id, w.path ?? null, w.file ?? null])).toEqual([
      ['agentTest-finds-the-link', null, 'test/a.test.ts'],
      ['agentTest-finds-the-link', null, 'test/b.test.ts'],
      ['grounded', 'fx/grounded', null],
    ]);
    expect(new Set(data.workups.map((w) => w.key)).size).toBe(3);
  });
});

describe('workupView: the trajectory header', () => {
  const step = (id: number, latency: number, tokens: number) => ({
    step_id: id,
    step_type: 'tool_call' as const,
    content: '',
    tool_name: 't',
    tool_input: { id },
    tool_output: null,
    timestamp: null,
    latency_ms: latency,
    tokens_used: tokens,
    error: null,
  });
  const workup = (total_tokens: number, total_latency_ms: number): Workup => ({
    id: 'w',
    ledger: [],
    meta: {},
    trajectory: {
      task_id: 'w',
      task_input: '',
      steps: [step(1, 10, 20), step(2, 15, 20)],
      final_answer: null,
      succeeded: true,
      total_tokens,
      total_latency_ms,
      metadata: {},
    },
  });

  it("totals the rows it heads, and keeps the trajectory's own totals beside them where they differ", () => {
    expect(workupView(workup(0, 0), []).trajectory).toMatchObject({
      totalTokens: 40,
      totalLatencyMs: 25,
      recorded: { tokens: 0, latencyMs: 0 },
    });
    const agreeing = workupView(workup(40, 25), []).trajectory!;
    expect([agreeing.totalTokens, agreeing.totalLatencyMs, agreeing.recorded]).toEqual([40, 25, undefined]);
    expect(workupView(workup(40, 900), []).trajectory?.recorded).toEqual({ latencyMs: 900 });
  });
});

describe('buildHtmlData: where a check of a spec file is written', () => {
  it('names the assertion and the case as file:line:column from the root; a matcher check names none', () => {
    const data = buildHtmlData({
      root: '/p',
      checks: [
        record(
          checkMeta({
            spec: 'refund-bot',
            specKind: 'cases',
            specFile: '/p/needles/refunds.cases.yaml',
            place: { line: 3, column: 12 },
            case: 'change-flight',
            casePlace: { line: 5, column: 5 },
            workup: 'w',
            criterion: 'max-steps',
          }),
          'failed',
        ),
        record(checkMeta({ spec: 'matcher', workup: 'w', criterion: 'grounded' })),
      ],
    });
    expect(data.checks.map((c) => [c.criterion, c.place, c.casePlace])).toEqual([
      ['max-steps', 'needles/refunds.cases.yaml:3:12', 'needles/refunds.cases.yaml:5:5'],
      ['grounded', undefined, undefined],
    ]);
  });
});
