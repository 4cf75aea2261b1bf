// Trajectory-level metrics (seed 002) and trajectory match (agentevals), one file per metric family.
export { evaluateTrajectoryBatch, type TrajectoryBatchReport, type TrajectoryTaskReport } from './batch.js';
export { callKey } from './call-key.js';
export { toolDistribution } from './distribution.js';
export { redundancyRate, toolEfficiency } from './efficiency.js';
export { errorRecoveryRate } from './error-recovery.js';
export {
  alignTrajectory,
  type MatchTrajectoryOptions,
  matchTrajectory,
  type ToolArgsMatcher,
  type ToolArgsMatchMode,
  type ToolArgsOverride,
  type ToolCall,
  type TrajectoryAlignment,
  type TrajectoryMatchMode,
  type TrajectoryMatchResult,
} from './match.js';
export { type PairScores, pairScores } from './pair.js';
export { pythonJsonDumps } from './python-json.js';
export { toolNames, trajectorySimilarity } from './similarity.js';
export { stepF1, stepPrecision, stepRecall } from './step-correctness.js';
