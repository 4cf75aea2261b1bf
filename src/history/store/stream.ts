import type { TrendCheck, TrendRun } from '../types.js';
import { checkStatements, closingStatements, runRowStatement, type Statement } from './rows.js';
import type { SqlClient, SqlEngine } from './sql.js';

/**
 * A run appended while its tests run, on the embedded engine: one transaction from the run's first check to its end,
 * so that PostgreSQL in WebAssembly (20-50 µs a check) inserts the checks on the core the test worker leaves idle,
 * rather than after the last test while the run's end waits (30,000 checks: 1.2-1.6 s). Nothing is visible to
 * another reader before `finish` commits, and a run that never finishes (its process killed) leaves nothing, as an
 * append in one piece.
 */
export interface RunStream {
  /** Queues checks of the run, in the order their tests ended: they are inserted in that order (`fullRun` sorts). */
  add(checks: readonly TrendCheck[]): void;
  /** How many checks were queued. */
  readonly added: number;
  /**
   * Ends the append with the run as built after its tests, whose checks must be the ones added (the caller checks
   * that they are as many): its row takes the run's id, time and summary, its metric means are computed, and the
   * transaction commits. Rejects, having rolled everything back, when any statement failed.
   */
  finish(run: TrendRun): Promise<void>;
  /** Rolls back everything added (the caller appends the run in one piece instead). */
  abandon(): Promise<void>;
}

/** Thrown inside the stream's transaction to roll it back. */
const ABANDONED = Symbol('abandoned');

/**
 * Begins a streamed append on `engine`: the run's row is inserted at once as `provisional` has it (an id no other
 * run has; replaced at `finish`).
 */
export function streamAppend(engine: SqlEngine, provisional: TrendRun): RunStream {
  let decide!: (commit: boolean) => void;
  const decided = new Promise<boolean>((done) => {
    decide = done;
  });
  let begin!: (tx: SqlClient) => void;
  const begun = new Promise<SqlClient>((done) => {
    begin = done;
  });
  const transaction = engine
    .transaction(async (tx) => {
      begin(tx);
      if (!(await decided)) throw ABANDONED;
    })
    .catch((error: unknown) => {
      if (error !== ABANDONED) throw error;
    });
  // Its failure is `finish`'s to report (a stream never finished, its store closed, fails nothing).
  transaction.catch(() => undefined);
  // A transaction that could not begin fails every statement queued on it.
  const client = Promise.race([
    begun,
    transaction.then(() => {
      throw new Error('the transaction ended before it began');
    }),
  ]);
  const row = runRowStatement(provisional);
  let work: Promise<unknown> = client.then((tx) => tx.query(row.sql, row.params));
  let failure: { error: unknown } | undefined;
  const run = (statements: readonly Statement[]) => {
    work = work.then(async () => {
      const tx = await client;
      for (const { sql, params } of statements) await tx.query(sql, params);
    });
    // The first failure is kept for `finish`; the statements after it are not sent.
    work = work.catch((error: unknown) => {
      failure ??= { error };
      throw error;
    });
    work.catch(() => undefined);
  };
  let added = 0;
  return {
    get added() {
      return added;
    },
    add(checks) {
      if (checks.length === 0) return;
      run(checkStatements(checks, added));
      added += checks.length;
    },
    async finish(ended) {
      run([runRowStatement(ended, { update: true }), ...closingStatements(ended)]);
      await work.catch(() => undefined);
      decide(!failure);
      await transaction;
      if (failure) throw failure.error;
    },
    async abandon() {
      await work.catch(() => undefined);
      decide(false);
      await transaction.catch(() => undefined);
    },
  };
}
