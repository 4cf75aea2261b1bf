export { type CheckWorkupOptions, checkWorkup } from './check-workup.js';
export { citationPrecision, citationRecall, citationsResolve, PRECISION_NOT_MEASURED } from './citations.js';
export { expectationText, formatValue, numericValue, thresholdText } from './format.js';
export { type CheckIdentity, checkKey } from './identity.js';
export { MATCHER, type Measured, type SpecRef, toCheck, verdictOf } from './measure.js';
export {
  bridgeCitations,
  describePath,
  grounded,
  needleScore,
  pivotBurden,
  reconciled,
  supportingFacts,
  surfaced,
  traversed,
} from './needle.js';
export {
  criterionCheckMeta,
  NO_JUDGE,
  type RubricCheckOptions,
  rubricCriterion,
  rubricTotalCheckMeta,
} from './rubric.js';
export { type CheckOptions, type Criterion, criteriaOf } from './spec.js';
export { estimativeLanguage } from './tradecraft.js';
export {
  EFFICIENCY,
  ERROR_RECOVERY,
  REDUNDANCY,
  STEP_F1,
  type StepScore,
  stepScore,
  trajectoryMatch,
} from './trajectory.js';
