import { stringifyJson } from '../../parse/json.js';
import { historyOrder, trendTrials } from '../entry.js';
import { metricMeans } from '../means.js';
import { scopeKey } from '../scope.js';
import type { TrendCheck, TrendRun, TrendScope, TrendSummary } from '../types.js';
import { RUNS_CHANNEL } from './notify.js';

/** A run without its checks: what lists of runs and the trend table need. */
export type RunHead = Omit<TrendRun, 'checks' | 'trials'>;

/** The columns of `needlework_runs` for a run, `INSERT_RUN_ROW`'s `$1`-`$17`. */
function runParams(run: TrendRun): unknown[] {
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
    run.root ?? null,
  ];
}

/** A statement and its parameters. */
export interface Statement {
  sql: string;
  params?: readonly unknown[];
}

/** The `seq` of the run the statements before it in this session inserted. */
const THIS_RUN = "currval(pg_get_serial_sequence('needlework_runs', 'seq'))";

/**
 * Checks a statement of an append inserts. Each statement's parameters and its work in the database are held at
 * once: a run of 30,000 checks (each with its evidence and workup path) in one statement held 145 MB more at its peak,
 * in 5,000s 12-31 MB, in the same time (0.95 s on the embedded engine).
 */
export const CHECKS_PER_STATEMENT = 5000;

/**
 * The statements that append a run, to be run in order in one transaction: its row (`runParams`), its checks a
 * `CHECKS_PER_STATEMENT` at a time, then its metric means (`closingStatements`). Each check column is one
 * parameter (`checkParams`): the JSON array of its values, which `json_array_elements_text` turns back into rows, the
 * order of the run's checks kept as `ord`. A JSON text is one string to hand to the store's thread and for the database
 * to read, where an array parameter is a value each to copy and to write as an array literal (30,000 checks on the
 * embedded engine: 435-490 -> 362-370 ms an append, before checks kept their evidence).
 */
export function appendStatements(run: TrendRun): Statement[] {
  return [runRowStatement(run), ...checkStatements(run.checks, 0), ...closingStatements(run)];
}

/** The statements that insert `checks` of the run inserted last, the first at the run's position `first`. */
export function checkStatements(checks: readonly TrendCheck[], first: number): Statement[] {
  const statements: Statement[] = [];
  for (let at = 0; at < checks.length; at += CHECKS_PER_STATEMENT)
    statements.push({
      sql: INSERT_CHECKS,
      params: [...checkParams(checks.slice(at, at + CHECKS_PER_STATEMENT)), first + at],
    });
  return statements;
}

/**
 * What ends an append, after the run's row and checks: its metric means (`metricMeans`, as every reader of a run in
 * memory computes them, whatever order its rows were stored in), and the notice the store's listeners (`needlework
 * ui` over a server) hear once its transaction commits.
 */
export function closingStatements(run: TrendRun): Statement[] {
  const means = metricMeans([run]).map((s) => ({
    spec: text(s.spec),
    criterion: text(s.criterion),
    metric: text(s.metric),
    unit: s.unit === undefined ? null : text(s.unit),
    lower_is_better: s.lowerIsBetter,
    // As text: NaN and ±Infinity, which JSON cannot write, are read by PostgreSQL's float8.
    mean: s.means[0] === undefined ? null : String(s.means[0]),
  }));
  return [
    { sql: INSERT_RUN_METRICS, params: [JSON.stringify(means)] },
    { sql: `SELECT pg_notify('${RUNS_CHANNEL}', 'run ' || ${THIS_RUN})` },
  ];
}

const INSERT_RUN_METRICS = `INSERT INTO needlework_run_metrics (run, spec, criterion, metric, unit, lower_is_better, mean)
SELECT ${THIS_RUN}, m.spec, m.criterion, m.metric, m.unit, m.lower_is_better, m.mean::float8
FROM json_to_recordset($1::json) AS m(spec text, criterion text, metric text, unit text, lower_is_better boolean,
  mean text)`;

/** The run row's columns, `$1`-`$17` of `runParams`. */
const RUN_ROW_COLUMNS = `id, time, time_text, commit, branch, base_branch, source, scope, scope_key, model,
  agent_version, checks, passed, failed, not_applicable, skipped, root`;
const RUN_ROW_VALUES =
  '$1, $2::timestamptz, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $17';

const INSERT_RUN_ROW = `INSERT INTO needlework_runs (${RUN_ROW_COLUMNS}) VALUES (${RUN_ROW_VALUES})`;

