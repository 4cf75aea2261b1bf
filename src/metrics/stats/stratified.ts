import { convolve, hypergeometricWeights, logFactorial, ratioToNumber } from './exact.js';
import { normalQuantile, normalSurvival } from './normal.js';
import type { Counts } from './tests.js';

/** One stratum (one case) of a stratified comparison: its trials in the baseline and in the current run. */
export interface Stratum {
  before: Counts;
  after: Counts;
}

/** The outcome of the stratified test of a drop (and of a rise) in pass rate from `before` to `after`. */
export interface StratifiedTest {
  /**
   * `exact`: the exact conditional test of a common odds ratio of 1 (the distribution of the after side's passes
   * given every stratum's margins); `cmh`: the Cochran-Mantel-Haenszel test, its normal approximation.
   */
  test: 'exact' | 'cmh';
  /** One-sided p-value for a drop: P(S <= s) under no change, S the after side's passes summed over the strata. */
  pDrop: number;
  /** One-sided p-value for a rise: P(S >= s). */
  pRise: number;
  /** Strata that carry information: trials on both sides and both a pass and a fail among them. */
  informative: number;
}

/**
 * The relative tolerance with which a p-value equal to the level is not below it, as R's `fisher.test` and
 * `mantelhaen.test` compare probabilities (`relErr <- 1 + 10^(-7)`): a p-value of exactly 1/20 is not significant at
 * 0.05, whatever the last bit of either.
 */
export const P_TOLERANCE = 1e-7;

/** Whether a p-value is significant at a level: below it by more than the relative tolerance. */
export function significant(p: number, level: number): boolean {
  return p < level * (1 - P_TOLERANCE);
}

/**
 * Mantel and Fleiss (1980)'s criterion for the normal approximation of the Mantel-Haenszel statistic: the sum of the
 * strata's expected counts lies at least 5 from both the smallest and the largest sum their margins allow. Below it,
 * the exact conditional test is used.
 */
export const MANTEL_FLEISS_MARGIN = 5;
/** The widest support of S computed with exact integers; wider, the same distribution is convolved in doubles. */
const EXACT_SUPPORT = 600;

interface Margins {
  before: number;
  after: number;
  passes: number;
  low: number;
  high: number;
}

function margins(s: Stratum): Margins {
  const passes = s.before.passes + s.after.passes;
  return {
    before: s.before.trials,
    after: s.after.trials,
    passes,
    low: Math.max(0, passes - s.before.trials),
    high: Math.min(s.after.trials, passes),
  };
}

function checkStratum(s: Stratum): void {
  for (const c of [s.before, s.after]) {
    const { trials, passes } = c;
    if (!Number.isInteger(trials) || trials < 0 || !Number.isInteger(passes) || passes < 0 || passes > trials)
      throw new RangeError(
        `stratifiedDrop expects integers 0 <= passes <= trials, got ${passes} of ${trials}`,
      );
  }
}

/**
 * The stratified test of a change in pass rate between two runs, stratum by stratum (case by case), so that neither a
 * change in the mix of cases nor in the trials per case can fake or hide a change: each stratum is a 2 x 2 table
 * (before/after x pass/fail), and under no change each has an odds ratio of 1 given its margins.
 *
 * The statistic is S, the after side's passes summed over the strata. With large counts (Mantel and Fleiss 1980's
 * criterion, see `MANTEL_FLEISS_MARGIN`) it is the Cochran-Mantel-Haenszel test (Cochran 1954; Mantel and Haenszel
 * 1959) without continuity correction, as R's `mantelhaen.test(correct = FALSE)`: z = (E - S) / sqrt(V), with
 * E = sum n2 m / N and V = sum n1 n2 m (N - m) / (N^2 (N - 1)) over the strata. Otherwise it is the exact
 * conditional test (Mehta, Patel and Gray 1985; R's `mantelhaen.test(exact = TRUE)`): the distribution of S is the
 * convolution of the strata's hypergeometric distributions, computed with exact integers, so each tail is the exact
 * rational rounded once. With one stratum the exact test is Fisher's exact test, one-sided.
 *
 * Strata with no trials on a side, or with only passes or only failures, carry no information and leave both tails
 * unchanged. With no informative stratum both p-values are 1.
 */
