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

/**
 * The runs appended after the run numbered `seq` (the store's own order), and those numbered `also`, oldest first,
 * with their numbers.
 */
export async function runsAfter(
  db: SqlClient,
  seq: number,
  also: readonly number[] = [],
): Promise<Array<{ seq: number; row: RunRow }>> {
  const rows = await db.query<StoredRun>(
    `SELECT ${RUN_COLUMNS} FROM needlework_runs WHERE seq > $1 OR seq = ANY($2::bigint[]) ORDER BY seq`,
    [seq, also],
  );
  return rows.map((row) => ({ seq: row.seq, row: runRow(runHead(row)) }));
}

/** How many checks each run of `ids` holds (the runs the store holds). */
export async function checkCounts(db: SqlClient, ids: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ id: string; checks: number }>(
    'SELECT id, checks FROM needlework_runs WHERE id = ANY($1::text[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.checks]));
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

/** How many runs of a case the One case view shows, newest first: a square each in its strip of each criterion. */
export const CASE_RUNS = 200;

/** The conditions that pick one case's decided checks (`c`), as the index `needlework_checks_case` is keyed. */
function caseWhere(ref: { spec: string; case?: string; task: string }): { sql: string; params: unknown[] } {
  return ref.case === undefined
    ? {
        sql: `c.spec = $1 AND c."case" IS NULL AND coalesce(c.task, c.workup) = $2 AND c.state NOT IN ('skipped', 'pending')`,
        params: [ref.spec, ref.task],
      }
    : {
        sql: `c.spec = $1 AND c."case" = $2 AND coalesce(c.task, c.workup) = $3 AND c.state NOT IN ('skipped', 'pending')`,
        params: [ref.spec, ref.case, ref.task],
      };
}

const POINT_COLUMNS = `r.id AS run, r.time_text AS time, r.commit, r.branch, r.model, r.agent_version, c.criterion,
  c.workup, c.trial_number, c.trial_label, c.verdict, c.value, c.value_boolean, c.unit, c.reason`;

/** Runs in the store's order, newest first: by the time they ended, then by the order they were added. */
const newestFirst = (a: { time: string; seq: number }, b: { time: string; seq: number }) =>
  Date.parse(b.time) - Date.parse(a.time) || b.seq - a.seq;

/**
 * The checks of one case (spec x case x task, where a workup that names no task is its own task) in the newest
 * `runs` runs that hold it, oldest first, and whether older runs were left out; and, for each criterion among them,
 * its first failing check in the whole history. Skipped and interrupted checks decided nothing and are left out.
 *
 * Everything is read through the indexes of checks by case (migration 4), so 10,000 runs cost what 10 do,
 * whether the case is in every run or in two: the newest runs holding it by run number (the index's order), then
 * those added earlier that ended later (only an import of runs makes any), then their checks; and a criterion's first
 * failure as the failing check of the lowest run number, then among the runs added after it that ended before it.
 */
export async function caseChecks(
  db: SqlClient,
  ref: { spec: string; case?: string; task: string },
  runs = CASE_RUNS,
): Promise<{ points: CasePoint[]; truncated: boolean; firstFailures: Map<string, CasePoint> }> {
  const w = caseWhere(ref);
  const n = w.params.length;
  type Held = { seq: number; time: string };
  // One step down the index a run (a loose index scan): the planner has no statistics of the index's expression in a
  // store nothing analyses (PGlite runs no autovacuum), and with them guessed it read every check of the case.
  const bySeq = await db.query<Held>(
    `WITH RECURSIVE held(run) AS (
       (SELECT c.run FROM needlework_checks c WHERE ${w.sql} ORDER BY c.run DESC LIMIT 1)
       UNION ALL
       SELECT (SELECT c.run FROM needlework_checks c WHERE ${w.sql} AND c.run < held.run ORDER BY c.run DESC LIMIT 1)
       FROM held WHERE held.run IS NOT NULL
     )
     SELECT r.seq::integer AS seq, r.time_text AS time
     FROM (SELECT run FROM held WHERE run IS NOT NULL LIMIT $${n + 1}) h JOIN needlework_runs r ON r.seq = h.run`,
    [...w.params, runs + 1],
  );
  let held = bySeq.sort(newestFirst);
  const truncated = held.length > runs;
  if (truncated) {
    // The newest `runs` by number hold the newest by time, but for runs added before them that ended after the
    // last one kept.
    const last = held[runs - 1] as Held;
    const lowest = Math.min(...held.map((r) => r.seq));
    const late = await db.query<Held>(
      `SELECT r.seq::integer AS seq, r.time_text AS time FROM needlework_runs r
       WHERE r.seq < $${n + 1} AND (r.time, r.seq) > (SELECT time, seq FROM needlework_runs WHERE seq = $${n + 2})
         AND EXISTS (SELECT 1 FROM needlework_checks c WHERE c.run = r.seq AND ${w.sql})`,
      [...w.params, lowest, last.seq],
    );
    held = [...held, ...late].sort(newestFirst).slice(0, runs);
  }
  // Each run's checks of the case found in the index (OFFSET 0 keeps the planner from reading all of them at once).
  const [found] = held.length
    ? await db.query<{ points: string }>(
        `SELECT coalesce(json_agg(p ORDER BY p.t, p.s, p.ord), '[]')::text AS points FROM (
           SELECT ${POINT_COLUMNS}, r.time AS t, r.seq AS s, c.ord
           FROM unnest($${n + 1}::bigint[]) x(seq) JOIN needlework_runs r ON r.seq = x.seq
           CROSS JOIN LATERAL (SELECT * FROM needlework_checks c WHERE c.run = x.seq AND ${w.sql} OFFSET 0) c) p`,
        [...w.params, held.map((r) => r.seq)],
      )
    : [];
  const points = (JSON.parse(found?.points ?? '[]') as CaseRow[]).map(casePoint);
  const criteria = [...new Set(points.map((p) => p.criterion))];
  const firstFailures = new Map<string, CasePoint>();
  if (criteria.length === 0) return { points, truncated, firstFailures };
  const failing = `${w.sql} AND c.criterion = x.criterion AND c.verdict = 'fail'`;
  const first = await db.query<CaseRow>(
    `SELECT f.* FROM unnest($${n + 1}::text[]) x(criterion)
     CROSS JOIN LATERAL (SELECT c.run FROM needlework_checks c WHERE ${failing} ORDER BY c.run LIMIT 1) lowest
     JOIN needlework_runs r0 ON r0.seq = lowest.run
     CROSS JOIN LATERAL (
       SELECT ${POINT_COLUMNS} FROM (
         SELECT lowest.run AS seq
         UNION ALL
         SELECT e.seq FROM needlework_runs e WHERE (e.time, e.seq) < (r0.time, r0.seq) AND e.seq > lowest.run
       ) earlier
       JOIN needlework_runs r ON r.seq = earlier.seq
       CROSS JOIN LATERAL (SELECT * FROM needlework_checks c WHERE c.run = earlier.seq AND ${failing} OFFSET 0) c
       ORDER BY r.time, r.seq, c.ord LIMIT 1
     ) f`,
    [...w.params, criteria],
  );
  for (const row of first) firstFailures.set(row.criterion, casePoint(row));
  return { points, truncated, firstFailures };
}

function casePoint(row: CaseRow): CasePoint {
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
}
