import { describe, expect, it } from 'vitest';
import { compare } from '../../src/history/compare.js';
import { type CriterionComparison, compareRuns } from '../../src/history/significance.js';
import type { TrendCheck } from '../../src/history/types.js';
import { fisherDrop } from '../../src/metrics/stats/tests.js';
import {
  casesToName,
  formatCaseChanges,
  formatCaseDrop,
  formatComparison,
} from '../../src/report/criterion-text.js';
import { gateStory, gateText } from '../../src/report/gate-text.js';
import { buildSummaryMarkdown } from '../../src/report/summary/markdown.js';
import { trendCheck, trendRun } from './trend-data.js';

/** `trials` trials of one case of a task-cases spec, the first `passes` of them passing. */
function caseTrials(name: string, trials: number, passes: number, criterion = 'tool-calls'): TrendCheck[] {
  return Array.from({ length: trials }, (_, i) =>
    trendCheck({
      spec: 'flights',
      case: name,
      workup: `${name}/${i + 1}`,
      task: name,
      trial: i + 1,
      criterion,
      metric: 'match',
      value: i < passes,
      verdict: i < passes ? 'pass' : 'fail',
      state: i < passes ? 'passed' : 'failed',
    }),
  );
}

/** A run of the cases, each `[name, trials, passes]`. */
const run = (minute: number, cases: Array<[string, number, number]>) =>
  trendRun(
    minute,
    cases.flatMap(([name, trials, passes]) => caseTrials(name, trials, passes)),
  );

/** What the pooled gate of before saw: Fisher's test on the counts summed over every case of each run. */
function pooledP(before: Array<[string, number, number]>, after: Array<[string, number, number]>): number {
  const sum = (cases: Array<[string, number, number]>) => ({
    trials: cases.reduce((s, c) => s + c[1], 0),
    passes: cases.reduce((s, c) => s + c[2], 0),
  });
  return fisherDrop(sum(before), sum(after));
}

