export { toBeGrounded } from './to-be-grounded.js';
export { toCite } from './to-cite.js';
export { toHaveCitationPrecision } from './to-have-citation-precision.js';
export { toHaveCitationRecall } from './to-have-citation-recall.js';
export { toHavePivotBurdenAtMost } from './to-have-pivot-burden-at-most.js';
export { toHaveResolvableCitations } from './to-have-resolvable-citations.js';
export { toHaveSupportingFactF1 } from './to-have-supporting-fact-f1.js';
export { toMatchTrajectory } from './to-match-trajectory.js';
export { toPassAtK } from './to-pass-at-k.js';
export { toPassHatK } from './to-pass-hat-k.js';
export { toReconcileStores } from './to-reconcile-stores.js';
export { toScoreRubric } from './to-score-rubric.js';
export { toSurface } from './to-surface.js';
export { toTraverse } from './to-traverse.js';
export { toUseEstimativeLanguage } from './to-use-estimative-language.js';
export {
  toBeEfficient,
  toHaveRedundancyAtMost,
  toHaveStepF1,
  toRecoverFromErrors,
} from './trajectory-scores.js';
