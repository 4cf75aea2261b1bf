import { passAtK } from '../../metrics/stats/pass-at-k.js';
import type { MatcherResult, MatcherState } from './helpers.js';
import { trialMatcher } from './trials.js';

/**
 * Over the trials of one task (an array of workups), pass@k of the criterion is at least `min`: the chance that at
 * least one of k trials drawn from them passes (HumanEval's unbiased estimator, from n decided trials and c passes).
 */
export function toPassAtK(
  this: MatcherState,
  received: unknown,
  criterion: unknown,
  k: unknown,
  min: unknown,
): MatcherResult {
  return trialMatcher(this, 'toPassAtK', 'pass@k', passAtK, received, criterion, k, min);
}