describe('the gate on the held-out histories of issue 21', () => {
  it('an added case, however hard, is no regression: it is reported apart', () => {
    const before: Array<[string, number, number]> = [
      ['book', 10, 9],
      ['cancel', 10, 9],
      ['refund', 10, 9],
    ];
    const after: Array<[string, number, number]> = [...before, ['rebook-hard', 10, 0]];
    // Pooled, the new case alone made it look like a fall.
    expect(pooledP(before, after)).toBeLessThan(0.05);
    const [c] = compareRuns(run(1, before), run(2, after));
    expect(c?.status).not.toBe('regressed');
    expect(c?.cases).toBe(3);
    expect([c?.before.passes, c?.before.trials, c?.after.passes, c?.after.trials]).toEqual([27, 30, 27, 30]);
    expect(c?.added).toEqual([{ spec: 'flights', case: 'rebook-hard', task: 'rebook-hard' }]);
    expect(c?.removed).toEqual([]);
    expect(c?.droppedCases).toEqual([]);
    // The one comparison every output renders says the same, case by case.
    const added = compare(run(2, after), run(1, before)).changes.filter((x) => x.status === 'added');
    expect(added.map((x) => [x.case, x.task])).toEqual([['rebook-hard', 'rebook-hard']]);
    expect(formatComparison(c!)).toBe(
      'flights tool-calls: flaky (passes in some trials and fails in others on cases book, cancel, refund); no significant change: pass rate 27/30 (90%) -> 27/30 (90%) over 3 cases, p = 0.661 (exact conditional test, stratified by case); the smallest drop detectable is 26 points; 1 case added (not compared)',
    );
  });

  it('a changed trial count is no regression: 30/30 and 2/10 -> 10/10 and 6/30', () => {
    const before: Array<[string, number, number]> = [
      ['easy', 30, 30],
      ['hard', 10, 2],
    ];
    const after: Array<[string, number, number]> = [
      ['easy', 10, 10],
      ['hard', 30, 6],
    ];
    // Pooled: 32/40 (80%) -> 16/40 (40%), a "regression" of the mix alone.
    expect(pooledP(before, after)).toBeLessThan(0.001);
    const [c] = compareRuns(run(1, before), run(2, after));
    expect(c?.status).not.toBe('regressed');
    expect(c?.passRate?.pDrop).toBeGreaterThan(0.4);
    expect(c?.droppedCases).toEqual([]);
  });

  it('a real drop hidden by a removed case is a regression, naming the case that fell', () => {
    // common 20/20 -> 10/20 while a failing case (0/20) left: pooled 20/40 -> 10/20, the same 50%.
    const before: Array<[string, number, number]> = [
      ['common', 20, 20],
      ['failing', 20, 0],
    ];
    const after: Array<[string, number, number]> = [['common', 20, 10]];
    expect(pooledP(before, after)).toBeGreaterThan(0.5);
    const [c] = compareRuns(run(1, before), run(2, after));
    expect(c?.status).toBe('regressed');
    expect(c?.removed).toEqual([{ spec: 'flights', case: 'failing', task: 'failing' }]);
    // Mantel and Fleiss's margin is met (E - L = 15 - 10 = 5): the CMH z = 5 / sqrt(20*20*30*10 / (40^2 * 39)).
    expect(c?.passRate?.test).toBe('cmh');
    expect(c?.passRate?.pDrop).toBeCloseTo(1.557454883836919e-4, 15);
    expect(c?.droppedCases.map(formatCaseDrop)).toEqual([
      'common: 20/20 (100%) -> 10/20 (50%), p < 0.001 (Mantel-Haenszel z-test)',
    ]);
    expect(formatComparison(c!)).toBe(
      'flights tool-calls: regressed: pass rate 20/20 (100%) -> 10/20 (50%) over 1 case, p < 0.001 (Cochran-Mantel-Haenszel test, stratified by case); 1 case removed (not compared)',
    );
  });

  it('3/3 -> 0/3 is not significant at 0.05: its p-value is exactly 1/20', () => {
    const [c] = compareRuns(run(1, [['only', 3, 3]]), run(2, [['only', 3, 0]]));
    expect(c?.passRate).toEqual({ test: 'exact', pDrop: 0.05, pRise: 1, cases: 1 });
    expect(c?.status).toBe('no-change');
    expect(casesToName(c!)).toEqual([]);
    // At 0.06 it is.
    expect(compareRuns(run(1, [['only', 3, 3]]), run(2, [['only', 3, 0]]), { level: 0.06 })[0]?.status).toBe(
      'regressed',
    );
  });

  it('one case of ten going 10/10 -> 0/10 is flagged and named, most significant first', () => {
    const names = Array.from({ length: 10 }, (_, i) => `case-${i}`);
    const before = names.map((n): [string, number, number] => [n, 10, 10]);
    const after = names.map((n, i): [string, number, number] => [n, 10, i === 7 ? 0 : i === 2 ? 8 : 10]);
    const [c] = compareRuns(run(1, before), run(2, after));
    expect(c?.status).toBe('regressed');
    expect(c?.droppedCases.map((d) => [d.case, d.after.passes, d.test])).toEqual([
      ['case-7', 0, 'cmh'],
      ['case-2', 8, 'exact'],
    ]);
    // 10/10 -> 0/10 alone meets Mantel and Fleiss's margin (E - L = 5): z = 5 / sqrt(10^4 / (20^2 * 19)).
    expect(c?.droppedCases[0]?.pDrop).toBeCloseTo(6.5359226833815e-6, 15);
    expect(casesToName(c!).map(formatCaseDrop)).toEqual([
      'case-7: 10/10 (100%) -> 0/10 (0%), p < 0.001 (Mantel-Haenszel z-test)',
      "case-2: 10/10 (100%) -> 8/10 (80%), p = 0.237 (Fisher's exact test)",
    ]);
  });
});

