/**
 * One verdict of one criterion on one workup: what `checkWorkup` decides, what a matcher asserts, what a YAML-spec
 * test shows, what `needlework score --json` prints and what every reporter reads. Serialisable (it crosses from the
 * test worker to the main process and into `--merge-reports` blobs as `task.meta.needlework`). This shape is public
 * API: the JUnit properties, the HTML report, the trend history and the OTel events are built from it.
 */
export interface Check {
  /** Version of this shape; bumped on a breaking change. */
  schema: 1;
  /** The spec the check comes from: a needle or rubric id, or `matcher` for a hand-written `expect`. */
  spec: string;
  specKind: 'needle' | 'rubric' | 'cases' | 'matcher';
  /** The spec file, when the check comes from one. */
  specFile?: string;
  /**
   * Where in `specFile` the check's assertion is written: the key of the assertion (`tool_calls:` of its case, a
   * needle's `required_path:`, a rubric criterion's `id:`), found once when the spec loads. Readers render it; none
   * parses the spec again to find it.
   */
  place?: SpecPlace;
  /** The task case of a `*.cases.yaml` spec the check belongs to. */
  case?: string;
  /** Where the case starts in `specFile` (its `id:` key), for a check of a task case. */
  casePlace?: SpecPlace;
  /** The workup's id. */
  workup: string;
  /** The workup's folder or file, so a reporter can read the note, ledger and trajectory itself. */
  workupPath?: string;
  /** The task the workup is a trial of (`meta.task`); absent: the workup is its own task of one trial. */
  task?: string;
  /** Which trial of its task the workup is (`meta.trial`), when it says. */
  trial?: number | string;
  /** The criterion: `surfaced`, `traversed`, `grounded`, `citations-resolve`, `citation-recall`, ... */
  criterion: string;
  /** The metric the verdict rests on (`recall`, `supporting_fact_f1`, `pivot_burden`, ...). */
  metric: string;
  /**
   * The measured value; `null` when nothing was measured: the metric does not apply (verdict `not-applicable`), or
   * the run did not produce what it reads (verdict `fail`, `summary` naming what is missing, `evidence.missing`).
   * Scores are in [0, 1] unless `unit` says otherwise.
   */
  value: number | boolean | null;
  /** The pass mark, when the metric has one. */
  threshold?: number;
  /** How `value` is compared with `threshold`. */
  comparator?: '>=' | '<=' | '==';
  /** The unit of `value` when it is not a [0, 1] score: `queries`, `steps`, `score-1-5`, `ms`, `tokens`, `usd`. */
  unit?: string;
  verdict: 'pass' | 'fail' | 'not-applicable';
  /** One line a person reads: what was expected against what was found, or why the criterion does not apply. */
  summary?: string;
  /** Metric-specific evidence (ledger ids on the path, missing facts, uncited sentences), JSON-serialisable. */
  evidence?: Record<string, unknown>;
  /** Other scores measured alongside, by name (a rubric's agreement, tokens, cost). */
  scores?: Record<string, number>;
}

/** A place in a spec file: 1-based line and column. */
export interface SpecPlace {
  line: number;
  column: number;
}

/** The earlier name of `Check`, kept for code written against needlework 0.1. */
export type CheckMeta = Check;
