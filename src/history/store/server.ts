import type { Client } from 'pg';
import type { SqlClient, SqlEngine } from './sql.js';

/** Opens a connection to a PostgreSQL server (`postgres://user:password@host:port/database`), with node-postgres. */
export async function openServer(
  url: string,
  options: { connectTimeoutMs?: number } = {},
): Promise<SqlEngine> {
  const { default: pg } = await import('pg');
  const db: Client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: 'needlework',
  });
  // A connection the server drops later surfaces as the failed query's error; this only keeps it from crashing Node.
  db.on('error', () => undefined);
  await db.connect();
  const client: SqlClient = {
    query: async <Row>(sql: string, params?: readonly unknown[]) =>
      (await db.query(sql, params as unknown[] | undefined)).rows as Row[],
    exec: async (sql: string) => {
      await db.query(sql);
    },
  };
  return {
    kind: 'server',
    ...client,
    transaction: async (fn) => {
      await db.query('BEGIN');
      try {
        const result = await fn(client);
        await db.query('COMMIT');
        return result;
      } catch (error) {
        await db.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    close: () => db.end(),
  };
}

/** The URL with its password hidden, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}
