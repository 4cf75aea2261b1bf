import { version } from '../../version.js';
import type { RunComparison } from '../compare.js';
import type { MetricSeries } from '../means.js';
import type { TrendRun } from '../types.js';
import { RUNS_CHANNEL } from './notify.js';
import {
  appendStatements,
  CHECK_COLUMNS_JSON,
  checkColumnsJson,
  checkRowsOfColumns,
  fullRun,
  RUN_COLUMNS,
  type RunHead,
  type RunRow,
  runHead,
  type Statement,
  trendCheck,
} from './rows.js';
import type { RunFilter, RunSource, TrendOverview } from './source.js';
import type { SqlClient, SqlEngine } from './sql.js';
import { type RunStream, streamAppend } from './stream.js';

/** Which runs `prune` drops: those outside the last `keepLast`, and those that ended before `olderThan`. */
export interface RetentionPolicy {
  keepLast?: number;
  olderThan?: Date;
}

/** A comparison kept with a run (`Store.keepComparison`): its baseline's id, and the comparison. */
export interface KeptComparison {
  baseline: string;
  comparison: RunComparison;
}

/** The results store: every run and every check of it as rows, on the embedded engine or a PostgreSQL server. */
export class Store implements RunSource {
  constructor(
    readonly engine: SqlEngine,
    /** The store's folder or redacted URL, for messages. */
    readonly name: string,
  ) {}

  /** Adds a run and its checks in one transaction: a crash mid-append leaves the store without that run, never half. */
  async append(run: TrendRun): Promise<void> {
    const statements = appendStatements(run);
    if (this.engine.batch) await this.engine.batch(statements);
    else await this.engine.transaction((tx) => insertRun(tx, statements));
  }

  /**
   * Begins appending a run while its tests run (see `RunStream`), on the embedded engine; undefined elsewhere: a
   * server appends a run in one piece fast enough, and a transaction held open for a whole test run there would meet
   * the server's idle-transaction timeouts. `provisional` is the run's row until it ends.
   */
  streamAppend(provisional: TrendRun): RunStream | undefined {
    return this.engine.kind === 'embedded' ? streamAppend(this.engine, provisional) : undefined;
  }

  /**
   * Adds the runs the store does not hold yet (by id), in one transaction, and says how many were added and how many
   * it already held.
   */
  async import(runs: readonly TrendRun[], client?: SqlClient): Promise<{ added: number; present: number }> {
    const work = async (tx: SqlClient) => {
      let added = 0;
      let present = 0;
      for (const run of runs) {
        const [row] = await tx.query('SELECT 1 FROM needlework_runs WHERE id = $1', [run.id]);
        if (row) present++;
        else {
          await insertRun(tx, appendStatements(run));
          added++;
        }
      }
      return { added, present };
    };
    return client ? work(client) : this.engine.transaction(work);
  }