describe('pairing runs case by case', () => {
  it('keys a case by spec x case x task x criterion, and tells added and removed cases apart in words', () => {
    const a = run(1, [
      ['x', 2, 2],
      ['y', 2, 2],
    ]);
    const b = run(2, [
      ['y', 2, 2],
      ['z', 2, 1],
      ['w', 2, 1],
    ]);
    const [{ added, removed }] = compareRuns(a, b) as [CriterionComparison];
    expect(formatCaseChanges(added, removed)).toBe(
      '2 cases added, 1 removed (not compared): added flights/w, flights/z; removed flights/x',
    );
    expect(formatCaseChanges(added, [], 1)).toBe('2 cases added (not compared): added flights/w and 1 more');
    expect(formatCaseChanges([], [])).toBeUndefined();
    // A case of another task is another case, named with its task.
    const other = trendRun(3, [
      ...caseTrials('y', 2, 2),
      ...caseTrials('y', 2, 2).map((c) => ({ ...c, task: 'y-retry', workup: `${c.workup}-r` })),
    ]);
    expect(formatCaseChanges((compareRuns(a, other)[0] as CriterionComparison).added, [])).toBe(
      '1 case added (not compared): added flights/y [task y-retry]',
    );
  });

  it('names a case that fell significantly even when its criterion as a whole did not regress', () => {
    // Nine cases rise from 5/10 to 10/10; one falls from 10/10 to 0/10.
    const names = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const before = names.map((n, i): [string, number, number] => [n, 10, i === 0 ? 10 : 5]);
    const after = names.map((n, i): [string, number, number] => [n, 10, i === 0 ? 0 : 10]);
    const [c] = compareRuns(run(1, before), run(2, after));
    expect(c?.status).toBe('improved');
    expect(casesToName(c!).map((d) => d.case)).toEqual(['c0']);
  });
});

describe('two runs with nothing in common', () => {
  it('says they look like two suites, and says nothing of it when one case is shared', () => {
    const needles = trendRun(1, [trendCheck({ spec: 'compound-alpha', workup: 'grounded' })]);
    const cases = trendRun(2, [
      trendCheck({ spec: 'airline-support', case: 'change-flight', workup: 'good' }),
    ]);
    const apart = gateText(compare(cases, needles));
    expect(apart.counts).toBe(
      '0 regressed, 0 fixed, 0 flaky, 0 moved, 0 still failing, 1 added, 1 removed, 0 unchanged',
    );
    expect(apart.notes).toContain(
      'this run and its baseline have no case x criterion in common: they look like two different suites, whose histories are kept apart with a results store each (--store, docs/store.md)',
    );
    const shared = trendRun(3, [...cases.checks, ...needles.checks]);
    expect(gateText(compare(shared, needles)).notes.join('\n')).not.toContain('in common');
  });
});

describe("the terminal's story of flaky cases", () => {
  /** A run of two trials of the task `refund`: the first passes, the second as given. */
  const twoTrials = (minute: number, second: 'pass' | 'fail') =>
    trendRun(minute, [
      trendCheck({ workup: 'refund-1', task: 'refund', trial: 1 }),
      trendCheck({
        workup: 'refund-2',
        task: 'refund',
        trial: 2,
        verdict: second,
        state: second === 'pass' ? 'passed' : 'failed',
        ...(second === 'fail' && { value: 0.5, reason: 'expected recall >= 0.8, got 0.5' }),
      }),
    ]);

  it('is the headline alone for a case as flaky as it was, and lists a case that became flaky', () => {
    const rerun = gateText(compare(twoTrials(2, 'fail'), twoTrials(1, 'fail')));
    expect(rerun.rows.map((r) => r.status)).toEqual(['flaky']);
    expect(gateStory(rerun)).toEqual([`vs ${twoTrials(1, 'fail').id}: nothing regressed, 1 flaky`]);

    const became = gateStory(gateText(compare(twoTrials(2, 'fail'), twoTrials(1, 'pass'))));
    expect(became[0]).toBe(`vs ${twoTrials(1, 'pass').id}: nothing regressed, 1 flaky`);
    expect(became).toContain(
      '  flaky: compound-alpha/refund surfaced: 2/2 passed (recall 0.9) -> 1/2 passed (recall 0.7): expected recall >= 0.8, got 0.5',
    );
  });
});

