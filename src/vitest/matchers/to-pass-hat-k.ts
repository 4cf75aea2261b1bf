import { passHatK } from '../../metrics/stats/pass-at-k.js';
import type { MatcherResult, MatcherState } from './helpers.js';
import { trialMatcher } from './trials.js';

/**
 * Over the trials of one task (an array of workups), pass^k of the criterion is at least `min`: the chance that all of
 * k trials drawn from them pass (tau-bench's reliability measure, C(c, k) / C(n, k)).
 */
export function toPassHatK(
  this: MatcherState,
  received: unknown,
  criterion: unknown,
  k: unknown,
  min: unknown,
): MatcherResult {
  return trialMatcher(this, 'toPassHatK', 'pass^k', passHatK, received, criterion, k, min);
}
