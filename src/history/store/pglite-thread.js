// The embedded store's database in a thread of its own: PGlite (PostgreSQL compiled to WebAssembly) runs every
// statement synchronously on the thread that holds it, so on the main thread of a test run a 30,000-check append
// (0.8 s) and PostgreSQL's start (0.4 s) held up the JUnit and HTML reports, which the run's other core could have
// written meanwhile. `embedded.ts` starts this thread and speaks to it in messages; this file is plain JavaScript,
// because a worker thread is started from a file Node runs as it is (the tests run the TypeScript sources), and it
// does nothing but pass statements to PGlite and their rows or errors back.
//
// A request is `{ id, op, ... }`, answered by `{ id, value }` or `{ id, error: { message, code } }`:
// - `create { at, settings }`: makes an empty database cluster in the folder `at`, then closes it;
// - `open { dir, settings }`: opens the database in `dir` for the requests that follow;
// - `query { sql, params, tx }` and `exec { sql, tx }`: one statement (its rows) or a script, in the open transaction
//   `tx` or outside any (PGlite queues those behind an open transaction, as the in-process engine did);
// - `batch { statements }`: statements (`{ sql, params }`) run in order in one transaction of their own;
// - `begin { tx }`: opens transaction `tx`, answered once it is open; `end { tx, commit }` commits it or rolls it
//   back, answered once it has;
// - `close`: closes the database.
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @type {PGlite | undefined} */
let db;
/** The open transactions, by id: their client, and how to end them. */
const transactions = new Map();
/** Thrown inside a transaction that the main thread rolls back. */
const ROLLBACK = Symbol('rollback');

const handlers = {
  async create({ at, settings }) {
    await (await PGlite.create(at, startWith(settings))).close();
  },
  async open({ dir, settings }) {
    db = await PGlite.create(dir, startWith(settings));
  },
  async query({ sql, params, tx }) {
    return (await client(tx).query(sql, params)).rows;
  },
  async exec({ sql, tx }) {
    await client(tx).exec(sql);
  },
  async batch({ statements }) {
    await database().transaction(async (tx) => {
      for (const { sql, params } of statements) await tx.query(sql, params);
    });
  },
  begin({ tx }) {
    return new Promise((opened, failed) => {
      const done = database()
        .transaction(
          (client) =>
            new Promise((commit, rollback) => {
              transactions.set(tx, { client, commit, rollback, done });
              opened(undefined);
            }),
        )
        .catch((error) => {
          if (error !== ROLLBACK) throw error;
        });
      // A transaction that could not begin fails its `begin`; one that began fails its `end`.
      done.catch((error) => (transactions.has(tx) ? undefined : failed(error)));
    });
  },
  async end({ tx, commit }) {
    const transaction = transactions.get(tx);
    if (commit) transaction.commit();
    else transaction.rollback(ROLLBACK);
    try {
      await transaction.done;
    } finally {
      transactions.delete(tx);
    }
  },
  async close() {
    await db?.close();
    db = undefined;
  },
};

/** PGlite's options for PostgreSQL's own `-c name=value` settings, after PGlite's defaults. */
function startWith(settings) {
  return { startParams: [...PGlite.defaultStartParams, ...settings] };
}

function database() {
  if (!db) throw new Error('the embedded store is not open');
  return db;
}

function client(tx) {
  return tx === undefined ? database() : transactions.get(tx).client;
}

parentPort.on('message', async ({ id, op, ...request }) => {
  try {
    parentPort.postMessage({ id, value: await handlers[op](request) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error?.message ?? error), code: error?.code } });
  }
});
