import { EFFICIENCY, ERROR_RECOVERY, REDUNDANCY, STEP_F1 } from '../../checks/trajectory.js';
import { trajectoryScoreMatcher } from './trajectory-score.js';

/** Step F1 against a gold trajectory (seed 002 `step_f1`) is at least `min`. */
export const toHaveStepF1 = trajectoryScoreMatcher('toHaveStepF1', STEP_F1);

/** Tool efficiency against a gold trajectory (seed 002 `tool_efficiency_score`) is at least `min`. */
export const toBeEfficient = trajectoryScoreMatcher('toBeEfficient', EFFICIENCY);

/** The share of tool calls that repeat an earlier call (seed 002 `redundancy_rate`) is at most `max` (default 0). */
export const toHaveRedundancyAtMost = trajectoryScoreMatcher('toHaveRedundancyAtMost', REDUNDANCY);

/** The share of tool errors followed by a successful action (seed 002 `error_recovery_rate`) is at least `min`. */
export const toRecoverFromErrors = trajectoryScoreMatcher('toRecoverFromErrors', ERROR_RECOVERY);
