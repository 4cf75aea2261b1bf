import { describe, expect, it } from 'vitest';
import {
  binomialPmf,
  dropRegion,
  exactDropPower,
  fisherDrop,
  ratioToNumber,
  type Stratum,
  seededRandom,
  significant,
  stratifiedDrop,
} from '../../src/metrics/stats/index.js';

// The reference: exact rationals from factorials (not the Pascal rows the implementation uses).
const factorials: bigint[] = [1n];
function factorial(n: number): bigint {
  for (let i = factorials.length; i <= n; i++) factorials.push((factorials[i - 1] as bigint) * BigInt(i));
  return factorials[n] as bigint;
}
const choose = (n: number, k: number): bigint =>
  k < 0 || k > n ? 0n : factorial(n) / (factorial(k) * factorial(n - k));

/** P(S <= s) and P(S >= s) under no change as exact fractions, by brute force over every table of the strata. */
function referenceTails(strata: readonly Stratum[]): { lower: [bigint, bigint]; upper: [bigint, bigint] } {
  const observed = strata.reduce((sum, s) => sum + s.after.passes, 0);
  let lower = 0n;
  let upper = 0n;
  let total = 0n;
  const walk = (i: number, sum: number, weight: bigint) => {
    if (i === strata.length) {
      total += weight;
      if (sum <= observed) lower += weight;
      if (sum >= observed) upper += weight;
      return;
    }
    const s = strata[i] as Stratum;
    const m = s.before.passes + s.after.passes;
    for (let x = 0; x <= Math.min(m, s.after.trials); x++) {
      const w = choose(s.after.trials, x) * choose(s.before.trials, m - x);
      if (w > 0n) walk(i + 1, sum + x, weight * w);
    }
  };
  walk(0, 0, 1n);
  return { lower: [lower, total], upper: [upper, total] };
}

/** Whether the double x is the nearest double to num / den (within half a unit in its last place). */
function nearest(x: number, num: bigint, den: bigint): boolean {
  if (x === 0) return num === 0n;
  // x = mantissa / 2^k exactly, with a 53-bit mantissa: then one unit in the last place is 1 / 2^k.
  let k = 0;
  let scaled = x;
  while (scaled < 2 ** 52) {
    scaled *= 2;
    k++;
  }
  const mantissa = BigInt(scaled);
  const error = mantissa * den - num * 2n ** BigInt(k);
  return 2n * (error < 0n ? -error : error) <= den;
}

const stratum = (n1: number, x1: number, n2: number, x2: number): Stratum => ({
  before: { trials: n1, passes: x1 },
  after: { trials: n2, passes: x2 },
});

