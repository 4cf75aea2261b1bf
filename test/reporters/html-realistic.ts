import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildTrendRun } from '../../src/history/entry.js';
import type { TrendCheck, TrendRun } from '../../src/history/types.js';
import type { CheckMeta } from '../../src/model/check.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { checkMeta } from './harness.js';
import { type WrittenReport, writeReport } from './report-page.js';
import { trendCheck, trendRun } from './trend-data.js';

/**
 * A report the size of a real project's: 30 loaded workups under a needle and a rubric, 8 tasks of 3 trials under a
 * cases spec with 20 criteria (a matrix wider than a laptop screen), checks with and without units, several failing
 * (the first is not first in byte order), two plain tests (one failing), 24 runs of history (the first 10 without a commit), and two live tests of
 * one name in two files, each with its own saved workup whose trajectory records no totals.
 */
export const TASKS = [
  'book-flight',
  'cancel-booking',
  'change-seat',
  'lost-baggage',
  'meal-preference',
  'refund-order',
  'update-reservation',
  'upgrade-cabin',
];

/** The cases spec's criteria: metric, unit and each task's value per trial. */
const CASE_CRITERIA: Array<{
  criterion: string;
  metric: string;
  unit?: string;
  value: (t: number, k: number) => number;
}> = [
  {
    criterion: 'tool-calls-match',
    metric: 'trajectory_match',
    value: (t, k) => (t === 6 && k === 2 ? 0 : 1),
  },
  { criterion: 'answer-f1', metric: 'answer_f1', value: (t, k) => 0.7 + ((t + k) % 4) * 0.1 },
  { criterion: 'no-tool-errors', metric: 'tool_errors', value: () => 1 },
  { criterion: 'steps', metric: 'steps', value: (t, k) => 5 + ((t + k) % 3) },
  { criterion: 'tool-call-count', metric: 'tool_calls', value: (t) => 2 + (t % 3) },
  { criterion: 'tokens', metric: 'tokens', unit: 'tokens', value: (t, k) => 1100 + t * 37 + k * 11 },
  { criterion: 'latency', metric: 'latency', unit: 'ms', value: (t, k) => 3200 + t * 90 + k * 40 },
  { criterion: 'cost', metric: 'cost', unit: 'usd', value: (t) => 0.004 + t * 0.0005 },
  { criterion: 'exact-answer', metric: 'answer_em', value: (t) => (t === 2 ? 0 : 1) },
  { criterion: 'pass-at-1', metric: 'pass_at_k', value: () => 1 },
  { criterion: 'redundant-calls', metric: 'redundancy', value: () => 1 },
  { criterion: 'efficiency-ratio', metric: 'efficiency', value: (t) => 0.8 + t * 0.02 },
  { criterion: 'sequence-similarity', metric: 'sequence_ratio', value: (t, k) => 0.8 + ((t * k) % 3) * 0.05 },
  { criterion: 'tool-argument-match', metric: 'argument_match', value: () => 1 },
  { criterion: 'refund-policy-cited', metric: 'citation_recall', value: () => 1 },
  { criterion: 'customer-name-correct', metric: 'answer_em', value: () => 1 },
  { criterion: 'no-personal-data-leaked', metric: 'pii_free', value: () => 1 },
  { criterion: 'escalation-offered', metric: 'rubric', value: (t) => (t === 5 ? 0.6 : 0.9) },
  { criterion: 'confirmation-number-given', metric: 'answer_em', value: () => 1 },
  { criterion: 'tone-polite', metric: 'judge_score', value: () => 0.9 },
];

/** The verdict of a cases criterion: budgets are upper bounds, the rest are scores against 0.8. */
function caseMeta(task: string, t: number, k: number, c: (typeof CASE_CRITERIA)[number]): CheckMeta {
  const value = c.value(t, k);
  const upper: Record<string, number> = {
    steps: 6,
    'tool-call-count': 4,
    tokens: 1400,
    latency: 4000,
    cost: 0.01,
  };
  const threshold = upper[c.criterion] ?? 0.8;
  const comparator = c.criterion in upper ? '<=' : '>=';
  const pass = comparator === '<=' ? value <= threshold : value >= threshold;
  return checkMeta({
    spec: 'support-desk',
    specKind: 'cases',
    case: task,
    workup: `${task}.trial-${k}`,
    workupPath: `.needlework/workups/support-desk/${task}.trial-${k}`,
    task,
    trial: k,
    criterion: c.criterion,
    metric: c.metric,
    value,
    threshold,
    comparator,
    verdict: pass ? 'pass' : 'fail',
    ...(c.unit ? { unit: c.unit } : {}),
  });
}