export function stratifiedDrop(strata: Iterable<Stratum>): StratifiedTest {
  const informative: Margins[] = [];
  let observed = 0;
  for (const s of strata) {
    checkStratum(s);
    const m = margins(s);
    if (m.low === m.high) continue;
    informative.push(m);
    observed += s.after.passes;
  }
  if (informative.length === 0) return { test: 'exact', pDrop: 1, pRise: 1, informative: 0 };
  let expected = 0;
  let variance = 0;
  let low = 0;
  let high = 0;
  for (const m of informative) {
    const n = m.before + m.after;
    expected += (m.after * m.passes) / n;
    variance += (m.before * m.after * m.passes * (n - m.passes)) / (n * n * (n - 1));
    low += m.low;
    high += m.high;
  }
  const count = informative.length;
  if (Math.min(expected - low, high - expected) >= MANTEL_FLEISS_MARGIN) {
    const z = (expected - observed) / Math.sqrt(variance);
    return { test: 'cmh', pDrop: normalSurvival(z), pRise: normalSurvival(-z), informative: count };
  }
  const tails = high - low <= EXACT_SUPPORT ? exactTails(informative) : floatTails(informative);
  return { test: 'exact', ...tails(observed - low), informative: count };
}

/** The tails of S - sum(low) from integer weights: exact rationals, each rounded once. */
function exactTails(strata: readonly Margins[]): (at: number) => { pDrop: number; pRise: number } {
  let weights: bigint[] = [1n];
  for (const m of strata)
    weights = convolve(weights, hypergeometricWeights(m.before, m.after, m.passes).weights);
  let total = 0n;
  for (const w of weights) total += w;
  return (at) => {
    let lower = 0n;
    for (let i = 0; i <= at; i++) lower += weights[i] as bigint;
    const upper = total - lower + (weights[at] as bigint);
    return { pDrop: ratioToNumber(lower, total), pRise: ratioToNumber(upper, total) };
  };
}

/**
 * The tails of S - sum(low) for a support too wide for integers: each stratum's hypergeometric probabilities in
 * doubles (from log factorials), convolved and renormalised stratum by stratum, as R's `d2x2xk` does.
 */
function floatTails(strata: readonly Margins[]): (at: number) => { pDrop: number; pRise: number } {
  let dist = [1];
  for (const m of strata) {
    const n = m.before + m.after;
    const denominator = logFactorial(n) - logFactorial(m.passes) - logFactorial(n - m.passes);
    const pmf: number[] = [];
    for (let x = m.low; x <= m.high; x++) {
      const log =
        logFactorial(m.after) -
        logFactorial(x) -
        logFactorial(m.after - x) +
        logFactorial(m.before) -
        logFactorial(m.passes - x) -
        logFactorial(m.before - m.passes + x) -
        denominator;
      pmf.push(Math.exp(log));
    }
    const next = new Array<number>(dist.length + pmf.length - 1).fill(0);
    for (let i = 0; i < dist.length; i++)
      for (let j = 0; j < pmf.length; j++)
        next[i + j] = (next[i + j] as number) + (dist[i] as number) * (pmf[j] as number);
    const sum = next.reduce((a, b) => a + b, 0);
    dist = next.map((p) => p / sum);
  }
  return (at) => {
    let lower = 0;
    for (let i = 0; i <= at; i++) lower += dist[i] as number;
    let upper = 0;
    for (let i = at; i < dist.length; i++) upper += dist[i] as number;
    return { pDrop: Math.min(1, lower), pRise: Math.min(1, upper) };
  };
}

/**
 * The rejection region of the stratified test for one stratum of `before` and `after` trials at `level`, as a function
 * of the total number of passes m (0 to before + after): the largest count of after passes that the test calls a
 * drop, or one less than the smallest possible count when it calls none. Computed on demand and remembered; where the
 * test is the Mantel-Haenszel one the boundary is found from its normal quantile and confirmed with the test itself,
 * elsewhere by scanning the exact test's p-values up from the fewest passes. The exact power of the test is read
 * from it (`exactDropPower`).
 */
export function dropRegion(before: number, after: number, level: number): (passes: number) => number {
  const n = before + after;
  const UNKNOWN = -2147483648;
  const known = new Int32Array(n + 1).fill(UNKNOWN);
  const z = normalQuantile(1 - level * (1 - P_TOLERANCE));
  const rejects = (m: number, x: number) =>
    significant(
      stratifiedDrop([{ before: { trials: before, passes: m - x }, after: { trials: after, passes: x } }])
        .pDrop,
      level,
    );
  return (m) => {
    let c = known[m] as number;
    if (c !== UNKNOWN) return c;
    const low = Math.max(0, m - before);
    const high = Math.min(after, m);
    const expected = (after * m) / n;
    const mantelFleiss = Math.min(expected - low, high - expected) >= MANTEL_FLEISS_MARGIN;
    // The p-value of a drop grows with the after side's passes, so the region is x <= c.
    c = low - 1;
    if (mantelFleiss) {
      const sd = Math.sqrt((before * after * m * (n - m)) / (n * n * (n - 1)));
      c = Math.max(low - 1, Math.min(high, Math.floor(expected - z * sd)));
      while (c + 1 <= high && rejects(m, c + 1)) c++;
      while (c >= low && !rejects(m, c)) c--;
    } else for (let x = low; x <= high && rejects(m, x); x++) c = x;
    known[m] = c;
    return c;
  };
}