/** The run's row as inserted first (`runRowStatement`), `runParams` of the run as it ended. */
const UPDATE_RUN_ROW = `UPDATE needlework_runs SET (${RUN_ROW_COLUMNS}) = (${RUN_ROW_VALUES}) WHERE seq = ${THIS_RUN}`;

/** The statement that inserts a run's row (`update`: sets the row this session inserted last to it). */
export function runRowStatement(run: TrendRun, { update = false }: { update?: boolean } = {}): Statement {
  return { sql: update ? UPDATE_RUN_ROW : INSERT_RUN_ROW, params: runParams(run) };
}

/** Checks of the run inserted last (`checkParams` as `$1`-`$18`), the first at the run's position `$19`. */
const INSERT_CHECKS = `INSERT INTO needlework_checks (run, ord, spec, "case", workup, task, trial_number, trial_label,
  criterion, metric, value, value_boolean, unit, threshold, comparator, verdict, state, reason, workup_path, evidence)
SELECT ${THIS_RUN}, t.ord - 1 + $19::integer, t.spec, t.case_id, t.workup, t.task, t.trial_number::float8,
  t.trial_label, t.criterion, t.metric, t.value::float8, t.value_boolean::boolean, t.unit, t.threshold::float8,
  t.comparator, t.verdict, t.state, t.reason, t.workup_path, t.evidence
FROM ROWS FROM (${Array.from({ length: 18 }, (_, k) => `json_array_elements_text($${k + 1}::json)`).join(', ')})
  WITH ORDINALITY AS t(spec, case_id, workup, task, trial_number, trial_label, criterion, metric, value,
  value_boolean, unit, threshold, comparator, verdict, state, reason, workup_path, evidence, ord)`;

/**
 * The check parameters of `INSERT_CHECKS` (`$1`-`$18`): a JSON array per column. Numbers go as their text (`String`
 * writes NaN and ±Infinity as PostgreSQL reads them, JSON has neither), and text as it would go as a parameter: a
 * lone UTF-16 surrogate, which JSON would escape and PostgreSQL refuse, as U+FFFD (what UTF-8 makes of it).
 */
function checkParams(checks: readonly TrendCheck[]): string[] {
  const columns: unknown[][] = Array.from({ length: 18 }, () => new Array(checks.length));
  checks.forEach((c, i) => {
    const row = [
      text(c.spec),
      text(c.case),
      text(c.workup),
      text(c.task),
      typeof c.trial === 'number' ? String(c.trial) : null,
      typeof c.trial === 'string' ? text(c.trial) : null,
      text(c.criterion),
      text(c.metric),
      typeof c.value === 'number' ? String(c.value) : null,
      typeof c.value === 'boolean' ? c.value : null,
      text(c.unit),
      c.threshold === undefined ? null : String(c.threshold),
      text(c.comparator),
      text(c.verdict),
      text(c.state),
      text(c.reason),
      text(c.workupPath),
      c.evidence ? text(stringifyJson(c.evidence)) : null,
    ];
    for (let k = 0; k < row.length; k++) (columns[k] as unknown[])[i] = row[k];
  });
  return columns.map((column) => JSON.stringify(column));
}

function text(value: string | undefined): string | null {
  // `String.prototype.toWellFormed` (Node 20), which TypeScript's ES2023 library does not declare.
  return value === undefined ? null : (value as unknown as { toWellFormed(): string }).toWellFormed();
}

export const RUN_COLUMNS = `seq::integer AS seq, id, time_text, commit, branch, base_branch, source, scope, model,
  agent_version, checks, passed, failed, not_applicable, skipped, root`;

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
  root: string | null;
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
  if (row.root !== null) head.root = row.root;
  if (row.model !== null || row.agent_version !== null)
    head.environment = {
      ...(row.model !== null && { model: row.model }),
      ...(row.agent_version !== null && { agentVersion: row.agent_version }),
    };
  return head;
}

/** The columns of a check's row, in `CheckRow`'s order: each the name of a `CheckRow` field (`"case"` is quoted). */
const CHECK_FIELDS = [
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
] as const satisfies ReadonlyArray<keyof CheckRow>;

const column = (field: string) => (field === 'case' ? '"case"' : field);

/** The columns of a check's row as a SELECT list, in `CheckRow`'s order (for reading some checks as rows). */
export const CHECK_COLUMNS = CHECK_FIELDS.map(column).join(', ');

/**
 * The checks of the run `$1`, as one JSON array of columns, each column the JSON array of its values in the checks'
 * order: the database writes a value per check, not an object with every key (10,000 checks x 16 columns: 0.10 s on
 * the embedded engine against 0.25 s for `json_agg` of the rows), and `checkRowsOfColumns` reads them back.
 */
