import { trendTrials } from '../entry.js';
import { scopeKey } from '../scope.js';
import type { TrendCheck, TrendRun, TrendScope, TrendSummary } from '../types.js';
import { RUN_METRICS } from './migrations.js';
import { RUNS_CHANNEL } from './notify.js';

/** A run without its checks: what lists of runs and the trend table need. */
export type RunHead = Omit<TrendRun, 'checks' | 'trials'>;

/** The columns of `needlework_runs` for a run, `INSERT_RUN`'s `$1`-`$16`. */
export function runParams(run: TrendRun): unknown[] {
  const s = run.summary;
  return [
    run.id,
    run.time,
    run.time,
    run.commit ?? null,
    run.branch ?? null,
    run.baseBranch ?? null,
    run.source ?? null,
    JSON.stringify(run.scope),
    scopeKey(run.scope),
    run.environment?.model ?? null,
    run.environment?.agentVersion ?? null,
    s.checks,
    s.passed,
    s.failed,
    s.notApplicable,
    s.skipped,
  ];
}

/**
 * A run, every check of it and its metric means in one statement, so in one transaction and, on the embedded engine,
 * one message to the store's thread and back (a transaction of four statements was five round trips, each waiting
 * for a turn of a main thread busy writing the reports). The run's columns are `$1`-`$16` (`runParams`); each check
 * column is one array parameter, `$17`-`$32` (`checkParams`), which `unnest` turns back into rows, the order of the
 * run's checks kept as `ord`; the means are taken over the rows the statement inserted (`RETURNING`), which the
 * statement itself cannot read back from the table. Resolves the run's `seq`, and tells the store's listeners
 * (`RUNS_CHANNEL`) once the statement commits: a PostgreSQL server delivers a notification with its transaction.
 */
export const INSERT_RUN = `WITH new_run AS (
  INSERT INTO needlework_runs (id, time, time_text, commit, branch, base_branch, source, scope, scope_key, model,
    agent_version, checks, passed, failed, not_applicable, skipped)
  VALUES ($1, $2::timestamptz, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16)
  RETURNING seq
), new_checks AS (
  INSERT INTO needlework_checks (run, ord, spec, "case", workup, task, trial_number, trial_label, criterion, metric,
    value, value_boolean, unit, threshold, comparator, verdict, state, reason)
  SELECT new_run.seq, t.ord - 1, t.spec, t.case_id, t.workup, t.task, t.trial_number, t.trial_label, t.criterion,
    t.metric, t.value, t.value_boolean, t.unit, t.threshold, t.comparator, t.verdict, t.state, t.reason
  FROM new_run, unnest($17::text[], $18::text[], $19::text[], $20::text[], $21::float8[], $22::text[], $23::text[],
    $24::text[], $25::float8[], $26::boolean[], $27::text[], $28::float8[], $29::text[], $30::text[], $31::text[],
    $32::text[])
    WITH ORDINALITY AS t(spec, case_id, workup, task, trial_number, trial_label, criterion, metric, value,
    value_boolean, unit, threshold, comparator, verdict, state, reason, ord)
  RETURNING run, spec, criterion, metric, unit, comparator, value, value_boolean
), new_metrics AS (
  ${RUN_METRICS('TRUE', 'new_checks')}
)
SELECT seq::integer AS seq, pg_notify('${RUNS_CHANNEL}', 'run ' || seq) FROM new_run`;

/** The array parameters of `INSERT_RUN`'s checks (`$17`-`$32`). */
export function checkParams(checks: readonly TrendCheck[]): unknown[][] {
  const columns: unknown[][] = Array.from({ length: 16 }, () => new Array(checks.length));
  checks.forEach((c, i) => {
    const row = [
      c.spec,
      c.case ?? null,
      c.workup,
      c.task ?? null,
      typeof c.trial === 'number' ? c.trial : null,
      typeof c.trial === 'string' ? c.trial : null,
      c.criterion,
      c.metric,
      typeof c.value === 'number' ? c.value : null,
      typeof c.value === 'boolean' ? c.value : null,
      c.unit ?? null,
      c.threshold ?? null,
      c.comparator ?? null,
      c.verdict,
      c.state,
      c.reason ?? null,
    ];
    for (let k = 0; k < row.length; k++) (columns[k] as unknown[])[i] = row[k];
  });
  return columns;
}

export const RUN_COLUMNS = `seq::integer AS seq, id, time_text, commit, branch, base_branch, source, scope, model,
  agent_version, checks, passed, failed, not_applicable, skipped`;

export interface RunRow {
  seq: number;
  id: string;
  time_text: string;
  commit: string | null;
  branch: string | null;
  base_branch: string | null;
  source: string | null;
  scope: TrendScope | string;
  model: string | null;
  agent_version: string | null;
  checks: number;
  passed: number;
  failed: number;
  not_applicable: number;
  skipped: number;
}

