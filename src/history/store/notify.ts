import type { Client } from 'pg';

/**
 * The channel on which the store tells its listeners that it changed (PostgreSQL's LISTEN/NOTIFY): `run <seq>` from
 * each append and import, the last statement of the transaction that adds the run (`appendStatements`), and `prune`
 * from a prune that dropped runs. A server
 * delivers a notification when its transaction commits, and never one of a transaction rolled back.
 */
export const RUNS_CHANNEL = 'needlework_runs';

/** What a listener hears. */
export type StoreChange = { kind: 'run'; seq: number } | { kind: 'prune' };

export interface StoreListener {
  close(): Promise<void>;
}

/**
 * Listens to `RUNS_CHANNEL` of the PostgreSQL server at `url` on a connection of its own (a connection that runs
 * queries too would hold notifications back while a long one runs). `changed` hears each notification; `lost` hears
 * once that the connection ended (the server restarted, the network failed, the session was terminated), after which
 * nothing more is heard: the caller listens again. Resolves once the server has taken the LISTEN.
 */
export async function listenToStore(
  url: string,
  changed: (change: StoreChange) => void,
  lost: (reason: string) => void,
  options: { connectTimeoutMs?: number } = {},
): Promise<StoreListener> {
  const { default: pg } = await import('pg');
  const db: Client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: 'needlework ui (listen)',
    // A peer that vanished (a cable, a sleeping laptop) is found by TCP keep-alive rather than never.
    keepAlive: true,
  });
  let closing = false;
  let ended = false;
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    if (!closing) lost(reason);
  };
  db.on('error', (error) => end(error.message.split('\n')[0] ?? String(error)));
  db.on('end', () => end('the connection to the server ended'));
  db.on('notification', (message) => {
    if (message.channel !== RUNS_CHANNEL) return;
    const payload = message.payload ?? '';
    if (payload === 'prune') changed({ kind: 'prune' });
    else {
      const seq = Number(/^run (\d+)$/.exec(payload)?.[1]);
      if (Number.isSafeInteger(seq)) changed({ kind: 'run', seq });
    }
  });
  try {
    await db.connect();
    await db.query(`LISTEN ${RUNS_CHANNEL}`);
  } catch (error) {
    closing = true;
    await db.end().catch(() => undefined);
    throw error;
  }
  return {
    close: async () => {
      closing = true;
      await db.end().catch(() => undefined);
    },
  };
}
