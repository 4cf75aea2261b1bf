import type { Trajectory } from '../../model/index.js';

/**
 * `error_recovery_rate` of seed 002: the fraction of steps carrying an error after which the agent still acted,
 * that is some later step (by `step_id`, not by position, as the seed compares ids) is a `tool_call` or an `answer`
 * without an error. 1 when no step has an error (nothing to recover from).
 *
 * An error is any non-null `error`, the empty string included (the seed tests `error is not None`); an absent
 * `error` field counts as none, as the seed's dataclass default does.
 *
 * The seed scans every later step for every error step (quadratic); "some qualifying step has a larger id" is the
 * same as "the largest qualifying id is larger", so one pass finds that id and a second counts, giving the same
 * value in linear time.
 */
export function errorRecoveryRate(trajectory: Trajectory): number {
  let lastAction = Number.NEGATIVE_INFINITY;
  let errors = 0;
  for (const step of trajectory.steps) {
    if (step.error != null) {
      errors++;
    } else if ((step.step_type === 'tool_call' || step.step_type === 'answer') && step.step_id > lastAction) {
      lastAction = step.step_id;
    }
  }
  if (errors === 0) return 1.0;
  let recovered = 0;
  for (const step of trajectory.steps) {
    if (step.error != null && step.step_id < lastAction) recovered++;
  }
  return recovered / errors;
}