/** A run's row as the run it records, without checks. */
export function runHead(row: RunRow): RunHead & { seq: number } {
  const decided = row.passed + row.failed;
  const summary: TrendSummary = {
    checks: row.checks,
    passed: row.passed,
    failed: row.failed,
    notApplicable: row.not_applicable,
    skipped: row.skipped,
    passRate: decided ? row.passed / decided : null,
  };
  const head: RunHead & { seq: number } = {
    seq: row.seq,
    id: row.id,
    time: row.time_text,
    scope: typeof row.scope === 'string' ? (JSON.parse(row.scope) as TrendScope) : row.scope,
    summary,
  };
  if (row.commit !== null) head.commit = row.commit;
  if (row.branch !== null) head.branch = row.branch;
  if (row.source !== null) head.source = row.source;
  if (row.base_branch !== null) head.baseBranch = row.base_branch;
  if (row.model !== null || row.agent_version !== null)
    head.environment = {
      ...(row.model !== null && { model: row.model }),
      ...(row.agent_version !== null && { agentVersion: row.agent_version }),
    };
  return head;
}

/** The columns of a check, in the order `CHECKS_AS_COLUMNS` gives them. */
const CHECK_COLUMN_NAMES = [
  'spec',
  'case',
  'workup',
  'task',
  'trial_number',
  'trial_label',
  'criterion',
  'metric',
  'value',
  'value_boolean',
  'unit',
  'threshold',
  'comparator',
  'verdict',
  'state',
  'reason',
] as const;

/**
 * A run's checks (`$1` its `seq`) as one JSON text the database builds: an array of 16 columns, each the array of
 * that column's values in the order of the checks. One value costs PGlite's JSON writer what it costs, whatever the
 * shape, but a row of objects repeats every key: 30,000 checks read 100 ms as columns against 240 ms as objects, and
 * `JSON.parse` reads half the text (bench/ui.bench.mjs). A float JSON cannot write (NaN, Infinity) comes as its text,
 * `"NaN"`.
 */
export const CHECKS_AS_COLUMNS = checksAsColumns('$1');

/** `CHECKS_AS_COLUMNS` of the run numbered `run` (a parameter, or a column of an outer query). */
export function checksAsColumns(run: string): string {
  return `SELECT json_build_array(${CHECK_COLUMN_NAMES.map((c) => `json_agg("${c}" ORDER BY ord)`).join(', ')})::text AS columns
FROM needlework_checks WHERE run = ${run}`;
}

type Column<T> = Array<T | null> | null;

/** The checks of `CHECKS_AS_COLUMNS`'s text (a run without checks gives a null for every column). */
export function checksOfColumns(text: string): TrendCheck[] {
  const [
    spec,
    kase,
    workup,
    task,
    trialNumber,
    trialLabel,
    criterion,
    metric,
    value,
    valueBoolean,
    unit,
    threshold,
    comparator,
    verdict,
    state,
    reason,
  ] = JSON.parse(text) as [
    Column<string>,
    Column<string>,
    Column<string>,
    Column<string>,
    Column<number | string>,
    Column<string>,
    Column<string>,
    Column<string>,
    Column<number | string>,
    Column<boolean>,
    Column<string>,
    Column<number | string>,
    Column<TrendCheck['comparator']>,
    Column<TrendCheck['verdict']>,
    Column<TrendCheck['state']>,
    Column<string>,
  ];
  const n = spec?.length ?? 0;
  const checks = new Array<TrendCheck>(n);
  for (let i = 0; i < n; i++) {
    // Built key by key in the order a check's keys are written (an export is the same bytes), without a spread.
    const check = { spec: spec?.[i] } as TrendCheck;
    const c = kase?.[i] ?? null;
    if (c !== null) check.case = c;
    check.workup = workup?.[i] as string;
    const t = task?.[i] ?? null;
    if (t !== null) check.task = t;
    const tn = trialNumber?.[i] ?? null;
    const tl = trialLabel?.[i] ?? null;
    if (tn !== null) check.trial = Number(tn);
    else if (tl !== null) check.trial = tl;
    check.criterion = criterion?.[i] as string;
    check.metric = metric?.[i] as string;
    const v = value?.[i] ?? null;
    check.value = v !== null ? Number(v) : (valueBoolean?.[i] ?? null);
    check.verdict = verdict?.[i] as TrendCheck['verdict'];
    check.state = state?.[i] as TrendCheck['state'];
    const u = unit?.[i] ?? null;
    if (u !== null) check.unit = u;
    const th = threshold?.[i] ?? null;
    if (th !== null) check.threshold = Number(th);
    const cmp = comparator?.[i] ?? null;
    if (cmp !== null) check.comparator = cmp;
    const r = reason?.[i] ?? null;
    if (r !== null) check.reason = r;
    checks[i] = check;
  }
  return checks;
}

/** The run of a head and its checks, with the trials counted from the checks. */
export function fullRun(head: RunHead & { seq?: number }, checks: TrendCheck[]): TrendRun {
  const { seq: _, ...rest } = head;
  return { ...rest, checks, trials: trendTrials(checks) };
}
