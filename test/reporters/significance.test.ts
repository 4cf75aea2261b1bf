import { describe, expect, it } from 'vitest';
import { compareRuns, detectableDrop } from '../../src/history/significance.js';
import type { TrendCheck } from '../../src/history/types.js';
import { exactDropPower } from '../../src/metrics/stats/power.js';
import { seededRandom } from '../../src/metrics/stats/random.js';
import { significant, stratifiedDrop } from '../../src/metrics/stats/stratified.js';
import { trendCheck, trendRun } from './trend-data.js';

/** `trials` trials of one task, each passing with probability `rate`, as the checks of a run. */
function trialChecks(
  random: ReturnType<typeof seededRandom>,
  trials: number,
  rate: number,
  task = 't',
): TrendCheck[] {
  return Array.from({ length: trials }, (_, i) => {
    const pass = random.next() < rate;
    return trendCheck({
      workup: `${task}-${i + 1}`,
      task,
      trial: i + 1,
      criterion: 'grounded',
      metric: 'grounded',
      value: pass,
      verdict: pass ? 'pass' : 'fail',
      state: pass ? 'passed' : 'failed',
    });
  });
}

/** How often the gate calls a regression over `count` simulated comparisons. */
function regressionRate(count: number, trials: number, before: number, after: number, seed: number): number {
  const random = seededRandom(seed);
  let flagged = 0;
  for (let i = 0; i < count; i++) {
    const [result] = compareRuns(
      trendRun(1, trialChecks(random, trials, before)),
      trendRun(2, trialChecks(random, trials, after)),
    );
    if (result?.status === 'regressed') flagged++;
  }
  return flagged / count;
}

describe('the statistical regression gate, simulated', () => {
  it('calls a regression in at most level + 1 point of 1,000 A/A comparisons (30 trials a side)', () => {
    for (const [rate, seed] of [
      [0.5, 1],
      [0.8, 2],
      [0.95, 3],
    ] as const) {
      const falseRate = regressionRate(1000, 30, rate, rate, seed);
      console.log(
        `A/A, true pass rate ${rate}, 30 trials a side: false regressions ${(falseRate * 100).toFixed(1)}% (level 5%)`,
      );
      expect(falseRate).toBeLessThanOrEqual(0.06);
    }
  });

  it('detects a true drop from 0.8 to 0.6 at 100 trials a side at least 80% of the time', () => {
    const power = regressionRate(1000, 100, 0.8, 0.6, 4);
    console.log(`A/B, 0.8 -> 0.6, 100 trials a side: detected ${(power * 100).toFixed(1)}%`);
    expect(power).toBeGreaterThanOrEqual(0.8);
  });
});

describe('the statistical regression gate, exactly', () => {
  it('keeps the exact chance of a false regression within the level at 30 trials a side, whatever the pass rate', () => {
    // Enumerates every pair of outcomes with its binomial probability: no sampling noise.
    const n = 30;
    const sizes: string[] = [];
    for (const rate of [0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95]) {
      const pmf = Array.from({ length: n + 1 }, (_, x) => binomial(n, x) * rate ** x * (1 - rate) ** (n - x));
      let size = 0;
      for (let x1 = 0; x1 <= n; x1++)
        for (let x2 = 0; x2 <= n; x2++)
          if (
            significant(
              stratifiedDrop([{ before: { trials: n, passes: x1 }, after: { trials: n, passes: x2 } }]).pDrop,
              0.05,
            )
          )
            size += (pmf[x1] as number) * (pmf[x2] as number);
      sizes.push(`${rate}: ${(size * 100).toFixed(2)}%`);
      expect(size).toBeLessThanOrEqual(0.05 + 0.01);
    }
    console.log(
      `exact false-regression rate at level 5%, 30 trials a side, by true pass rate: ${sizes.join(', ')}`,
    );
  });
});

