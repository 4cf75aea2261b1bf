// The reports' public pieces: the trend history (types, reading and appending, the regression gate and its table),
// and the JUnit property names. The reporters themselves are `needlework/reporters/*`; the HTML report's data is
// exported from src/index.ts (src/ui/report).

export {
  CASE_STATUSES,
  type CaseChange,
  type CaseSide,
  type CaseStatus,
  type CompareOptions,
  compare,
  DEFAULT_RELATIVE_TOLERANCE,
  DEFAULT_TOLERANCE,
  hasRegressed,
  type RunComparison,
} from '../history/compare.js';
export {
  type BaselineQuery,
  type ComparedRuns,
  type ComparisonOptions,
  compareStored,
  findBaseline,
} from '../history/gate.js';
export {
  DEFAULT_TREND_FILE,
  readHistory,
} from '../history/history.js';
export { TREND_SCHEMA } from '../history/schema.js';
export { describeScope, scopeKey } from '../history/scope.js';
export {
  type ChangeStatus,
  type CriterionComparison,
  compareRuns,
  DEFAULT_LEVEL,
  detectableDrop,
  type SideSummary,
  type SignificanceOptions,
} from '../history/significance.js';
export type {
  TrendCheck,
  TrendHistory,
  TrendRun,
  TrendScope,
  TrendSummary,
  TrendTrials,
} from '../history/types.js';
