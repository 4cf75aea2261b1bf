import { describe, expect, it } from 'vitest';
import {
  BootstrapDraws,
  bootstrapDifferenceInterval,
  bootstrapInterval,
  caseDifferenceInterval,
  clusteredMean,
  clusteredRateInterval,
  fisherDrop,
  nearestRank,
  normalCdf,
  normalQuantile,
  passAtK,
  passHatK,
  resampleMeans,
  seededRandom,
  wilsonInterval,
  zDrop,
} from '../../src/metrics/stats/index.js';

describe('passAtK and passHatK edge cases', () => {
  it('are not applicable (null, never NaN) with no trials or k outside 1..n', () => {
    for (const f of [passAtK, passHatK]) {
      expect(f(0, 0, 1)).toBeNull();
      expect(f(0, 0, 0)).toBeNull();
      expect(f(3, 2, 4)).toBeNull();
      expect(f(3, 3, 4)).toBeNull();
      expect(f(3, 1, 0)).toBeNull();
    }
  });

  it('give 0 when nothing passed and 1 when everything passed', () => {
    for (const k of [1, 2, 5]) {
      expect(passAtK(5, 0, k)).toBe(0);
      expect(passHatK(5, 0, k)).toBe(0);
      expect(passAtK(5, 5, k)).toBe(1);
      expect(passHatK(5, 5, k)).toBe(1);
    }
  });

  it('give the pass rate at k = 1, and the binomial ratios otherwise', () => {
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 15);
    expect(passHatK(10, 3, 1)).toBeCloseTo(0.3, 15);
    // 1 - C(7,2)/C(10,2) = 1 - 21/45; C(3,2)/C(10,2) = 3/45.
    expect(passAtK(10, 3, 2)).toBeCloseTo(1 - 21 / 45, 15);
    expect(passHatK(10, 3, 2)).toBeCloseTo(3 / 45, 15);
    // Fewer passes than k: no draw of k is all passes; more failures than... none: every draw of k has a pass.
    expect(passHatK(10, 3, 4)).toBe(0);
    expect(passAtK(10, 8, 3)).toBe(1);
  });

  it('reject counts that are not counts', () => {
    expect(() => passAtK(3, 4, 1)).toThrow('passAtK expects c <= n, got c = 4, n = 3');
    expect(() => passHatK(3, -1, 1)).toThrow('passHatK expects c to be a non-negative integer, got -1');
    expect(() => passAtK(2.5, 1, 1)).toThrow('passAtK expects n to be a non-negative integer, got 2.5');
  });
});

describe('the normal distribution', () => {
  it('has the quantiles and tail probabilities of Python statistics.NormalDist', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.9599639845400536, 14);
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232306167813, 12);
    expect(normalQuantile(0.025)).toBeCloseTo(-1.9599639845400536, 14);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalCdf(-3.5) / 0.0002326290790355401).toBeCloseTo(1, 12);
    expect(normalCdf(1.2)).toBeCloseTo(0.8849303297782917, 15);
  });
});

describe('wilsonInterval', () => {
  /** The closed form, written out once more in the most literal way. */
  function closedForm(x: number, n: number, z: number): [number, number] {
    const p = x / n;
    const a = p + (z * z) / (2 * n);
    const b = z * Math.sqrt((p * (1 - p) + (z * z) / (4 * n)) / n);
    return [(a - b) / (1 + (z * z) / n), (a + b) / (1 + (z * z) / n)];
  }

  it('equals the closed form for every count up to 60 trials at 90%, 95% and 99%', () => {
    for (const [confidence, z] of [
      [0.9, 1.6448536269514722],
      [0.95, 1.9599639845400536],
      [0.99, 2.5758293035489004],
    ] as const) {
      for (let n = 1; n <= 60; n++)
        for (let x = 0; x <= n; x++) {
          const got = wilsonInterval(x, n, confidence);
          const [low, high] = closedForm(x, n, z);
          expect(got?.low).toBeCloseTo(Math.max(0, low), 12);
          expect(got?.high).toBeCloseTo(Math.min(1, high), 12);
        }
    }
  });

  it('pins a textbook case, stays in [0, 1] at the edges, and is not applicable with no trials', () => {
    // 8 of 10 at 95%: (0.4902, 0.9433).
    const i = wilsonInterval(8, 10);
    expect([i?.low.toFixed(4), i?.high.toFixed(4), i?.confidence]).toEqual(['0.4902', '0.9433', 0.95]);
    expect(wilsonInterval(0, 5)?.low).toBe(0);
    expect(wilsonInterval(5, 5)?.high).toBe(1);
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(3, 2)).toThrow(
      'wilsonInterval expects integers 0 <= successes <= n, got 3 of 2',
    );
    expect(() => wilsonInterval(1, 2, 1)).toThrow('wilsonInterval expects a confidence in (0, 1), got 1');
  });
});

