import type { SqlClient, SqlEngine } from './sql.js';

/**
 * Each spec x criterion metric's mean over the workups of the runs `where` selects (a boolean counted as 1 or 0,
 * as `metricMeans` counts it), kept per run so that the trend table and the charts of the last 20 runs read a few
 * hundred rows instead of 200,000 checks. Written with each append, and for every run by migration 2. `from` is
 * the checks' table, or the rows an append's statement has just inserted into it.
 */
export const RUN_METRICS = (
  where: string,
  from = 'needlework_checks',
): string => `INSERT INTO needlework_run_metrics
SELECT run, spec, criterion, min(metric), min(unit), coalesce(bool_or(comparator = '<='), false),
  avg(coalesce(value, CASE WHEN value_boolean THEN 1 WHEN NOT value_boolean THEN 0 END))
FROM ${from} WHERE ${where} GROUP BY run, spec, criterion`;

/**
 * The store's schema, one migration per version, oldest first; both engines run the same SQL. A migration is never
 * edited once released: a change is a new migration. `needlework_migrations` records which have been applied.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'runs and checks',
    sql: `
CREATE TABLE needlework_runs (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  time timestamptz NOT NULL,
  time_text text NOT NULL,
  commit text,
  branch text,
  base_branch text,
  source text,
  scope jsonb NOT NULL,
  scope_key text NOT NULL,
  model text,
  agent_version text,
  checks integer NOT NULL,
  passed integer NOT NULL,
  failed integer NOT NULL,
  not_applicable integer NOT NULL,
  skipped integer NOT NULL
);
CREATE INDEX needlework_runs_time ON needlework_runs (time, seq);
CREATE INDEX needlework_runs_baseline ON needlework_runs (scope_key, branch, time, seq);
CREATE TABLE needlework_checks (
  run bigint NOT NULL REFERENCES needlework_runs (seq) ON DELETE CASCADE,
  ord integer NOT NULL,
  spec text NOT NULL,
  "case" text,
  workup text NOT NULL,
  task text,
  trial_number double precision,
  trial_label text,
  criterion text NOT NULL,
  metric text NOT NULL,
  value double precision,
  value_boolean boolean,
  unit text,
  threshold double precision,
  comparator text,
  verdict text NOT NULL,
  state text NOT NULL,
  reason text,
  PRIMARY KEY (run, ord)
);`,
  },
  {
    version: 2,
    name: 'metric means per run',
    sql: `
CREATE TABLE needlework_run_metrics (
  run bigint NOT NULL REFERENCES needlework_runs (seq) ON DELETE CASCADE,
  spec text NOT NULL,
  criterion text NOT NULL,
  metric text NOT NULL,
  unit text,
  lower_is_better boolean NOT NULL,
  mean double precision,
  PRIMARY KEY (run, spec, criterion)
);
${RUN_METRICS('TRUE')}`,
  },
  {
    // A run's checks are written only with their run, in its transaction, and deleted with it by `Store.prune`: the
    // database's check of each check's run was 40% of an append (30,000 checks: 800 -> 470 ms on the embedded engine).
    version: 3,
    name: 'checks without a foreign key check',
    sql: 'ALTER TABLE needlework_checks DROP CONSTRAINT needlework_checks_run_fkey;',
  },
  {
    // What the workup view of `needlework ui` reads: where a run ran, where each check's workup is (relative to it),
    // and each check's evidence (JSON text: the expected tool calls and their alignment, a required path). Read only
    // with one workup's checks, never with a whole run.
    version: 4,
    name: "each check's workup path and evidence, and the run's root",
    sql: `
ALTER TABLE needlework_runs ADD COLUMN root text;
ALTER TABLE needlework_checks ADD COLUMN workup_path text;
ALTER TABLE needlework_checks ADD COLUMN evidence text;`,
  },
  {
    // One case's checks across every run (`needlework ui`'s One case view), which read every check of the store
    // without (10,000 runs x 30 checks: 1.9-4.2 s): by case, then run, so the newest runs holding a case are found
    // down the index; and the failing checks by case and criterion, so a criterion's first failure is the first entry.
    // Each costs an append an entry a check (the second only a failing one): bench/store.bench.mjs measures it, and
    // docs/store.md says what it costs. Keyed this way the first deduplicates its equal keys (a run's criteria and
    // trials of one case): 190 MB at 10 million checks, against 860 MB with the criterion and verdict in it.
    version: 5,
    name: 'checks by case',
    sql: `CREATE INDEX needlework_checks_case ON needlework_checks (spec, "case", (coalesce(task, workup)), run);
CREATE INDEX needlework_checks_failing ON needlework_checks (spec, "case", (coalesce(task, workup)), criterion, run)
  WHERE verdict = 'fail';`,
  },
  {
    // The comparison a run's gate made against its baseline when the run was appended (`Store.keepComparison`), as
    // JSON, with the needlework version that made it: `needlework ui` serves it for that pair rather than reading both
    // runs' checks and comparing them again (two runs of 30,000 checks: 3.4 MB, read and parsed in a tenth of the
    // time). One a run, gone with its run.
    version: 6,
    name: "each run's gate comparison",
    sql: `CREATE TABLE needlework_comparisons (
  run bigint PRIMARY KEY REFERENCES needlework_runs (seq) ON DELETE CASCADE,
  baseline text NOT NULL,
  version text NOT NULL,
  comparison text NOT NULL
);`,
  },
];

/** The schema version this needlework writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Brings a store's schema up to `SCHEMA_VERSION` in one transaction and returns the version it found (0: a new
 * store). An advisory lock taken first serialises concurrent first opens (16 CI jobs starting on an empty server), so
 * exactly one creates the tables and the others see them. A store newer than this needlework is refused, unchanged.
 * `onCreated` runs inside the same transaction when the store was new, so what it writes (an imported trend.json)
 * lands exactly once.
 */
export async function migrate(
  engine: SqlEngine,
  onCreated?: (tx: SqlClient) => Promise<void>,
): Promise<number> {
  // A store already at this version (every open but a store's first) needs no write, no lock and no commit: its
  // version is read alone. A new store (no table yet), an older one or a newer one goes through the transaction.
  const [current] = await engine
    .query<{ version: number | null }>('SELECT max(version)::integer AS version FROM needlework_migrations')
    .catch(() => [{ version: null }]);
  if (current?.version === SCHEMA_VERSION) return SCHEMA_VERSION;
  return engine.transaction(async (tx) => {
    // Any fixed key will do; this one spells "nw" and the schema's first year.
    await tx.query('SELECT pg_advisory_xact_lock(7887202601)');
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS needlework_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const [row] = await tx.query<{ version: number | null }>(
      'SELECT max(version)::integer AS version FROM needlework_migrations',
    );
    const found = row?.version ?? 0;
    if (found > SCHEMA_VERSION)
      throw new Error(
        `its schema is version ${found}, newer than this needlework knows (${SCHEMA_VERSION}); upgrade needlework`,
      );
    for (const migration of MIGRATIONS) {
      if (migration.version <= found) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO needlework_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    if (found === 0 && onCreated) await onCreated(tx);
    return found;
  });
}
