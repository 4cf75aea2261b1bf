/**
 * The trend history file (`needlework-trend.json`): one entry per test run, oldest first, so a team can watch each
 * metric move across commits and gate a merge on a regression. This shape is public API; its JSON Schema is
 * `needlework/schemas/trend.schema.json`. Every field is documented with its unit.
 */
export interface TrendHistory {
  /** Version of this format; bumped on a breaking change. */
  schema: 1;
  /** The runs, oldest first. Only the most recent `maxRuns` (default 50) are kept. */
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
  /** Counts and rates over the run's needlework checks. */
  summary: TrendSummary;
  /** Every needlework check of the run, one per spec x workup x criterion, in byte order of those three. */
  checks: TrendCheck[];
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
  /** The workup id. */
  workup: string;
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
}