describe('a continuous metric, case by case', () => {
  /** `trials` trials of a case whose metric sits at `level` (a little spread), passing at 0.5. */
  const scored = (name: string, trials: number, level: number, shift = 0): TrendCheck[] =>
    Array.from({ length: trials }, (_, i) => {
      const value = level + ((i % 5) - 2) * 0.01 + shift;
      return trendCheck({
        spec: 'flights',
        case: name,
        task: name,
        workup: `${name}/${i + 1}`,
        criterion: 'answer-f1',
        metric: 'f1',
        value,
        verdict: value >= 0.5 ? 'pass' : 'fail',
        state: value >= 0.5 ? 'passed' : 'failed',
      });
    });

  it('is not moved by trials per case: the pooled mean falls 0.81 -> 0.39, no case changed', () => {
    const before = trendRun(1, [...scored('easy', 30, 0.9), ...scored('hard', 5, 0.3)]);
    const after = trendRun(2, [...scored('easy', 5, 0.9), ...scored('hard', 30, 0.3)]);
    const [c] = compareRuns(before, after);
    expect(c?.before.mean).toBeCloseTo(0.814, 3);
    expect(c?.after.mean).toBeCloseTo(0.386, 3);
    expect(c?.difference?.low).toBeLessThanOrEqual(0);
    expect(c?.difference?.high).toBeGreaterThanOrEqual(0);
    expect(c?.status).toBe('no-change');
  });

  it('still sees every case fall a little, which pass rates alone would miss', () => {
    const before = trendRun(1, [...scored('easy', 20, 0.9), ...scored('hard', 20, 0.7)]);
    const after = trendRun(2, [...scored('easy', 20, 0.9, -0.1), ...scored('hard', 20, 0.7, -0.1)]);
    const [c] = compareRuns(before, after);
    expect(c?.passRate?.pDrop).toBe(1);
    expect(c?.difference?.high).toBeLessThan(0);
    expect(c?.status).toBe('regressed');
    expect(formatComparison(c!)).toMatch(
      /; f1 mean 0\.8 -> 0\.7, mean change per case 95% interval \[-0\.1\d*, -0\.0\d*\]$/,
    );
  });
});

describe('the job summary renders the gate', () => {
  it('regressed cases first, in a table with both sides, then the exact test and the counts', () => {
    const before = run(1, [
      ['book', 10, 10],
      ['cancel', 10, 9],
      ['gone', 5, 5],
    ]);
    const after = run(2, [
      ['book', 10, 0],
      ['cancel', 10, 7],
      ['new|pipe', 4, 4],
    ]);
    const markdown = buildSummaryMarkdown({ checks: [], gate: gateText(compare(after, before)) });
    expect(markdown.split('\n').slice(6)).toEqual([
      `### ❌ vs ${before.id}: 2 regressed; 1 added, 1 removed`,
      '',
      `Compared with run ${before.id}.`,
      '',
      '| | case | criterion | before | after | why |',
      '| --- | --- | --- | --- | --- | --- |',
      '| regressed | flights/book | tool-calls | 10/10 passed | 0/10 passed | p &lt; 0.001, exact test |',
      '| regressed | flights/cancel | tool-calls | 9/10 passed | 7/10 passed | p = 0.291, exact test |',
      '| added | flights/new\\|pipe | tool-calls | - | 4/4 passed |  |',
      '| removed | flights/gone | tool-calls | 5/5 passed | - |  |',
      '',
      '2 regressed, 0 fixed, 0 flaky, 0 moved, 0 still failing, 1 added, 1 removed, 0 unchanged',
      '',
    ]);
  });
});
