// needlework: the library. Loaders, the workup and spec model, metrics, verifiers and judges.

export type { AdapterSource } from './adapters/common.js';
export { detectFormat, TRAJECTORY_FORMATS, type TrajectoryFormat } from './adapters/detect.js';
export type { ImportedWorkup, ImportResult } from './adapters/imported.js';
export { type ImportJsonOptions, importJson } from './adapters/importers.js';
export { fromOpenAIMessages, type OpenAIOptions } from './adapters/openai.js';
export { fromOtelSpans, fromOtelTraces, type OtelConvention, type OtelOptions } from './adapters/otel.js';
export { fromOtelSdkSpans, type SdkTraces } from './adapters/otel-sdk.js';
export { fromSweAgentTrajectory, type SweAgentOptions } from './adapters/swe-agent.js';
export { fromTauBenchResults } from './adapters/tau-bench.js';
export {
  fromSeedTrajectory,
  fromTrajectoryJson,
  type SeedSource,
  type TrajectorySource,
} from './adapters/trajectory-json.js';
export * from './cassette/index.js';
export {
  type CheckOptions,
  type CheckWorkupOptions,
  type Criterion,
  checkWorkup,
  criteriaOf,
  expectationText,
} from './checks/index.js';
export { criterionVerdict, type RubricVerdict, rubricVerdict } from './checks/rubric.js';
export { findSpecs, findWorkups } from './discover/find.js';
export * from './entailment/index.js';
export * from './errors/index.js';
export * from './judge/index.js';
export * from './metrics/index.js';
export * from './model/index.js';
export { DEFAULT_EXEMPT_SECTIONS, type ParseNoteOptions, parseNote } from './note/index.js';
export * from './recorder/index.js';
export * from './report/index.js';
export * from './rubric/index.js';
export { specKind } from './specs/file.js';
export { type LoadedSpecs, loadSpec, loadSpecs, parseSpec } from './specs/load.js';
export * from './trials/index.js';
// The HTML report's data: the UI API's answers for its run (`readReport` reads them out of a report), and their types.
export type {
  CheckRow,
  CompareRow,
  Comparison,
  GateSummary,
  PlainTest,
  PlainTests,
  ReportInfo,
  RunDetail,
  RunRow,
  Trends,
  TrialsView,
  WorkupAnswer,
} from './ui/client/types.js';
export { type ReportContents, readReport } from './ui/report/read.js';
export { readLedger } from './workup/ledger.js';
export { type LoadedWorkups, loadWorkup, loadWorkups, type WorkupFailure } from './workup/load.js';
export { inSeedOrder, inTrajectoryOrder, saveWorkup, trajectoryText } from './workup/save.js';