describe("Fisher's exact test and the exact conditional test, against exact rationals", () => {
  it('give 3/3 -> 0/3 exactly 1/20, which is not significant at 0.05', () => {
    expect(fisherDrop({ trials: 3, passes: 3 }, { trials: 3, passes: 0 })).toBe(0.05);
    const test = stratifiedDrop([stratum(3, 3, 3, 0)]);
    expect(test).toEqual({ test: 'exact', pDrop: 0.05, pRise: 1, informative: 1 });
    expect(significant(test.pDrop, 0.05)).toBe(false);
    // 4/4 -> 0/4 is 1/70.
    expect(fisherDrop({ trials: 4, passes: 4 }, { trials: 4, passes: 0 })).toBe(1 / 70);
    expect(significant(1 / 70, 0.05)).toBe(true);
  });

  it('round the exact tail once, for every outcome pair with up to 30 trials a side', () => {
    // Every (n1, x1, n2, x2) with 1 <= n1, n2 <= 30: 245,025 tables. The reference tails come from factorials.
    let checked = 0;
    let exactPath = 0;
    for (let n1 = 1; n1 <= 30; n1++)
      for (let n2 = 1; n2 <= 30; n2++) {
        const n = n1 + n2;
        for (let m = 0; m <= n; m++) {
          const low = Math.max(0, m - n1);
          const high = Math.min(n2, m);
          const weights: bigint[] = [];
          for (let x = low; x <= high; x++) weights.push(choose(n2, x) * choose(n1, m - x));
          const total = choose(n, m);
          let lower = 0n;
          for (let x = low; x <= high; x++) {
            lower += weights[x - low] as bigint;
            const upper = total - lower + (weights[x - low] as bigint);
            const before = { trials: n1, passes: m - x };
            const after = { trials: n2, passes: x };
            const p = fisherDrop(before, after);
            if (!nearest(p, lower, total)) throw new Error(`fisherDrop ${m - x}/${n1} -> ${x}/${n2}: ${p}`);
            // At 0.05 the decision is the exact one: lower / total < 1/20.
            if (significant(p, 0.05) !== 20n * lower < total)
              throw new Error(`decision at 0.05 for ${m - x}/${n1} -> ${x}/${n2}: p = ${p}`);
            const test = stratifiedDrop([{ before, after }]);
            if (test.test === 'exact') {
              exactPath++;
              if (test.pDrop !== p || !nearest(test.pRise, upper, total))
                throw new Error(`stratifiedDrop ${m - x}/${n1} -> ${x}/${n2}: ${JSON.stringify(test)}`);
            }
            checked++;
          }
        }
      }
    expect(checked).toBe(245_025);
    // Most small tables take the exact path; the rest meet Mantel and Fleiss's criterion.
    expect(exactPath).toBe(130_234);
  });

  it('convolve several strata exactly, as brute force over every table does', () => {
    const random = seededRandom(11);
    let exact = 0;
    for (let trial = 0; trial < 300; trial++) {
      const k = 2 + random.below(3);
      const strata = Array.from({ length: k }, () => {
        const n1 = 1 + random.below(6);
        const n2 = 1 + random.below(6);
        return stratum(n1, random.below(n1 + 1), n2, random.below(n2 + 1));
      });
      const test = stratifiedDrop(strata);
      if (test.test !== 'exact') continue;
      exact++;
      const ref = referenceTails(strata);
      expect(nearest(test.pDrop, ...ref.lower)).toBe(true);
      expect(nearest(test.pRise, ...ref.upper)).toBe(true);
    }
    expect(exact).toBeGreaterThan(250);
  });

  it('converts a ratio of big integers to the nearest double', () => {
    expect(ratioToNumber(1n, 3n)).toBe(1 / 3);
    expect(ratioToNumber(1n, 20n)).toBe(0.05);
    expect(ratioToNumber(0n, 7n)).toBe(0);
    // 2^3000 / 3^2000 = 10^-51.15...: far beyond a double's range on both sides of the ratio.
    expect(ratioToNumber(2n ** 3000n, 3n ** 2000n)).toBeCloseTo(7.03845847312058e-52, 64);
    expect(nearest(ratioToNumber(2n ** 3000n, 3n ** 2000n), 2n ** 3000n, 3n ** 2000n)).toBe(true);
  });
});

describe('stratifiedDrop', () => {
  it('is the Cochran-Mantel-Haenszel test without continuity correction for large counts', () => {
    // Three cases; by hand: S = 60 + 35 + 12 = 107; E = 100*150/200 + 50*80/100 + 20*30/40 = 75 + 40 + 15 = 130;
    // V = 100*100*150*50/(200^2*199) + 50*50*80*20/(100^2*99) + 20*20*30*10/(40^2*39) = 15.3856; z = 23/sqrt(V).
    const strata = [stratum(100, 90, 100, 60), stratum(50, 45, 50, 35), stratum(20, 18, 20, 12)];
    const test = stratifiedDrop(strata);
    const v =
      (100 * 100 * 150 * 50) / (200 ** 2 * 199) +
      (50 * 50 * 80 * 20) / (100 ** 2 * 99) +
      (20 * 20 * 30 * 10) / (40 ** 2 * 39);
    const z = (130 - 107) / Math.sqrt(v);
    expect(test.test).toBe('cmh');
    expect(z).toBeCloseTo(5.863686, 6);
    // P(Z > z) for z = 5.863686422364396, from mpmath's ncdf at 40 digits.
    expect(test.pDrop / 2.2635102753520636e-9).toBeCloseTo(1, 12);
    expect(test.pRise).toBeCloseTo(1, 8);
    expect(test.informative).toBe(3);
  });

  it('ignores strata without information and is 1 with none', () => {
    expect(stratifiedDrop([])).toEqual({ test: 'exact', pDrop: 1, pRise: 1, informative: 0 });
    const alone = stratifiedDrop([stratum(10, 10, 0, 0), stratum(5, 5, 7, 7), stratum(4, 0, 6, 0)]);
    expect(alone).toEqual({ test: 'exact', pDrop: 1, pRise: 1, informative: 0 });
    const mixed = stratifiedDrop([stratum(10, 10, 10, 10), stratum(5, 5, 5, 0)]);
    expect(mixed).toEqual(stratifiedDrop([stratum(5, 5, 5, 0)]));
    expect(() => stratifiedDrop([stratum(3, 4, 3, 0)])).toThrow(
      'stratifiedDrop expects integers 0 <= passes <= trials, got 4 of 3',
    );
  });

  it('is not fooled by a change of case mix (Simpson): pooled rates rise while every case falls', () => {
    // Case easy 9/10 -> 80/100, case hard 20/100 -> 1/10: pooled 29/110 (26%) -> 81/110 (74%).
    const test = stratifiedDrop([stratum(10, 9, 100, 80), stratum(100, 20, 10, 1)]);
    expect(test.pRise).toBeGreaterThan(0.5);
    expect(test.pDrop).toBeLessThan(0.5);
  });
});

