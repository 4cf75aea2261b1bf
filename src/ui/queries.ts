import { RUN_COLUMNS, runHead, type RunRow as StoredRun } from '../history/store/rows.js';
import type { SqlClient } from '../history/store/sql.js';
import type { CasePoint, Facets, RunRow } from './client/types.js';
import { runRow } from './rows.js';

/** The Runs view's filters: each narrows the list; all absent lists every run. */
export interface RunsQuery {
  branch?: string;
  model?: string;
  /** Runs that ended at or after this time (ISO 8601 or a date). */
  from?: string;
  /** Runs that ended before this time (ISO 8601 or a date). */
  to?: string;
}

function where(query: RunsQuery): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (make: (p: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(make(`$${params.length}`));
  };
  if (query.branch !== undefined) add((p) => `branch = ${p}`, query.branch);
  if (query.model !== undefined) add((p) => `model = ${p}`, query.model);
  if (query.from !== undefined) add((p) => `time >= ${p}::timestamptz`, query.from);
  if (query.to !== undefined) add((p) => `time < ${p}::timestamptz`, query.to);
  return { sql: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', params };
}

/**
 * One page of runs, newest first, without their checks: the index on (time, seq) orders them, so the first page of
 * 10,000 runs reads as few rows as the first page of 10.
 */
export async function runsPage(
  db: SqlClient,
  query: RunsQuery,
  offset: number,
  limit: number,
): Promise<{ total: number; rows: RunRow[] }> {
  const w = where(query);
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM needlework_runs${w.sql}`,
    w.params,
  );
  const rows = await db.query<StoredRun>(
    `SELECT ${RUN_COLUMNS} FROM needlework_runs${w.sql} ORDER BY time DESC, seq DESC LIMIT $${w.params.length + 1} OFFSET $${w.params.length + 2}`,
    [...w.params, limit, offset],
  );
  return { total: count?.n ?? 0, rows: rows.map((row) => runRow(runHead(row))) };
}

/** The runs appended after the run numbered `seq` (the store's own order), oldest first, with their numbers. */
export async function runsAfter(db: SqlClient, seq: number): Promise<Array<{ seq: number; row: RunRow }>> {
  const rows = await db.query<StoredRun>(
    `SELECT ${RUN_COLUMNS} FROM needlework_runs WHERE seq > $1 ORDER BY seq`,
    [seq],
  );
  return rows.map((row) => ({ seq: row.seq, row: runRow(runHead(row)) }));
}

/** The highest run number the store holds (0 when empty). */
export async function lastSeq(db: SqlClient): Promise<number> {
  const [row] = await db.query<{ seq: number | null }>(
    'SELECT max(seq)::integer AS seq FROM needlework_runs',
  );
  return row?.seq ?? 0;
}

/** The branches and models the runs name, in byte order. */
export async function facets(db: SqlClient): Promise<Facets> {
  const branches = await db.query<{ v: string }>(
    'SELECT DISTINCT branch AS v FROM needlework_runs WHERE branch IS NOT NULL ORDER BY 1',
  );
  const models = await db.query<{ v: string }>(
    'SELECT DISTINCT model AS v FROM needlework_runs WHERE model IS NOT NULL ORDER BY 1',
  );
  return { branches: branches.map((r) => r.v), models: models.map((r) => r.v) };
}

interface CaseRow {
  run: string;
  time: string;
  commit: string | null;
  branch: string | null;
  model: string | null;
  agent_version: string | null;
  criterion: string;
  workup: string;
  trial_number: number | null;
  trial_label: string | null;
  verdict: CasePoint['verdict'];
  value: number | string | null;
  value_boolean: boolean | null;
  unit: string | null;
  reason: string | null;
}

/**
 * Every check of one case (spec x case x task, where a workup that names no task is its own task) across every run,
 * oldest first: what the One case view draws. Skipped and interrupted checks decided nothing and are left out.
 */
export async function caseChecks(
  db: SqlClient,
  ref: { spec: string; case?: string; task: string },
): Promise<CasePoint[]> {
  const rows = await db.query<CaseRow>(
    `SELECT r.id AS run, r.time_text AS time, r.commit, r.branch, r.model, r.agent_version, c.criterion, c.workup,
       c.trial_number, c.trial_label, c.verdict, c.value, c.value_boolean, c.unit, c.reason
     FROM needlework_checks c JOIN needlework_runs r ON r.seq = c.run
     WHERE c.spec = $1 AND c."case" IS NOT DISTINCT FROM $2 AND coalesce(c.task, c.workup) = $3
       AND c.state NOT IN ('skipped', 'pending')
     ORDER BY r.time, r.seq, c.ord`,
    [ref.spec, ref.case ?? null, ref.task],
  );
  return rows.map((row) => {
    const value = row.value !== null ? Number(row.value) : row.value_boolean;
    const point: CasePoint = {
      run: row.run,
      time: row.time,
      criterion: row.criterion,
      workup: row.workup,
      verdict: row.verdict,
      value: typeof value === 'number' && !Number.isFinite(value) ? null : value,
    };
    if (row.commit !== null) point.commit = row.commit;
    if (row.branch !== null) point.branch = row.branch;
    if (row.model !== null) point.model = row.model;
    if (row.agent_version !== null) point.agentVersion = row.agent_version;
    if (row.trial_number !== null) point.trial = Number(row.trial_number);
    if (row.trial_label !== null) point.trial = row.trial_label;
    if (row.unit !== null) point.unit = row.unit;
    if (row.reason !== null) point.reason = row.reason;
    return point;
  });
}
