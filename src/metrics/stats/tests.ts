import { hypergeometricWeights, ratioToNumber } from './exact.js';
import { normalSurvival } from './normal.js';

/** Pass counts of one side of a comparison. */
export interface Counts {
  /** Trials decided (pass or fail). */
  trials: number;
  /** Trials that passed. */
  passes: number;
}

function checkCounts(name: string, counts: Counts): void {
  const { trials, passes } = counts;
  if (!Number.isInteger(trials) || trials < 0 || !Number.isInteger(passes) || passes < 0 || passes > trials)
    throw new RangeError(`${name} expects integers 0 <= passes <= trials, got ${passes} of ${trials}`);
}

/**
 * Fisher's exact test, one-sided: the probability, given both sides' trial counts and the total number of passes,
 * that `after` has as few passes as it has or fewer if both sides share one pass rate (the hypergeometric lower
 * tail, Fisher 1935). Computed with exact integers and rounded once, so 3/3 -> 0/3 gives exactly 1/20. 1 when either
 * side has no trials. The gate's test of one case (see `stratifiedDrop`) is this test for small counts.
 */
export function fisherDrop(before: Counts, after: Counts): number {
  checkCounts('fisherDrop', before);
  checkCounts('fisherDrop', after);
  if (before.trials === 0 || after.trials === 0) return 1;
  const { low, weights } = hypergeometricWeights(before.trials, after.trials, before.passes + after.passes);
  let tail = 0n;
  let total = 0n;
  for (let i = 0; i < weights.length; i++) {
    total += weights[i] as bigint;
    if (low + i <= after.passes) tail += weights[i] as bigint;
  }
  return ratioToNumber(tail, total);
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
