import { describe, expect, it } from 'vitest';
import { clusteredRateInterval, passAtK, passHatK, wilsonInterval } from '../../src/metrics/stats/index.js';
import { trialStatistics } from '../../src/trials/summary.js';
import type { TrialCheck } from '../../src/trials/tally.js';

/** A check of criterion `criterion` on trial `trial` of `task`. */
function check(
  task: string | undefined,
  trial: number,
  pass: boolean,
  value: number | boolean = pass,
): TrialCheck {
  return {
    spec: 'needle',
    criterion: 'grounded',
    workup: `${task ?? 'solo'}-${trial}`,
    ...(task !== undefined && { task }),
    metric: 'supporting_fact_f1',
    value,
    verdict: pass ? 'pass' : 'fail',
  };
}

describe('trialStatistics', () => {
  const checks = [
    // Task a: 3 of 4 pass (flaky). Task b: 4 of 4 pass. Task c: 0 of 4.
    ...[true, true, false, true].map((p, i) => check('a', i + 1, p, p ? 0.9 : 0.4)),
    ...[true, true, true, true].map((p, i) => check('b', i + 1, p, 1)),
    ...[false, false, false, false].map((p, i) => check('c', i + 1, p, 0.2)),
  ];
  const [stats] = trialStatistics(checks);

  it('counts trials and passes per task and overall, with Wilson intervals (overall clustered by task)', () => {
    expect(stats?.tasks.map((t) => [t.task, t.trials, t.passes, t.flaky])).toEqual([
      ['a', 4, 3, true],
      ['b', 4, 4, false],
      ['c', 4, 0, false],
    ]);
    expect(stats?.overall).toMatchObject({ trials: 12, passes: 7, tasks: 3, flakyTasks: ['a'] });
    expect(stats?.overall.passRate).toBeCloseTo(7 / 12, 15);
    // Tasks b (all pass) and c (all fail) make trials of one task agree: wider than the pooled [0.32, 0.81].
    expect(stats?.overall.interval).toEqual(
      clusteredRateInterval([
        { trials: 4, passes: 3 },
        { trials: 4, passes: 4 },
        { trials: 4, passes: 0 },
      ]),
    );
    expect(stats!.overall.interval!.low).toBeLessThan(wilsonInterval(7, 12)!.low - 0.1);
    expect(stats?.tasks[0]?.interval).toEqual(wilsonInterval(3, 4));
  });

  it('gives pass@k and pass^k for k = 1 and the number of trials, overall as the mean over tasks', () => {
    expect(Object.keys(stats!.overall.passAtK)).toEqual(['1', '4']);
    expect(stats?.tasks[0]?.passAtK).toEqual({ '1': passAtK(4, 3, 1), '4': passAtK(4, 3, 4) });
    expect(stats?.tasks[0]?.passHatK).toEqual({ '1': passHatK(4, 3, 1), '4': 0 });
    // pass@4: a and b always have a pass among 4, c never: 2 of 3 tasks. pass^4: only b.
    expect(stats?.overall.passAtK['4']).toBeCloseTo(2 / 3, 15);
    expect(stats?.overall.passHatK['4']).toBeCloseTo(1 / 3, 15);
    expect(stats?.overall.passAtK['1']).toBeCloseTo((0.75 + 1 + 0) / 3, 15);
  });

  it('gives the mean of a numeric metric with clustered and bootstrap intervals, reproducibly', () => {
    const mean = stats!.overall.mean!;
    expect(mean.mean).toBeCloseTo((0.9 * 3 + 0.4 + 4 + 0.2 * 4) / 12, 15);
    expect([mean.n, mean.clusters]).toEqual([12, 3]);
    expect(mean.interval!.low).toBeLessThan(mean.mean);
    expect(mean.bootstrap!.high).toBeGreaterThan(mean.mean);
    expect(trialStatistics(checks)[0]?.overall.mean?.bootstrap).toEqual(mean.bootstrap);
    expect(stats?.tasks[0]?.mean).toBeCloseTo((0.9 * 3 + 0.4) / 4, 15);
  });

  it('takes the k values asked for, and is not applicable (null) where a task has fewer trials than k', () => {
    const [s] = trialStatistics([check('a', 1, true), check('a', 2, false), check('b', 1, true)], {
      ks: [2, 5],
    });
    expect(s?.tasks.map((t) => t.passAtK)).toEqual([
      { '2': 1, '5': null },
      { '2': null, '5': null },
    ]);
    expect(s?.overall.passAtK).toEqual({ '2': 1, '5': null });
  });

  it('makes a workup without a task its own task of one trial, and has no mean for boolean values', () => {
    const [s] = trialStatistics([check(undefined, 1, true), check(undefined, 2, false)]);
    expect(s?.tasks.map((t) => [t.task, t.trials])).toEqual([
      ['solo-1', 1],
      ['solo-2', 1],
    ]);
    expect(s?.overall.flakyTasks).toEqual([]);
    expect(s?.overall.mean).toBeUndefined();
    expect(Object.keys(s!.overall.passAtK)).toEqual(['1']);
  });

  it('counts not-applicable trials apart and skipped tests not at all', () => {
    const [s] = trialStatistics([
      check('a', 1, true),
      { ...check('a', 2, false), verdict: 'not-applicable', value: null },
      { ...check('a', 3, false), state: 'skipped' },
    ]);
    expect([s?.overall.trials, s?.overall.passes, s?.overall.notApplicable]).toEqual([1, 1, 1]);
  });
});