describe('bootstrapInterval', () => {
  const values = Array.from({ length: 50 }, (_, i) => (i * 37) % 11);

  it('is reproducible from its seed, and moves with it', () => {
    const a = bootstrapInterval(values, { seed: 7, resamples: 500 });
    expect(bootstrapInterval(values, { seed: 7, resamples: 500 })).toEqual(a);
    expect(bootstrapInterval(values, { seed: 8, resamples: 500 })).not.toEqual(a);
  });

  it('brackets the mean with about the normal-theory width', () => {
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
    const i = bootstrapInterval(values, { resamples: 4000 });
    expect(i!.low).toBeLessThan(mean);
    expect(i!.high).toBeGreaterThan(mean);
    const normalWidth = 2 * 1.96 * (sd / Math.sqrt(values.length));
    expect((i!.high - i!.low) / normalWidth).toBeGreaterThan(0.9);
    expect((i!.high - i!.low) / normalWidth).toBeLessThan(1.1);
  });

  it('takes the order statistics of the nearest-rank definition: the 25th and 975th of 1,000 at 95%', () => {
    // (1 - 0.95) / 2 * 1000 is 25.000000000000025 in floating point; its ceiling would pick the 26th.
    expect(((1 - 0.95) / 2) * 1000).toBeGreaterThan(25);
    expect([nearestRank((1 - 0.95) / 2, 1000), nearestRank((1 + 0.95) / 2, 1000)]).toEqual([25, 975]);
    expect([nearestRank(0.05, 1000), nearestRank(0.95, 1000), nearestRank(0.025, 1001)]).toEqual([
      50, 950, 26,
    ]);
    expect([nearestRank(0, 10), nearestRank(1, 10)]).toEqual([1, 10]);
    const spread = Array.from({ length: 50 }, (_, i) => Math.sin(i) * 10);
    const means = resampleMeans(Float64Array.from(spread), undefined, 1000, seededRandom(5)).sort();
    expect(means[24]).not.toBe(means[25]);
    expect(bootstrapInterval(spread, { seed: 5 })).toEqual({
      low: means[24],
      high: means[974],
      confidence: 0.95,
    });
  });

  it('is a point for constant values and not applicable for none', () => {
    expect(bootstrapInterval([0.5, 0.5, 0.5])).toEqual({ low: 0.5, high: 0.5, confidence: 0.95 });
    expect(bootstrapInterval([])).toBeNull();
    expect(bootstrapDifferenceInterval([], [1])).toBeNull();
    expect(() => bootstrapInterval([1], { resamples: 0 })).toThrow(
      'bootstrapInterval expects resamples to be a positive integer, got 0',
    );
  });

  it('gives an interval of the difference that excludes 0 for a clear fall and includes it for none', () => {
    const before = Array.from({ length: 40 }, (_, i) => 0.8 + ((i % 5) - 2) * 0.05);
    const after = before.map((v) => v - 0.2);
    const fall = bootstrapDifferenceInterval(before, after, { seed: 3 });
    expect(fall!.high).toBeLessThan(0);
    const same = bootstrapDifferenceInterval(before, before, { seed: 3 });
    expect(same!.low).toBeLessThan(0);
    expect(same!.high).toBeGreaterThan(0);
  });
});

