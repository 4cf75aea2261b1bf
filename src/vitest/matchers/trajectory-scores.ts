import { redundancyRate, toolEfficiency } from '../../metrics/trajectory/efficiency.js';
import { errorRecoveryRate } from '../../metrics/trajectory/error-recovery.js';
import { stepF1 } from '../../metrics/trajectory/step-correctness.js';
import { trajectoryScoreMatcher } from './trajectory-score.js';

/** Step F1 against a gold trajectory (seed 002 `step_f1`) is at least `min`. */
export const toHaveStepF1 = trajectoryScoreMatcher({
  name: 'toHaveStepF1',
  criterion: 'step-f1',
  metric: 'step_f1',
  label: 'step F1',
  comparator: '>=',
  needsReference: true,
  score: (actual, gold) => stepF1(actual, gold!),
});

/** Tool efficiency against a gold trajectory (seed 002 `tool_efficiency_score`) is at least `min`. */
export const toBeEfficient = trajectoryScoreMatcher({
  name: 'toBeEfficient',
  criterion: 'efficiency',
  metric: 'efficiency',
  label: 'tool efficiency',
  comparator: '>=',
  needsReference: true,
  score: (actual, gold) => toolEfficiency(actual, gold!),
});

/** The share of tool calls that repeat an earlier call (seed 002 `redundancy_rate`) is at most `max` (default 0). */
export const toHaveRedundancyAtMost = trajectoryScoreMatcher({
  name: 'toHaveRedundancyAtMost',
  criterion: 'redundancy',
  metric: 'redundancy',
  label: 'redundancy',
  comparator: '<=',
  needsReference: false,
  score: (actual) => redundancyRate(actual),
});

/** The share of tool errors followed by a successful action (seed 002 `error_recovery_rate`) is at least `min`. */
export const toRecoverFromErrors = trajectoryScoreMatcher({
  name: 'toRecoverFromErrors',
  criterion: 'error-recovery',
  metric: 'error_recovery',
  label: 'error recovery',
  comparator: '>=',
  needsReference: false,
  score: (actual) => errorRecoveryRate(actual),
});
