import { logFactorial } from './exact.js';
import { dropRegion } from './stratified.js';

/**
 * The binomial probabilities P(X = x) for n trials passing with probability p, for x from `from` to `to` (all of them
 * by default), at index x - from; computed from log factorials, one exponential each.
 */
export function binomialPmf(n: number, p: number, from = 0, to = n): Float64Array {
  const pmf = new Float64Array(to - from + 1);
  if (p <= 0 || p >= 1) {
    const x = p <= 0 ? 0 : n;
    if (x >= from && x <= to) pmf[x - from] = 1;
    return pmf;
  }
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  const ln = logFactorial(n);
  for (let x = from; x <= to; x++)
    pmf[x - from] = Math.exp(ln - logFactorial(x) - logFactorial(n - x) + x * lp + (n - x) * lq);
  return pmf;
}

const regions = new Map<string, (passes: number) => number>();

/** The rejection region of `dropRegion`, remembered for a handful of designs (the gate asks for few). */
function region(before: number, after: number, level: number): (passes: number) => number {
  const key = `${before}/${after}/${level}`;
  let cutoff = regions.get(key);
  if (!cutoff) {
    cutoff = dropRegion(before, after, level);
    if (regions.size >= 64) regions.delete(regions.keys().next().value as string);
    regions.set(key, cutoff);
  }
  return cutoff;
}

/**
 * The outcomes of a binomial that carry its probability: mean +- 9 standard deviations (and 9 more counts), beyond
 * which each tail holds less than 1e-15 of it (Chernoff's bound, with room for the skew of a small count).
 */
function window(n: number, p: number): [number, number] {
  const mean = n * p;
  const reach = 9 * Math.sqrt(n * p * (1 - p)) + 9;
  return [Math.max(0, Math.floor(mean - reach)), Math.min(n, Math.ceil(mean + reach))];
}

/**
 * The exact power of the gate's test of a drop for one case of `before` and `after` trials: the probability that it
 * calls a regression at `level` when the true pass rate falls from `p1` to `p2`, summed over every pair of outcomes
 * (x1 passes before, x2 after) with its binomial probability, not approximated (outcomes further than 9 standard
 * deviations from their mean, which hold less than 1e-15 of the probability, are left out).
 */
export function exactDropPower(before: number, after: number, p1: number, p2: number, level: number): number {
  for (const [name, n] of [
    ['before', before],
    ['after', after],
  ] as const)
    if (!Number.isInteger(n) || n < 0)
      throw new RangeError(`exactDropPower expects ${name} to be a count, got ${n}`);
  const cutoff = region(before, after, level);
  const [a0, a1] = window(before, p1);
  const [b0, b1] = window(after, p2);
  const a = binomialPmf(before, p1, a0, a1);
  const b = binomialPmf(after, p2, b0, b1);
  // The region's boundary for every total the window reaches, read once into an array for the double loop.
  const cut = new Int32Array(a1 + b1 - a0 - b0 + 1);
  for (let m = a0 + b0; m <= a1 + b1; m++) cut[m - a0 - b0] = cutoff(m);
  return Math.min(
    1,
    regionRuns(cut, a0 + b0) ? powerByPrefix(a, b, cut, a0, b0) : powerByPairs(a, b, cut, a0, b0),
  );
}

/**
 * Whether the region's outcomes are, for each count x1 before, a run of counts after from the fewest up: x2 is in the
 * region when x2 <= cut(x1 + x2), that is when m - cut(m) <= x1 for m = x1 + x2, so they are wherever m - cut(m)
 * never falls as m rises (the boundary rises by at most one a pass).
 */
function regionRuns(cut: Int32Array, m0: number): boolean {
  for (let i = 1; i < cut.length; i++)
    if (m0 + i - (cut[i] as number) < m0 + i - 1 - (cut[i - 1] as number)) return false;
  return true;
}

/** The power summed over every pair of outcomes: each x2 in the region adds its probability. */
function powerByPairs(a: Float64Array, b: Float64Array, cut: Int32Array, a0: number, b0: number): number {
  let power = 0;
  for (let x1 = a0; x1 < a0 + a.length; x1++) {
    const pa = a[x1 - a0] as number;
    if (pa === 0) continue;
    let inner = 0;
    const offset = x1 - a0 - b0;
    for (let x2 = b0; x2 < b0 + b.length; x2++)
      if (x2 <= (cut[x2 + offset] as number)) inner += b[x2 - b0] as number;
    power += pa * inner;
  }
  return power;
}

/**
 * `powerByPairs` where the region runs from the fewest passes after (`regionRuns`): each x1's sum is a prefix sum of
 * the after side's probabilities, added in the same order from 0, so the very same number, found in one step rather
 * than one a count (the power's bisection over two runs of 30,000 checks: 30 criteria x 12 powers x 280^2 pairs).
 */
function powerByPrefix(a: Float64Array, b: Float64Array, cut: Int32Array, a0: number, b0: number): number {
  const prefix = new Float64Array(b.length);
  let sum = 0;
  for (let i = 0; i < b.length; i++) {
    sum += b[i] as number;
    prefix[i] = sum;
  }
  const inRegion = (x1: number, x2: number) => x2 <= (cut[x1 + x2 - a0 - b0] as number);
  let power = 0;
  // The last count after in the region for x1 (b0 - 1 for none), moved from the last x1's.
  let k = b0 - 1;
  for (let x1 = a0; x1 < a0 + a.length; x1++) {
    if (k >= b0) k--;
    while (k + 1 < b0 + b.length && inRegion(x1, k + 1)) k++;
    while (k >= b0 && !inRegion(x1, k)) k--;
    const pa = a[x1 - a0] as number;
    if (pa === 0 || k < b0) continue;
    power += pa * (prefix[k - b0] as number);
  }
  return power;
}
