// The reports' public pieces: the trend history (types, reading and appending, the regression gate and its table),
// the HTML report's data shape, and the JUnit property names. The reporters themselves are `needlework/reporters/*`.

export {
  DEFAULT_RELATIVE_TOLERANCE,
  DEFAULT_TOLERANCE,
  findRegressions,
  type Regression,
  type RegressionOptions,
} from '../history/compare.js';
export {
  checkRegressions,
  formatComparison,
  formatRegression,
  hasRegression,
  type RegressionCheckOptions,
  type RegressionReport,
} from '../history/gate.js';
export {
  type AppendOptions,
  appendRun,
  DEFAULT_MAX_RUNS,
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
export type { CheckError, CheckRecord } from './checks.js';
export { collectChecks } from './collect.js';
export type { HtmlReportData } from './html/types.js';
export type { JUnitPropertyName } from './junit/properties.js';
export { renderTrendTable, type TrendTableOptions } from './trend-table.js';