describe('exactDropPower', () => {
  it('reads binomial probabilities over a window of outcomes', () => {
    const whole = binomialPmf(20, 0.3);
    expect(whole.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 14);
    expect(whole[6]).toBeCloseTo(Number(choose(20, 6)) * 0.3 ** 6 * 0.7 ** 14, 15);
    expect([...binomialPmf(20, 0.3, 5, 7)]).toEqual([...whole.slice(5, 8)]);
    expect([...binomialPmf(4, 0)]).toEqual([1, 0, 0, 0, 0]);
    expect([...binomialPmf(4, 1, 2, 4)]).toEqual([0, 0, 1]);
  });

  it('is the size of the test under no change, within the level', () => {
    expect(exactDropPower(30, 30, 0.5, 0.5, 0.05)).toBeLessThanOrEqual(0.05);
    expect(exactDropPower(100, 100, 0.8, 0.8, 0.05)).toBeLessThanOrEqual(0.051);
  });

  it('matches a brute-force sum over every outcome pair of the test itself', () => {
    for (const [n1, n2, p1, p2] of [
      [10, 10, 1, 0.5],
      [12, 7, 0.8, 0.4],
      [20, 25, 0.6, 0.3],
    ] as const) {
      // The binomial probabilities from exact coefficients, not the implementation's own.
      const pmf = (n: number, p: number) =>
        Array.from({ length: n + 1 }, (_, x) => Number(choose(n, x)) * p ** x * (1 - p) ** (n - x));
      const a = pmf(n1, p1);
      const b = pmf(n2, p2);
      let power = 0;
      for (let x1 = 0; x1 <= n1; x1++)
        for (let x2 = 0; x2 <= n2; x2++)
          if (significant(stratifiedDrop([stratum(n1, x1, n2, x2)]).pDrop, 0.05))
            power += (a[x1] as number) * (b[x2] as number);
      expect(exactDropPower(n1, n2, p1, p2, 0.05)).toBeCloseTo(power, 14);
    }
  });

  it('sums the outcomes of each count before as the sum over every pair does, to the bit, on the windows the gate reads', () => {
    // The region's outcomes for each count before run from the fewest passes after: each of their sums is read as a
    // prefix sum, which must add the same probabilities in the same order as the sum over every pair.
    for (const [n1, n2, p1, p2, level] of [
      [1000, 1000, 0.7, 0.65, 0.05],
      [1000, 1000, 0.7, 0.7, 0.025],
      [300, 40, 0.9, 0.5, 0.05],
      [12, 7, 0.8, 0.4, 0.05],
      [60, 60, 0.5, 0.2, 0.01],
    ] as const) {
      const region = dropRegion(n1, n2, level);
      const window = (n: number, p: number) => {
        const reach = 9 * Math.sqrt(n * p * (1 - p)) + 9;
        return [Math.max(0, Math.floor(n * p - reach)), Math.min(n, Math.ceil(n * p + reach))] as const;
      };
      const [a0, a1] = window(n1, p1);
      const [b0, b1] = window(n2, p2);
      const a = binomialPmf(n1, p1, a0, a1);
      const b = binomialPmf(n2, p2, b0, b1);
      let power = 0;
      for (let x1 = a0; x1 <= a1; x1++) {
        const pa = a[x1 - a0] as number;
        if (pa === 0) continue;
        let inner = 0;
        for (let x2 = b0; x2 <= b1; x2++) if (x2 <= region(x1 + x2)) inner += b[x2 - b0] as number;
        power += pa * inner;
      }
      expect(exactDropPower(n1, n2, p1, p2, level), `${n1} ${n2} ${p1} ${p2}`).toBe(Math.min(1, power));
    }
  });

  it('gives the power of a drop from 0.8 at 100 trials a side: 10 points about 49%, 20 points about 93%', () => {
    expect(exactDropPower(100, 100, 0.8, 0.7, 0.05)).toBeCloseTo(0.4978, 3);
    expect(exactDropPower(100, 100, 0.8, 0.6, 0.05)).toBeCloseTo(0.9317, 3);
  });
});