describe('caseDifferenceInterval', () => {
  it('gives the same interval, to the bit, from draws shared with other intervals of as many cases', () => {
    const draws = new BootstrapDraws();
    const random = seededRandom(11);
    for (const n of [10, 37, 37, 400, 10]) {
      const cases = Array.from({ length: n }, () => ({
        before: [random.next(), random.next()],
        after: [random.next() * 2],
      }));
      for (const seed of [1, 5])
        expect(caseDifferenceInterval(cases, { byCase: true, seed, draws })).toEqual(
          caseDifferenceInterval(cases, { byCase: true, seed }),
        );
    }
    // Past the indices it keeps, it draws them each time.
    expect(draws.indices(5000, 1000, 1)).toBeUndefined();
    expect(draws.indices(37, 1000, 1)).toBe(draws.indices(37, 1000, 1));
  });

  it('weighs every case the same, so changing trials per case moves nothing', () => {
    // Case a is always 0.9, case b always 0.3; the baseline runs a once and b nine times, the current run the reverse.
    // Pooled means go 0.36 -> 0.84, yet no case changed.
    const cases = [
      { before: [0.9], after: Array(9).fill(0.9) },
      { before: Array(9).fill(0.3), after: [0.3] },
    ];
    for (const byCase of [false, true]) {
      const i = caseDifferenceInterval(cases, { byCase })!;
      expect(i.low).toBeCloseTo(0, 12);
      expect(i.high).toBeCloseTo(0, 12);
    }
  });

  it("resamples whole cases with their change when asked, each case's trials otherwise", () => {
    const changes = Array.from({ length: 20 }, (_, i) => (i % 4) * 0.1 - 0.3);
    const cases = changes.map((d) => ({ before: [0.5, 0.5], after: [0.5 + d, 0.5 + d] }));
    // By case: the resampled means of the 20 changes, as resampleMeans draws them from the same seed.
    const exact = cases.map((c) => (c.after[0]! + c.after[1]!) / 2 - (c.before[0]! + c.before[1]!) / 2);
    const means = resampleMeans(Float64Array.from(exact), undefined, 1000, seededRandom(3)).sort();
    expect(caseDifferenceInterval(cases, { byCase: true, seed: 3 })).toEqual({
      low: means[24],
      high: means[974],
      confidence: 0.95,
    });
    // Within cases: each side of each case is constant, so every resample gives the mean change, -0.15.
    const point = caseDifferenceInterval(cases, { seed: 3 })!;
    expect(point.low).toBeCloseTo(-0.15, 12);
    expect(point.high).toBeCloseTo(-0.15, 12);
    // With spread inside the cases, the stratified bootstrap has width.
    const noisy = caseDifferenceInterval([{ before: [0.2, 0.8, 0.5], after: [0.1, 0.9, 0.4] }], { seed: 3 })!;
    expect(noisy.high - noisy.low).toBeGreaterThan(0.3);
    expect(caseDifferenceInterval([{ before: [], after: [1] }])).toBeNull();
  });
});

describe('clusteredMean', () => {
  it('is the ordinary standard error with one trial per task', () => {
    const values = [1, 0, 1, 1, 0, 1];
    const m = clusteredMean(values, ['a', 'b', 'c', 'd', 'e', 'f'])!;
    const mean = 4 / 6;
    const s2 = values.reduce((s, v) => s + (v - mean) ** 2, 0) / 5;
    expect(m.mean).toBeCloseTo(mean, 15);
    expect(m.standardError).toBeCloseTo(Math.sqrt(s2 / 6), 15);
    expect([m.n, m.clusters]).toEqual([6, 6]);
  });

  it('widens when trials of a task agree with each other (Miller 2024, eq. 4)', () => {
    // Three tasks, four trials each, every task all-pass or all-fail: the 12 trials carry about 3 tasks' information.
    const values = [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1];
    const tasks = values.map((_, i) => `t${Math.floor(i / 4)}`);
    const clustered = clusteredMean(values, tasks)!;
    const naive = clusteredMean(
      values,
      values.map((_, i) => i),
    )!;
    // By hand: residuals +1/3 and -2/3; cross terms per task 16 r^2 - 4 r^2 = 12 r^2.
    const r1 = 1 / 3;
    const r0 = -2 / 3;
    const clt = (8 * r1 * r1 + 4 * r0 * r0) / 11 / 12;
    const cross = (2 * 12 * r1 * r1 + 12 * r0 * r0) / 144;
    expect(clustered.standardError).toBeCloseTo(Math.sqrt(clt + cross), 15);
    expect(clustered.standardError! / naive.standardError!).toBeGreaterThan(1.5);
    expect(clustered.interval!.high - clustered.mean).toBeCloseTo(
      1.959963984540054 * clustered.standardError!,
      12,
    );
  });

  it('gives one task of repeated trials the plain error of its mean, not the plain error over sqrt(n)', () => {
    // 8 of 10 trials of one task: s = 0.4216, plain SE = s / sqrt(10) = 0.1333. Eq. 4 alone would give s / 10 = 0.042.
    const values = [1, 1, 1, 0, 1, 1, 0, 1, 1, 1];
    const one = clusteredMean(values, Array(10).fill('task'))!;
    const s = Math.sqrt((8 * 0.2 ** 2 + 2 * 0.8 ** 2) / 9);
    expect(one.clusters).toBe(1);
    expect(one.standardError).toBeCloseTo(s / Math.sqrt(10), 15);
    expect(one.standardError).toBeCloseTo(0.1333, 4);
  });

  it('has no error bar for one value and is not applicable for none', () => {
    expect(clusteredMean([0.7], ['a'])).toEqual({
      mean: 0.7,
      n: 1,
      clusters: 1,
      standardError: null,
      interval: null,
    });
    expect(clusteredMean([], [])).toBeNull();
    expect(() => clusteredMean([1, 2], ['a'])).toThrow(
      'clusteredMean expects one cluster per value, got 1 for 2',
    );
  });
});

