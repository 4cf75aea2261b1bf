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
  let power = 0;
  for (let x1 = a0; x1 <= a1; x1++) {
    const pa = a[x1 - a0] as number;
    if (pa === 0) continue;
    let inner = 0;
    const offset = x1 - a0 - b0;
    for (let x2 = b0; x2 <= b1; x2++) if (x2 <= (cut[x2 + offset] as number)) inner += b[x2 - b0] as number;
    power += pa * inner;
  }
  return Math.min(1, power);
}
