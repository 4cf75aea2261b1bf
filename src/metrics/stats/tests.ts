import { normalSurvival } from './normal.js';

/** Pass counts of one side of a comparison. */
export interface Counts {
  /** Trials decided (pass or fail). */
  trials: number;
  /** Trials that passed. */
  passes: number;
}

/** The result of a one-sided test that `after`'s pass rate is lower than `before`'s. */
export interface DropTest {
  test: 'fisher' | 'z';
  /** The one-sided p-value, a probability in [0, 1]. */
  pValue: number;
}

function checkCounts(name: string, counts: Counts): void {
  const { trials, passes } = counts;
  if (!Number.isInteger(trials) || trials < 0 || !Number.isInteger(passes) || passes < 0 || passes > trials)
    throw new RangeError(`${name} expects integers 0 <= passes <= trials, got ${passes} of ${trials}`);
}

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++)
    logFactorials.push((logFactorials[i - 1] as number) + Math.log(i));
  return logFactorials[n] as number;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/**
 * Fisher's exact test, one-sided: the probability, given both sides' trial counts and the total number of passes,
 * that `after` has as few passes as it has or fewer if both sides share one pass rate (the hypergeometric lower
 * tail). Exact at any sample size; the regression gate uses it for small counts. 1 when either side has no trials.
 */
export function fisherDrop(before: Counts, after: Counts): number {
  checkCounts('fisherDrop', before);
  checkCounts('fisherDrop', after);
  if (before.trials === 0 || after.trials === 0) return 1;
  const total = before.trials + after.trials;
  const passes = before.passes + after.passes;
  const draws = after.trials;
  const low = Math.max(0, passes - before.trials);
  const denominator = logChoose(total, draws);
  let p = 0;
  for (let x = low; x <= after.passes; x++)
    p += Math.exp(logChoose(passes, x) + logChoose(total - passes, draws - x) - denominator);
  return Math.min(1, p);
}

/**
 * The two-proportion z-test, one-sided, with the pooled rate: z = (p_before - p_after) / sqrt(p(1 - p)(1/n1 + 1/n2)),
 * p-value P(Z > z). 1 when either side has no trials; when both sides all pass or all fail there is no evidence of a
 * drop (p-value 1).
 */
export function zDrop(before: Counts, after: Counts): number {
  checkCounts('zDrop', before);
  checkCounts('zDrop', after);
  if (before.trials === 0 || after.trials === 0) return 1;
  const pooled = (before.passes + after.passes) / (before.trials + after.trials);
  const variance = pooled * (1 - pooled) * (1 / before.trials + 1 / after.trials);
  if (variance === 0) return 1;
  const z = (before.passes / before.trials - after.passes / after.trials) / Math.sqrt(variance);
  return normalSurvival(z);
}

/**
 * Whether the normal approximation behind the z-test is sound for these counts: every expected cell of the 2 x 2
 * table (passes and failures on each side, under the pooled rate) is at least 5 (Cochran's rule).
 */
export function largeCounts(before: Counts, after: Counts): boolean {
  const total = before.trials + after.trials;
  if (total === 0) return false;
  const passes = before.passes + after.passes;
  const failures = total - passes;
  const smallest = (Math.min(passes, failures) * Math.min(before.trials, after.trials)) / total;
  return smallest >= 5;
}

/** Fisher's exact test for small counts, the z-test otherwise: one-sided, for a drop from `before` to `after`. */
export function testDrop(before: Counts, after: Counts): DropTest {
  return largeCounts(before, after)
    ? { test: 'z', pValue: zDrop(before, after) }
    : { test: 'fisher', pValue: fisherDrop(before, after) };
}