  async count(filter: RunFilter = {}): Promise<number> {
    const { where, params } = await this.where(filter);
    const [row] = await this.engine.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM needlework_runs${where}`,
      params,
    );
    return row?.n ?? 0;
  }

  async latest(filter: RunFilter = {}): Promise<TrendRun | undefined> {
    const { where, params } = await this.where(filter);
    const [row] = await this.engine.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM needlework_runs${where} ORDER BY time DESC, seq DESC LIMIT 1`,
      params,
    );
    return row ? this.withChecks(row) : undefined;
  }

  /** The id of the latest run that passes the filter, without reading its checks. */
  async latestId(filter: RunFilter = {}): Promise<string | undefined> {
    const { where, params } = await this.where(filter);
    const [row] = await this.engine.query<{ id: string }>(
      `SELECT id FROM needlework_runs${where} ORDER BY time DESC, seq DESC LIMIT 1`,
      params,
    );
    return row?.id;
  }

  /**
   * The run of this id with its checks; `whole` adds each check's workup path and evidence, which the gate and the UI's
   * views of whole runs do not read (an export does).
   */
  async run(id: string, { whole = false }: { whole?: boolean } = {}): Promise<TrendRun | undefined> {
    const [row] = await this.engine.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM needlework_runs WHERE id = $1`,
      [id],
    );
    return row ? this.withChecks(row, whole) : undefined;
  }

  /** The runs of these ids the store holds, with their checks, in one statement (in no particular order). */
  async runsById(ids: readonly string[]): Promise<TrendRun[]> {
    if (ids.length === 0) return [];
    const rows = await this.engine.query<RunRow & { columns: string }>(
      `SELECT ${RUN_COLUMNS}, (${checkColumnsJson('r.seq')}) AS columns FROM needlework_runs r WHERE id = ANY($1::text[])`,
      [ids],
    );
    return rows.map(({ columns, ...row }) => fullRun(runHead(row), checksOfJson(columns)));
  }

  /** The heads of the runs of these ids the store holds, without their checks (in no particular order). */
  async runHeads(ids: readonly string[]): Promise<RunHead[]> {
    if (ids.length === 0) return [];
    const rows = await this.engine.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM needlework_runs WHERE id = ANY($1::text[])`,
      [ids],
    );
    return rows.map((row) => {
      const { seq: _, ...head } = runHead(row);
      return head;
    });
  }

  /**
   * Keeps with a stored run the comparison its gate made against its baseline (with the default options: what
   * `needlework ui` compares with), replacing any kept before; `keptComparisons` reads it back for this needlework
   * version. Not kept when JSON cannot carry it whole (a mean that is NaN or infinite), nor for a run the store does
   * not hold: the UI then compares the two runs itself, as it does for any other pair.
   */
  async keepComparison(runId: string, comparison: RunComparison): Promise<void> {
    let whole = true;
    const json = JSON.stringify(comparison, (_key, value: unknown) => {
      if (typeof value === 'number' && !Number.isFinite(value)) whole = false;
      return value;
    });
    if (!whole) return;
    await this.engine.query(
      `INSERT INTO needlework_comparisons (run, baseline, version, comparison)
       SELECT seq, $2, $3, $4 FROM needlework_runs WHERE id = $1
       ON CONFLICT (run) DO UPDATE SET baseline = excluded.baseline, version = excluded.version,
         comparison = excluded.comparison`,
      [runId, comparison.baseline.id, version, json],
    );
  }

  /**
   * The comparisons kept with the runs of these ids (`keepComparison`) by this needlework's version, by run id: one
   * kept by another version is not read (its `compare` may differ from this one's).
   */
  async keptComparisons(ids: readonly string[]): Promise<Map<string, KeptComparison>> {
    const kept = new Map<string, KeptComparison>();
    if (ids.length === 0) return kept;
    const rows = await this.engine.query<{ id: string; baseline: string; comparison: string }>(
      `SELECT r.id, c.baseline, c.comparison FROM needlework_comparisons c JOIN needlework_runs r ON r.seq = c.run
       WHERE r.id = ANY($1::text[]) AND c.version = $2`,
      [ids, version],
    );
    for (const row of rows)
      kept.set(row.id, { baseline: row.baseline, comparison: JSON.parse(row.comparison) as RunComparison });
    return kept;
  }

  /** The ids of every run, oldest first. */
  async ids(): Promise<string[]> {
    const rows = await this.engine.query<{ id: string }>('SELECT id FROM needlework_runs ORDER BY time, seq');
    return rows.map((row) => row.id);
  }

  /** Every run whole (`run`'s `whole`), oldest first, one at a time (for an export of any size). */
  async *runs(): AsyncIterable<TrendRun> {
    for (const id of await this.ids()) {
      const run = await this.run(id, { whole: true });
      if (run) yield run;
    }
  }

  /**
   * The last `last` runs without their checks, and each spec x criterion metric's mean over the workups of each run,
   * as kept when the run was appended (`closingStatements`, and migration 2's `RUN_METRICS` for runs appended before):
   * 20 runs of 10,000 checks read a few hundred rows, not 200,000.
   */
  async overview(last: number): Promise<TrendOverview> {
    const total = await this.count();
    const rows =
      last > 0
        ? await this.engine.query<RunRow>(
            `SELECT * FROM (SELECT ${RUN_COLUMNS}, time AS t FROM needlework_runs ORDER BY time DESC, seq DESC LIMIT $1) r ORDER BY t, seq`,
            [last],
          )
        : [];
    const heads = rows.map(runHead);
    const position = new Map(heads.map((head, i) => [head.seq, i]));
    // One JSON text, as a run's checks are read: 100 runs of 30 metrics are 3,000 rows, which PGlite's wire protocol
    // and row parser took 60 ms over (a mean JSON cannot write, NaN, comes as its text).
    const [found] = heads.length
      ? await this.engine.query<{ means: string }>(
          `SELECT coalesce(json_agg(m), '[]')::text AS means FROM (
             SELECT run::integer AS run, spec, criterion, metric, unit, lower_is_better AS lower, mean
             FROM needlework_run_metrics WHERE run = ANY($1::bigint[])) m`,
          [heads.map((head) => head.seq)],
        )
      : [];
    const means = (
      JSON.parse(found?.means ?? '[]') as Array<{
        run: number;
        spec: string;
        criterion: string;
        metric: string;
        unit: string | null;
        lower: boolean | null;
        mean: number | string | null;
      }>
    ).map((row) => ({ ...row, mean: row.mean === null ? null : Number(row.mean) }));
    const series = new Map<string, MetricSeries>();
    for (const row of means.sort((a, b) => (position.get(a.run) ?? 0) - (position.get(b.run) ?? 0))) {
      const key = `${row.spec}\0${row.criterion}`;
      let s = series.get(key);
      if (!s) {
        s = {
          spec: row.spec,
          criterion: row.criterion,
          metric: row.metric,
          ...(row.unit !== null && { unit: row.unit }),
          lowerIsBetter: row.lower === true,
          means: new Array(heads.length).fill(undefined),
        };
        series.set(key, s);
      }
      s.means[position.get(row.run) ?? 0] = row.mean ?? undefined;
    }
    return {
      total,
      runs: heads.map(({ seq: _, ...head }) => head),
      series: [...series.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s),
    };
  }

  /** Drops the runs the policy does not keep (and their checks) and returns how many. */
  async prune(policy: RetentionPolicy): Promise<number> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (policy.keepLast !== undefined) {
      params.push(policy.keepLast);
      conditions.push(
        `seq NOT IN (SELECT seq FROM needlework_runs ORDER BY time DESC, seq DESC LIMIT $${params.length})`,
      );
    }
    if (policy.olderThan !== undefined) {
      params.push(policy.olderThan.toISOString());
      conditions.push(`time < $${params.length}::timestamptz`);
    }
    if (conditions.length === 0) return 0;
    // The runs and their checks in one statement (the checks have no foreign key to cascade from: migration 3); the
    // store's listeners hear of it once (a transaction delivers identical notifications once).
    const rows = await this.engine.query(
      `WITH gone AS (DELETE FROM needlework_runs WHERE ${conditions.join(' OR ')} RETURNING seq),
         checks AS (DELETE FROM needlework_checks WHERE run IN (SELECT seq FROM gone))
       SELECT seq, pg_notify('${RUNS_CHANNEL}', 'prune') FROM gone`,
      params,
    );
    // The embedded engine runs no autovacuum: give the dropped rows' space back to the next appends.
    if (rows.length > 0 && this.engine.kind === 'embedded') await this.engine.exec('VACUUM');
    return rows.length;
  }

  close(): Promise<void> {
    return this.engine.close();
  }

  /**
   * The run of a row with its checks, read as one JSON text the database builds (`CHECK_COLUMNS_JSON`): a row a check
   * costs the embedded engine's wire protocol and its JavaScript field parser 2-3x the time (3,000 checks: 270-340 ms
   * cold, 90-200 ms warm, against 50-145 ms), on either engine.
   */
  private async withChecks(row: RunRow, whole = false): Promise<TrendRun> {
    const [result] = await this.engine.query<{ columns: string }>(
      whole ? checkColumnsJson('$1', true) : CHECK_COLUMNS_JSON,
      [row.seq],
    );
    return fullRun(runHead(row), checksOfJson(result?.columns));
  }

  /** The SQL condition of a filter. A run named by `before` or `after` is looked up by id for its time and order. */
  private async where(filter: RunFilter): Promise<{ where: string; params: unknown[] }> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      conditions.push(sql(`$${params.length}`));
    };
    if (filter.scopeKey !== undefined) add((p) => `scope_key = ${p}`, filter.scopeKey);
    if (filter.notScopeKey !== undefined) add((p) => `scope_key <> ${p}`, filter.notScopeKey);
    if (filter.branch !== undefined) add((p) => `branch = ${p}`, filter.branch);
    if (filter.excludeId !== undefined) add((p) => `id <> ${p}`, filter.excludeId);
    if (filter.endedBefore !== undefined) add((p) => `time < ${p}::timestamptz`, filter.endedBefore);
    for (const [run, op] of [
      [filter.before, '<'],
      [filter.after, '>'],
    ] as const) {
      if (!run) continue;
      add((p) => `(time, seq) ${op} (SELECT time, seq FROM needlework_runs WHERE id = ${p})`, run.id);
    }
    return { where: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', params };
  }
}

/** The checks of a `CHECK_COLUMNS_JSON` text. */
function checksOfJson(columns: string | undefined) {
  return checkRowsOfColumns(JSON.parse(columns ?? '[]') as unknown[][]).map(trendCheck);
}

/** Runs an append's statements in order, in the transaction of `client`. */
async function insertRun(client: SqlClient, statements: readonly Statement[]): Promise<void> {
  for (const { sql, params } of statements) await client.query(sql, params);
}
