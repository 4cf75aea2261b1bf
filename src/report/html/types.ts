import type { NoteMarks, RequiredPath, SentenceMarks } from '../../views/workup.js';
import type { GateText } from '../gate-text.js';

export type { MarkStatus } from '../../views/workup.js';

/**
 * The data the HTML report embeds as JSON (`<script type="application/json" id="needlework-data">`) and renders in the
 * browser. It is public API: tools may read it out of a report. Every string in it may come from an agent and is
 * rendered as text, never as markup.
 */
export interface HtmlReportData {
  /** Version of this shape; bumped on a breaking change. */
  schema: 1;
  /** The page title. */
  title: string;
  /** When the report was written: ISO 8601, UTC. */
  generatedAt: string;
  summary: HtmlSummary;
  /** Every needlework check, failing first, then by spec, workup and criterion in byte order. */
  checks: HtmlCheck[];
  /** Plain Vitest tests (no needlework meta), failing first. */
  tests: HtmlTest[];
  /** Every workup the checks name, in byte order of id, then of path (or test file). */
  workups: HtmlWorkup[];
  /** The trend history, when a history file was found; the latest run last. */
  trend?: HtmlTrend;
  /** Repeated trials of tasks: error bars, the task x criterion matrix and flaky criteria; absent without tasks. */
  trials?: HtmlTrials;
  /**
   * The regression gate against the latest earlier run of the store, in the words of the job summary and JUnit: the
   * counts by status, the cases only one run holds, each criterion that moved with the cases that dropped, most
   * significant first. Absent without an earlier run.
   */
  gate?: GateText;
}

export interface HtmlSummary {
  /** Number of needlework checks. */
  checks: number;
  passed: number;
  failed: number;
  notApplicable: number;
  /** `passed / (passed + failed)`, a ratio in [0, 1]; `null` when nothing was decided. */
  passRate: number | null;
  /** Plain Vitest tests: how many, and how many failed. */
  tests: number;
  testsFailed: number;
  /** The mean of each spec x criterion metric over the workups, in byte order of spec and criterion. */
  metrics: HtmlMetricMean[];
}

export interface HtmlMetricMean {
  spec: string;
  criterion: string;
  metric: string;
  /** The unit of `mean`; absent for a [0, 1] score. */
  unit?: string;
  /** The mean over the workups where the metric applies (booleans as 1/0); `null` when it applied nowhere. */
  mean: number | null;
  /** How many workups the mean is over. */
  count: number;
  /** How many of the checks failed. */
  failed: number;
}

export interface HtmlCheck {
  spec: string;
  specKind: 'needle' | 'rubric' | 'cases' | 'matcher';
  /** The workup's id, as the workup names itself (two workups in different files may share one). */
  workup: string;
  /** The `key` of the workup in `workups`: which of the workups of that id the check is of. */
  workupKey: string;
  criterion: string;
  metric: string;
  /** The measured value, in `unit` (a [0, 1] score when absent); `null` when the metric does not apply. */
  value: number | boolean | null;
  unit?: string;
  threshold?: number;
  comparator?: '>=' | '<=' | '==';
  verdict: 'pass' | 'fail' | 'not-applicable';
  /** Vitest's state of the test. */
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** `expected <metric> <comparator> <threshold>, got <value>` and the check's own summary. */
  statement: string;
  /** The test file, relative to the project root. */
  file: string;
  /** Where the check's assertion is written in its spec file: `file:line:column` from the project root. */
  place?: string;
  /** Where the check's task case starts (its `id:`), `file:line:column`, for a check of a task case. */
  casePlace?: string;
  /** Wall time of the test, milliseconds. */
  durationMs: number;
  /** Error messages the test threw (colour codes stripped). */
  errors: string[];
  /** Side scores by name, in their own units. */
  scores?: Record<string, number>;
  /** The task the workup is a trial of, when it names one. */
  task?: string;
  /** Set when this criterion passed in some trials of the task and failed in others. */
  flaky?: true;
}

export interface HtmlTest {
  file: string;
  fullName: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** Milliseconds. */
  durationMs: number;
  errors: string[];
}