const NEEDLE = ['surfaced', 'traversed', 'citation-recall', 'citation-precision', 'grounded'];

function record(meta: CheckMeta, file: string): CheckRecord {
  const failed = meta.verdict === 'fail';
  return {
    name: meta.criterion,
    suitePath: [meta.spec, meta.workup],
    fullName: `${meta.spec} > ${meta.workup} > ${meta.criterion}`,
    file,
    state: failed ? 'failed' : 'passed',
    durationMs: 4,
    errors: failed ? [{ name: 'AssertionError', message: `${meta.criterion} failed` }] : [],
    meta,
  };
}

/** The checks of the report, in the order a run would list them (by file), not failing first. */
export function realisticChecks(): CheckRecord[] {
  const out: CheckRecord[] = [];
  for (let i = 0; i < 30; i++) {
    const workup = `regional-analysis-${String(i).padStart(2, '0')}-${['harbour', 'customs', 'shipping'][i % 3]}`;
    for (const criterion of NEEDLE) {
      const fail =
        (criterion === 'citation-recall' && i % 9 === 4) || (criterion === 'traversed' && i === 17);
      out.push(
        record(
          checkMeta({
            spec: 'compound-alpha',
            specFile: 'needles/compound-alpha.needle.yaml',
            workup,
            workupPath: `fixtures/workups/regional/${workup}`,
            criterion,
            metric: criterion.replace('-', '_'),
            value: fail ? 0.55 : 0.9,
            verdict: fail ? 'fail' : 'pass',
            summary: fail
              ? `3 of 7 claims in the Findings section of ${workup} carry no citation to the provenance ledger`
              : undefined,
          }),
          'needles/compound-alpha.needle.yaml',
        ),
      );
    }
    out.push(
      record(
        checkMeta({
          spec: 'icd-203',
          specKind: 'rubric',
          workup,
          workupPath: `fixtures/workups/regional/${workup}`,
          criterion: 'confidence-expressed',
          metric: 'judge_score',
          value: 2 + (i % 4),
          unit: 'score-1-5',
          threshold: 3,
          verdict: 2 + (i % 4) >= 3 ? 'pass' : 'fail',
        }),
        'needles/icd-203.rubric.yaml',
      ),
    );
  }
  TASKS.forEach((task, t) => {
    for (let k = 1; k <= 3; k++)
      for (const c of CASE_CRITERIA)
        out.push(record(caseMeta(task, t, k, c), 'specs/support-desk.cases.yaml'));
  });
  for (const file of ['test/agents/booking.test.ts', 'test/agents/refunds.test.ts']) {
    const folder = file.includes('booking') ? 'booking' : 'refunds';
    out.push(
      record(
        checkMeta({
          spec: 'matcher',
          specKind: 'matcher',
          workup: 'agentTest-finds-the-link',
          workupPath: `.needlework/workups/test/agents/${folder}/agentTest-finds-the-link`,
          criterion: 'toMatchTrajectory',
          metric: 'trajectory_match',
          value: folder === 'booking' ? 1 : 0,
          verdict: folder === 'booking' ? 'pass' : 'fail',
        }),
        file,
      ),
    );
  }
  // Plain Vitest tests (no needlework meta), one failing.
  for (const [name, state] of [
    ['parses dates', 'failed'],
    ['formats money', 'passed'],
  ] as const)
    out.push({
      name,
      suitePath: ['utils'],
      fullName: `utils > ${name}`,
      file: 'test/unit/utils.test.ts',
      state,
      durationMs: 1,
      errors:
        state === 'failed'
          ? [{ name: 'AssertionError', message: 'expected 2026-11-23 to be 2026-11-22' }]
          : [],
    });
  return out;
}