describe('compareRuns', () => {
  it('gates a continuous metric on the bootstrap interval of the difference, halving the level for each test', () => {
    const run = (minute: number, values: number[]) =>
      trendRun(
        minute,
        values.map((value, i) =>
          trendCheck({ workup: `w${i}`, value, verdict: value >= 0.5 ? 'pass' : 'fail', state: 'passed' }),
        ),
      );
    const before = Array.from({ length: 40 }, (_, i) => 0.9 - (i % 5) * 0.02);
    const after = before.map((v) => v - 0.1);
    const [fell] = compareRuns(run(1, before), run(2, after), { seed: 5 });
    // Every trial still passes: only the metric's interval shows the fall.
    expect(fell?.passRate?.pDrop).toBe(1);
    expect(fell?.status).toBe('regressed');
    expect(fell?.level).toBe(0.025);
    expect(fell?.difference?.confidence).toBe(0.95);
    expect(fell?.difference?.high).toBeLessThan(0);
    expect(fell?.after.mean).toBeCloseTo(0.76, 12);
    const [same] = compareRuns(run(1, before), run(2, before), { seed: 5 });
    expect(same?.status).toBe('no-change');
    // Lower is better: a rise in pivot burden is the regression.
    const burden = (minute: number, values: number[]) =>
      trendRun(
        minute,
        values.map((value, i) =>
          trendCheck({
            workup: `w${i}`,
            metric: 'pivot_burden',
            unit: 'queries',
            comparator: '<=',
            value,
            threshold: 10,
          }),
        ),
      );
    const alternate = (a: number, b: number) => Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b));
    const [rose] = compareRuns(burden(1, alternate(3, 4)), burden(2, alternate(6, 7)));
    expect([rose?.status, rose?.lowerIsBetter, rose?.unit]).toEqual(['regressed', true, 'queries']);
  });

  it('leaves a metric with fewer than 30 values a side, or only 0 and 1, to the pass-rate test', () => {
    // 10 trials: a constant baseline against 3 lower values would look certain to a bootstrap; Fisher says p = 0.105.
    const run = (minute: number, values: number[]) =>
      trendRun(
        minute,
        values.map((value, i) =>
          trendCheck({ workup: `w${i}`, task: 't', value, verdict: value >= 0.9 ? 'pass' : 'fail' }),
        ),
      );
    const [small] = compareRuns(run(1, Array(10).fill(1)), run(2, [...Array(7).fill(1), 0.8, 0.8, 0.8]));
    expect([small?.status, small?.difference, small?.passRate?.pDrop.toFixed(3)]).toEqual([
      'flaky',
      undefined,
      '0.105',
    ]);
    const binary = (minute: number, passes: number) =>
      run(
        minute,
        Array.from({ length: 40 }, (_, i) => (i < passes ? 1 : 0)),
      );
    expect(compareRuns(binary(1, 40), binary(2, 38))[0]?.difference).toBeUndefined();
  });

  it('compares only criteria present in both runs, and rejects a level outside (0, 0.5)', () => {
    const a = trendRun(1, [trendCheck({ criterion: 'surfaced' })]);
    const b = trendRun(2, [trendCheck({ criterion: 'traversed' })]);
    expect(compareRuns(a, b)).toEqual([]);
    expect(() => compareRuns(a, a, { level: 0.5 })).toThrow(
      'the significance level must be in (0, 0.5), got 0.5',
    );
  });
});

describe('detectableDrop', () => {
  it('is the drop the exact power of the test reaches 80% at, not the normal approximation', () => {
    // 10/10 at 10 trials a side: the normal approximation said 44 points, where the exact power is 70%.
    expect(exactDropPower(10, 10, 1, 1 - 0.4356, 0.05)).toBeCloseTo(0.7025, 3);
    const d = detectableDrop({ trials: 10, passes: 10 }, { trials: 10, passes: 0 })!;
    expect(d).toBeCloseTo(0.484, 2);
    expect(exactDropPower(10, 10, 1, 1 - d, 0.05)).toBeGreaterThanOrEqual(0.8);
    expect(exactDropPower(10, 10, 1, 1 - d + 0.002, 0.05)).toBeLessThan(0.8);
  });

  it('shrinks with more trials, and is absent when no drop can be seen', () => {
    const at = (n: number) =>
      detectableDrop({ trials: n, passes: Math.round(0.8 * n) }, { trials: n, passes: 0 });
    expect(at(30)!).toBeGreaterThan(at(100)!);
    expect(at(100)).toBeCloseTo(0.156, 2);
    expect(exactDropPower(100, 100, 0.8, 0.8 - at(100)!, 0.05)).toBeGreaterThanOrEqual(0.8);
    expect(detectableDrop({ trials: 10, passes: 0 }, { trials: 10, passes: 0 })).toBeNull();
    expect(detectableDrop({ trials: 1, passes: 1 }, { trials: 1, passes: 0 })).toBeNull();
    expect(detectableDrop({ trials: 0, passes: 0 }, { trials: 3, passes: 0 })).toBeNull();
  });
});

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}
