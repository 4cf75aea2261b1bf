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
  close(): Promise<void>;
}