export const CHECK_COLUMNS_JSON = checkColumnsJson('$1');

/**
 * `CHECK_COLUMNS_JSON` of the run numbered `run` (a parameter, or a column of an outer query); `whole` adds each
 * check's workup path and evidence (`WHOLE_CHECK_FIELDS`), which only an export reads with a whole run.
 */
export function checkColumnsJson(run: string, whole = false): string {
  return `SELECT json_build_array(${(whole ? WHOLE_CHECK_FIELDS : CHECK_FIELDS)
    .map((field) => `coalesce(json_agg(${column(field)} ORDER BY ord), '[]')`)
    .join(', ')})::text AS columns FROM needlework_checks WHERE run = ${run}`;
}

/** The columns a whole check adds to `CHECK_FIELDS`: what the workup view reads of it. */
const WHOLE_CHECK_FIELDS = [...CHECK_FIELDS, 'workup_path', 'evidence'] as const;

/**
 * The rows of `checkColumnsJson`'s columns; with each check's workup path and evidence where the text holds their
 * columns too (`whole`).
 */
export function checkRowsOfColumns(columns: readonly (readonly unknown[])[]): CheckRow[] {
  const fields = columns.length === WHOLE_CHECK_FIELDS.length ? WHOLE_CHECK_FIELDS : CHECK_FIELDS;
  const count = columns[0]?.length ?? 0;
  const rows: CheckRow[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const row: Record<string, unknown> = {};
    for (let k = 0; k < fields.length; k++) row[fields[k]!] = columns[k]?.[i] ?? null;
    rows[i] = row as unknown as CheckRow;
  }
  return rows;
}

/**
 * A check's row, as JSON (`json_agg`): a float that JSON cannot write (NaN, Infinity) comes as its text, `"NaN"`.
 */
export interface CheckRow {
  spec: string;
  case: string | null;
  workup: string;
  task: string | null;
  trial_number: number | string | null;
  trial_label: string | null;
  criterion: string;
  metric: string;
  value: number | string | null;
  value_boolean: boolean | null;
  unit: string | null;
  threshold: number | string | null;
  comparator: TrendCheck['comparator'] | null;
  verdict: TrendCheck['verdict'];
  state: TrendCheck['state'];
  reason: string | null;
  /** Read only with one workup's checks, or with a whole run (`WHOLE_CHECK_FIELDS`). */
  workup_path?: string | null;
  /** The evidence as JSON text; read as `workup_path` is. */
  evidence?: string | null;
}

/** A check's row as the check it records (with its workup path and evidence, where the row holds them). */
export function trendCheck(row: CheckRow): TrendCheck {
  const check: TrendCheck = {
    spec: row.spec,
    ...(row.case !== null && { case: row.case }),
    workup: row.workup,
    ...(row.task !== null && { task: row.task }),
    ...(row.trial_number !== null && { trial: Number(row.trial_number) }),
    ...(row.trial_label !== null && { trial: row.trial_label }),
    criterion: row.criterion,
    metric: row.metric,
    value: row.value !== null ? Number(row.value) : row.value_boolean,
    verdict: row.verdict,
    state: row.state,
  };
  if (row.unit !== null) check.unit = row.unit;
  if (row.threshold !== null) check.threshold = Number(row.threshold);
  if (row.comparator !== null) check.comparator = row.comparator;
  if (row.reason !== null) check.reason = row.reason;
  if (row.workup_path != null) check.workupPath = row.workup_path;
  const evidence = parsedEvidence(row.evidence);
  if (evidence) check.evidence = evidence;
  return check;
}

/** A check's stored evidence (JSON text) as the object it was; none where it is absent or not an object. */
function parsedEvidence(text: string | null | undefined): Record<string, unknown> | undefined {
  if (text == null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The run of a head and its checks (read in the order of their `ord`), in the history's order, with the trials
 * counted from the checks. A run appended in one piece is stored in that order already (checked in one pass); one
 * appended while its tests ran is stored in the order they ended, and sorted here.
 */
export function fullRun(head: RunHead & { seq?: number }, checks: TrendCheck[]): TrendRun {
  const { seq: _, ...rest } = head;
  for (let i = 1; i < checks.length; i++)
    if (historyOrder(checks[i - 1]!, checks[i]!) > 0) {
      checks.sort(historyOrder);
      break;
    }
  return { ...rest, checks, trials: trendTrials(checks) };
}