describe('clusteredRateInterval', () => {
  it('is the pooled Wilson interval with one trial per task, or one task', () => {
    const solo = Array.from({ length: 20 }, (_, i) => ({ trials: 1, passes: i < 14 ? 1 : 0 }));
    expect(clusteredRateInterval(solo)).toEqual(wilsonInterval(14, 20));
    expect(clusteredRateInterval([{ trials: 10, passes: 8 }])).toEqual(wilsonInterval(8, 10));
    expect(
      clusteredRateInterval([
        { trials: 10, passes: 10 },
        { trials: 10, passes: 10 },
      ]),
    ).toEqual(wilsonInterval(20, 20));
    expect(clusteredRateInterval([])).toBeNull();
    expect(clusteredRateInterval([{ trials: 0, passes: 0 }])).toBeNull();
  });

  it('widens to about the tasks as observations when every task is all-pass or all-fail', () => {
    // 30 trials, 20 passes, in 3 tasks of 10 that agree within: the Wilson interval at n / deff, deff by eq. 4.
    const tasks = [
      { trials: 10, passes: 10 },
      { trials: 10, passes: 0 },
      { trials: 10, passes: 10 },
    ];
    const p = 2 / 3;
    const squares = 20 * (1 / 3) ** 2 + 10 * (2 / 3) ** 2;
    const cross = 2 * ((10 / 3) ** 2 - 10 * (1 / 3) ** 2) + ((20 / 3) ** 2 - 10 * (2 / 3) ** 2);
    const clustered = squares / 29 / 30 + cross / 900;
    const plain = (p * (1 - p)) / 29;
    const interval = clusteredRateInterval(tasks)!;
    const z = 1.959963984540054;
    const n = 30 / (clustered / plain);
    const centre = p + (z * z) / (2 * n);
    const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
    expect(interval.low).toBeCloseTo((centre - spread) / (1 + (z * z) / n), 12);
    expect(interval.high).toBeCloseTo((centre + spread) / (1 + (z * z) / n), 12);
    // Pooled, the 30 trials would claim [0.49, 0.81]; clustered it is about that of 3 observations.
    expect(interval.high - interval.low).toBeGreaterThan(0.6);
  });
});

describe('tests for a drop in pass rate', () => {
  it("Fisher's exact test equals the hypergeometric tail computed with Python fractions", () => {
    expect(fisherDrop({ trials: 10, passes: 8 }, { trials: 10, passes: 3 })).toBeCloseTo(
      0.03488925934746368,
      14,
    );
    expect(fisherDrop({ trials: 30, passes: 24 }, { trials: 30, passes: 18 })).toBeCloseTo(
      0.07903102588059881,
      14,
    );
    expect(fisherDrop({ trials: 5, passes: 5 }, { trials: 5, passes: 0 })).toBeCloseTo(
      0.003968253968253968,
      14,
    );
    expect(fisherDrop({ trials: 4, passes: 2 }, { trials: 4, passes: 2 })).toBeCloseTo(
      0.7571428571428571,
      13,
    );
    expect(fisherDrop({ trials: 0, passes: 0 }, { trials: 4, passes: 2 })).toBe(1);
  });

  it('the z-test equals the pooled two-proportion test, and sees no drop when nothing varies', () => {
    expect(zDrop({ trials: 100, passes: 80 }, { trials: 100, passes: 60 })).toBeCloseTo(
      0.0010141155742260377,
      13,
    );
    expect(zDrop({ trials: 50, passes: 50 }, { trials: 50, passes: 50 })).toBe(1);
  });
});

describe('seededRandom', () => {
  it('repeats its sequence for a seed and stays in range', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.03);
    expect(seededRandom(1).below(1)).toBe(0);
  });
});
