/**
 * The trend history file (`needlework-report/trend.json` by default): one entry per test run, oldest first, so a team can watch each
 * metric move across commits and gate a merge on a regression. This shape is public API; its JSON Schema is
 * `needlework/schemas/trend.schema.json`. Every field is documented with its unit.
 */
export interface TrendHistory {
  /**
   * Version of this format; bumped on a breaking change. Version 2 added each run's `scope` and `trials` and each
   * check's `task` and `trial`; a version 1 file is still read (its runs taken as full runs, each workup its own task)
   * and is rewritten as version 2 on the next append.
   */
  schema: 2;
  /** The runs, oldest first. */
  runs: TrendRun[];
}

/** One test run. */
export interface TrendRun {
  /** Unique id of the run: the end time (`YYYYMMDDTHHMMSSZ`, UTC) and 8 random hex digits. */
  id: string;
  /** When the run ended: ISO 8601, UTC, millisecond precision. */
  time: string;
  /** The commit the run tested (full SHA), from the CI environment or `git`; absent when neither knows. */
  commit?: string;
  /** The branch (or tag) the run tested, from the CI environment or `git`; absent when neither knows. */
  branch?: string;
  /** Where `commit` and `branch` came from: a CI name (`github`, `gitlab`, `jenkins`, ...) or `git`. */
  source?: string;
  /**
   * The branch a pull or merge request targets, where CI names one (`GITHUB_BASE_REF`,
   * `CI_MERGE_REQUEST_TARGET_BRANCH_NAME`): the regression gate compares the run with that branch's latest run.
   */
  baseBranch?: string;
  /** What ran: the model and agent version the run's workups name in their `meta` (several, comma-separated). */
  environment?: TrendEnvironment;
  /**
   * The project root the run ran in (an absolute path on the machine that ran it), against which its checks'
   * `workupPath` are resolved: `needlework ui` reads a run's workups from there, and from nowhere else.
   */
  root?: string;
  /** Which tests the run ran: the regression gate compares a run only with earlier runs of the same scope. */
  scope: TrendScope;
  /** Counts and rates over the run's needlework checks. */
  summary: TrendSummary;
  /** Every needlework check of the run, one per spec x workup x criterion, in byte order of those three. */
  checks: TrendCheck[];
  /**
   * Trials and passes per spec x criterion x case x task, in byte order of those four: the counts pass rates,
   * intervals, pass@k and the regression gate are computed from, kept so they can be recomputed later. The gate pairs
   * the runs by spec x case x task x criterion.
   */
  trials: TrendTrials[];
}

/** The model and agent version of a run's workups, from their `meta` (`model`, `agentVersion`). */
export interface TrendEnvironment {
  /** The model (`meta.model`); several distinct models are listed comma-separated, in byte order. */
  model?: string;
  /** The agent's version (`meta.agentVersion` or `meta.agent_version`); several are listed comma-separated. */
  agentVersion?: string;
}

/**
 * Which tests a run ran. A `full` run ran every test file of the project, with no name filter, once; anything else
 * is `partial`, and says why. A partial run is recorded only when asked (the trend reporter's `partialRuns` option),
 * so that a later full run is never compared with it.
 */
export interface TrendScope {
  kind: 'full' | 'partial';
  /** The file filters the run was given (`vitest run a.test.ts`), as written. */
  files?: string[];
  /** The test name filter (`-t`), as written. */
  testNamePattern?: string;
  /** The run was one pass of watch mode. */
  watch?: boolean;
  /** The run was started from the Vitest UI. */
  ui?: boolean;
}

/** The trials of one task (of one case) for one spec x criterion in one run: each workup of the task is one trial. */
export interface TrendTrials {
  spec: string;
  criterion: string;
  /** The task case of a `*.cases.yaml` spec (a check's `case`); absent for other specs. */
  case?: string;
  /** The task (a workup's `meta.task`, or the workup id of a workup that names no task). */
  task: string;
  /** The metric the verdicts rest on. */
  metric: string;
  /** Trials whose verdict was decided (pass or fail); skipped and not-applicable trials are not counted. */
  trials: number;
  /** Trials whose verdict was pass. */
  passes: number;
  /** Trials whose metric did not apply (verdict not-applicable), counted apart from `trials`. */
  notApplicable: number;
}

/** Counts over a run's needlework checks (plain Vitest tests are not counted). */
export interface TrendSummary {
  /** Number of checks (spec x workup x criterion). */
  checks: number;
  /** Checks whose verdict is `pass`. */
  passed: number;
  /** Checks whose verdict is `fail`. */
  failed: number;
  /** Checks whose metric does not apply to the workup (verdict `not-applicable`). */
  notApplicable: number;
  /** Checks Vitest skipped (`.skip`, `.todo`, `ctx.skip()`), whatever their verdict. */
  skipped: number;
  /** `passed / (passed + failed)`, a ratio in [0, 1]; `null` when no check was decided. */
  passRate: number | null;
}

/** One check's measurement in one run. */
export interface TrendCheck {
  /** The spec id (a needle or rubric id, or `matcher`). */
  spec: string;
  /** The task case of a `*.cases.yaml` spec the check belongs to; absent for other specs. */
  case?: string;
  /** The workup id. */
  workup: string;
  /** The task the workup is a trial of; absent when the workup names none (it is its own task of one trial). */
  task?: string;
  /** Which trial of its task the workup is (a 1-based number or a label), when it says. */
  trial?: number | string;
  /**
   * The workup's folder or file, relative to the run's `root` with `/` separators (absolute when it lies outside
   * it); absent for a workup built in memory. With `evidence`, what the workup view of `needlework ui` reads; the
   * store keeps both, but reads them back only with one workup's checks (a whole run is read without them).
   */
  workupPath?: string;
  /**
   * The check's metric-specific evidence (the expected tool calls and their alignment, a required path, ...); a passing
   * tool-calls check's slim, completed from the workup by `wholeEvidence` (docs/store.md).
   */
  evidence?: Record<string, unknown>;
  /** The criterion (`surfaced`, `traversed`, ...). */
  criterion: string;
  /** The metric the verdict rests on (`recall`, `pivot_burden`, ...). */
  metric: string;
  /** The measured value: a [0, 1] score unless `unit` says otherwise; `null` when the metric does not apply. */
  value: number | boolean | null;
  /** The unit of `value` and `threshold` when not a [0, 1] score: `queries`, `steps`, `score-1-5`, `ms`, `tokens`, `usd`. */
  unit?: string;
  /** The pass mark, in the unit of `value`. */
  threshold?: number;
  /** How `value` is compared with `threshold`; `<=` means lower is better (a regression is a rise). */
  comparator?: '>=' | '<=' | '==';
  /** The check's verdict. */
  verdict: 'pass' | 'fail' | 'not-applicable';
  /** Whether Vitest ran the test (`passed`, `failed`) or skipped it (`skipped`, or `pending` if interrupted). */
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** The check's one-line summary: what was expected against what was found, or why it does not apply. */
  reason?: string;
}