export interface HtmlWorkup {
  /**
   * What tells this workup apart from every other: its id with its folder (`path`), or, for a workup with no folder,
   * with the test file of its checks. Two live tests of one name in two files are two workups with one id.
   */
  key: string;
  id: string;
  /** The workup's folder or file, as the checks named it. */
  path?: string;
  /** The test file of its checks, for a workup that has no `path`. */
  file?: string;
  /** Why the workup could not be read, when it could not (the checks are still shown). */
  loadError?: string;
  note?: HtmlNote;
  /** The provenance ledger, in file order. */
  ledger: HtmlLedgerEntry[];
  trajectory?: HtmlTrajectory;
  /** The needle's required relation path against the one the ledger traversed, per needle check that recorded both. */
  paths: HtmlPath[];
}

/** The note with every citation and claim marked (`src/views/workup.ts`, which the UI reads too). */
export type HtmlNote = NoteMarks;

export type HtmlSentence = SentenceMarks;

export interface HtmlLedgerEntry {
  id: string;
  store: string;
  query: string;
  /** Number of facts the query returned. */
  results: number;
  error?: string;
}

export interface HtmlTrajectory {
  steps: HtmlStep[];
  /** Tokens of the steps, summed: the total of the rows the page shows. */
  totalTokens: number;
  /** Latency of the steps summed, milliseconds: the total of the rows the page shows. */
  totalLatencyMs: number;
  /**
   * The trajectory's own totals (`total_tokens`, `total_latency_ms`) where they differ from the sums of its steps: an
   * SDK's reported usage, or the wall time of the run, which includes time between steps. Absent when they agree.
   */
  recorded?: { tokens?: number; latencyMs?: number };
  /** Tool calls, errors and redundant calls counted. */
  toolCalls: number;
  errors: number;
  redundant: number;
}

export interface HtmlStep {
  id: number;
  type: 'thought' | 'tool_call' | 'observation' | 'answer';
  tool?: string;
  /** The step's content, cut to 400 characters. */
  content: string;
  /** Milliseconds. */
  latencyMs: number;
  tokens: number;
  error?: string;
  /** True for a tool call that repeats an earlier one exactly (same tool, same arguments). */
  redundant?: boolean;
}

/** A needle's required relation path against the one the ledger traversed. */
export type HtmlPath = RequiredPath;

export interface HtmlTrend {
  /**
   * The runs shown, oldest first (at most the last 30). `label` names the run under a chart's x axis: the commit's
   * first 7 characters, or the run's time (`MM-DD HH:MM`, UTC) when it names no commit.
   */
  runs: Array<{ id: string; time: string; commit?: string; label: string; passRate: number | null }>;
  /** The y axis of the pass-rate chart: 0 to 1. */
  passRateAxis: HtmlAxis;
  /** The mean of each spec x criterion metric in each run (`null` where it was not measured), with its y axis. */
  series: Array<{
    spec: string;
    criterion: string;
    metric: string;
    unit?: string;
    means: Array<number | null>;
    axis: HtmlAxis;
  }>;
}

/** A chart's value axis, fitted to the values it shows and their unit: every value lies in [min, max]. */
export interface HtmlAxis {
  min: number;
  max: number;
  /** Where the axis is labelled, from `min` to `max`, evenly spaced, in the values' unit. */
  ticks: number[];
}

/** Repeated trials: shown when some workup is a trial of a task (`meta.task`). */
export interface HtmlTrials {
  /** Per spec x criterion over every trial of every task, in byte order of spec and criterion. */
  criteria: HtmlTrialCriterion[];
  /** The tasks, in byte order: the rows of the task x criterion matrix. */
  tasks: string[];
  /** One cell per spec x criterion x task that has trials. */
  cells: HtmlTrialCell[];
}

export interface HtmlTrialCriterion {
  spec: string;
  criterion: string;
  metric: string;
  /** Decided trials and passes, counts. */
  trials: number;
  passes: number;
  /** passes / trials, with its 95% Wilson interval (`low`, `high`): ratios in [0, 1]; `null` with no trials. */
  passRate: number | null;
  low: number | null;
  high: number | null;
  /** pass@k and pass^k by k (k = 1 and the number of trials): ratios in [0, 1], `null` where k exceeds the trials. */
  passAtK: Record<string, number | null>;
  passHatK: Record<string, number | null>;
  /** The tasks whose trials both passed and failed. */
  flakyTasks: string[];
}

export interface HtmlTrialCell {
  spec: string;
  criterion: string;
  task: string;
  trials: number;
  passes: number;
  /** passes / trials, a ratio in [0, 1]; `null` with no decided trial. */
  passRate: number | null;
  flaky: boolean;
}