/** 24 runs, a minute apart, of a cases metric with no unit (`steps`, around 6), one in tokens and a [0, 1] score. */
export function realisticRuns(): TrendRun[] {
  return Array.from({ length: 24 }, (_, i) => {
    const checks: TrendCheck[] = [
      trendCheck({ value: 0.8 + (i % 5) * 0.03, verdict: i % 5 < 2 ? 'fail' : 'pass' }),
      trendCheck({
        spec: 'support-desk',
        workup: 'book-flight.trial-1',
        criterion: 'steps',
        metric: 'steps',
        value: 5 + (i % 4) * 0.5,
        threshold: 6,
        comparator: '<=',
      }),
      trendCheck({
        spec: 'support-desk',
        workup: 'book-flight.trial-1',
        criterion: 'tokens',
        metric: 'tokens',
        unit: 'tokens',
        value: 1100 + i * 13,
        threshold: 1400,
        comparator: '<=',
      }),
      trendCheck({
        spec: 'icd-203',
        criterion: 'confidence-expressed',
        metric: 'judge_score',
        unit: 'score-1-5',
        value: 3 + (i % 3) * 0.5,
        threshold: 3,
      }),
    ];
    // The ratio metric goes unmeasured in one run: a gap in its line, not a point at zero.
    if (i === 7) checks[0] = trendCheck({ value: null, verdict: 'not-applicable' });
    return trendRun(
      i + 1,
      checks,
      i < 10 ? {} : { commit: `${(0xa1b2c3 + i).toString(16)}deadbeef0123456789` },
    );
  });
}

const trajectoryStep = (id: number, type: string, extra: Record<string, unknown> = {}) => ({
  step_id: id,
  step_type: type,
  content: type === 'answer' ? 'The link runs through the harbour authority.' : '',
  tool_name: null,
  tool_input: null,
  tool_output: null,
  timestamp: null,
  latency_ms: 10,
  tokens_used: 20,
  error: null,
  ...extra,
});

/** Writes the two live tests' saved workups (a trajectory whose own totals are 0, as an importer leaves them). */
export async function writeLiveWorkups(root: string): Promise<void> {
  for (const [folder, tool] of [
    ['booking', 'lookup_booking'],
    ['refunds', 'issue_refund'],
  ] as const) {
    const dir = join(root, `.needlework/workups/test/agents/${folder}/agentTest-finds-the-link`);
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'trajectory.json'),
      JSON.stringify({
        task_id: 'agentTest-finds-the-link',
        task_input: 'find the link',
        steps: [
          trajectoryStep(1, 'tool_call', { tool_name: tool, tool_input: { id: 7 } }),
          trajectoryStep(2, 'observation', { content: '{"ok":true}' }),
          trajectoryStep(3, 'answer'),
        ],
        final_answer: 'The link runs through the harbour authority.',
        succeeded: true,
        total_tokens: 0,
        total_latency_ms: 0,
        metadata: {},
      }),
    );
  }
}

/**
 * The run the realistic report compares with, an hour earlier: the same checks, but the three failing citation-recall
 * checks and the refunds live test passed. Three regressions; the two live tests are two trials of one task, which is
 * flaky now, as are the tasks whose trials both pass and fail in both runs.
 */
export function realisticBaseline(root: string): TrendRun {
  const records = realisticChecks().map((r) =>
    r.meta &&
    r.meta.verdict === 'fail' &&
    (r.meta.criterion === 'citation-recall' || r.meta.spec === 'matcher')
      ? { ...r, state: 'passed' as const, meta: { ...r.meta, value: 0.9, verdict: 'pass' as const } }
      : r,
  );
  return buildTrendRun(
    records,
    { commit: 'a1b2daddeadbeef0123456789' },
    new Date(Date.UTC(2026, 10, 23, 11)),
    undefined,
    root,
  );
}

/**
 * Writes the realistic report as `<root>/report.html` (its live workups loaded from `root` by the reporter's own
 * loader, the 24 runs of history charted with it, compared with `realisticBaseline`).
 */
export async function writeRealisticReport(root: string): Promise<WrittenReport> {
  await writeLiveWorkups(root);
  return writeReport(join(root, 'report.html'), {
    records: realisticChecks(),
    root,
    baseline: realisticBaseline(root),
    history: realisticRuns(),
    title: 'support-desk agents',
    now: new Date(Date.UTC(2026, 10, 23, 12)),
  });
}
