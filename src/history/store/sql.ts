/** What the store asks of a database: one SQL dialect (PostgreSQL's), whichever engine runs it. */
export interface SqlClient {
  /** Runs one statement with `$1, $2, ...` parameters and resolves its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of statements without parameters. */
  exec(sql: string): Promise<void>;
}

/** An open connection to a store's database: the embedded engine (PGlite) or a PostgreSQL server. */
export interface SqlEngine extends SqlClient {
  readonly kind: 'embedded' | 'server';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T>;
  /**
   * Runs the statements in order in one transaction, committed when every one succeeds. The embedded engine has it:
   * its thread runs them on one message, where a transaction of several statements is a round trip each, each waiting
   * for a turn of a main thread that may be busy (writing the reports, computing the gate).
   */
  batch?(statements: ReadonlyArray<{ sql: string; params?: readonly unknown[] }>): Promise<void>;
  close(): Promise<void>;
}
