import { describe, expect, it } from 'vitest';
import { trendsAnswer } from '../../src/ui/answers.js';
import { fittedAxis, runLabel, UNIT_AXIS } from '../../src/ui/axis.js';
import { overviewOf } from './report-page.js';
import { trendCheck, trendRun } from './trend-data.js';

describe('fittedAxis', () => {
  it('keeps a score with no unit on [0, 1], in quarters', () => {
    expect(fittedAxis([0.2, null, 0.9])).toEqual({ min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
    expect(fittedAxis([])).toEqual(UNIT_AXIS);
  });

  it('fits a unitless metric that is not a score (steps around 6) to its values', () => {
    expect(fittedAxis([6])).toEqual({ min: 5, max: 7, ticks: [5, 5.5, 6, 6.5, 7] });
    expect(fittedAxis([5, 6.5, 5.5])).toEqual({ min: 5, max: 6.5, ticks: [5, 5.5, 6, 6.5] });
  });

  it('fits a unit to its values on round steps', () => {
    expect(fittedAxis([1100, 1399], 'tokens')).toEqual({
      min: 1100,
      max: 1400,
      ticks: [1100, 1200, 1300, 1400],
    });
    expect(fittedAxis([0.004, 0.0075], 'usd')).toEqual({
      min: 0.004,
      max: 0.008,
      ticks: [0.004, 0.005, 0.006, 0.007, 0.008],
    });
    // A flat count is not drawn below zero.
    expect(fittedAxis([0], 'ms')).toEqual({ min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
    expect(fittedAxis([-3, 2], 'delta')).toEqual({ min: -4, max: 2, ticks: [-4, -2, 0, 2] });
  });

  it('keeps a score-1-5 on its own range while its values lie in it', () => {
    expect(fittedAxis([3, 4.5], 'score-1-5')).toEqual({ min: 1, max: 5, ticks: [1, 2, 3, 4, 5] });
    expect(fittedAxis([3, 7], 'score-1-5').max).toBeGreaterThanOrEqual(7);
  });

  it('holds every value, from its first tick to its last, in even steps', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let n = 0; n < 500; n++) {
      const scale = 10 ** Math.floor(random() * 10 - 4);
      const values = Array.from({ length: 1 + Math.floor(random() * 30) }, () => (random() - 0.3) * scale);
      const unit = random() < 0.5 ? 'ms' : undefined;
      const axis = fittedAxis(values, unit);
      const at = `${JSON.stringify(values)} ${unit}`;
      for (const v of values) {
        expect(v, at).toBeGreaterThanOrEqual(axis.min);
        expect(v, at).toBeLessThanOrEqual(axis.max);
      }
      expect(axis.max, at).toBeGreaterThan(axis.min);
      expect(axis.ticks[0], at).toBe(axis.min);
      expect(axis.ticks.at(-1), at).toBe(axis.max);
      expect(axis.ticks.length, at).toBeGreaterThanOrEqual(2);
      expect(axis.ticks.length, at).toBeLessThanOrEqual(9);
      const step = axis.ticks[1]! - axis.ticks[0]!;
      for (const [i, t] of axis.ticks.entries()) expect(t - axis.min, at).toBeCloseTo(i * step, 9);
      // A fitted axis is not mostly empty: the values use a fair part of it. (A unitless series inside [0, 1] is a score
      // and keeps the scale it is defined on.)
      const lo = Math.min(...values);
      const hi = Math.max(...values);
      const score = unit === undefined && lo >= 0 && hi <= 1;
      if (score) expect(axis, at).toEqual(UNIT_AXIS);
      else if (hi > lo) expect((hi - lo) / (axis.max - axis.min), at).toBeGreaterThan(0.3);
    }
  });
});

describe('the trend answer (the report and the UI chart from it)', () => {
  const runs = Array.from({ length: 34 }, (_, i) =>
    trendRun(i, [trendCheck({ criterion: 'steps', metric: 'steps', value: 5 + (i % 3) })], {
      ...(i >= 30 ? { commit: `c0ffee${i}0000000000` } : {}),
    }),
  );

  it('labels each run by commit or time, and fits each series its axis', () => {
    const trend = trendsAnswer(overviewOf(runs.slice(-30)));
    expect(trend.runs).toHaveLength(30);
    expect(trend.labels.slice(0, 2)).toEqual(['11-22 03:04', '11-22 03:05']);
    expect(trend.labels.at(-1)).toBe('c0ffee3');
    expect(trend.series).toEqual([
      expect.objectContaining({ criterion: 'steps', axis: { min: 5, max: 7, ticks: [5, 5.5, 6, 6.5, 7] } }),
    ]);
    expect(trend.passRateAxis).toEqual(UNIT_AXIS);
  });

  it('labels a run with neither a commit nor a parsable time by what it has', () => {
    expect(runLabel({ time: 'yesterday' })).toBe('yesterday');
    expect(runLabel({ time: '2026-11-23T20:16:47.000Z', commit: 'abcdef0123' })).toBe('abcdef0');
  });
});
