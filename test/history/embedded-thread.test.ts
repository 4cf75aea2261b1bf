import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/history/store/open.js';
import type { Store } from '../../src/history/store/store.js';
import { useTmpDir } from '../helpers/tmp.js';
import { emptyEmbeddedStore } from './engines.js';

const tmp = useTmpDir();

async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
  const store = await openStore(await emptyEmbeddedStore(join(await tmp(), 'store')));
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}

/** The message ports keeping this thread's event loop alive (the store's thread is reached through one). */
const ports = () => process.getActiveResourcesInfo().filter((kind) => kind === 'MessagePort').length;

describe('the embedded store in a thread of its own', () => {
  it('keeps the process alive while a statement runs, and only then: a process that never closes its store ends', async () => {
    await withStore(async (store) => {
      const idle = ports();
      const running = store.engine.query('SELECT pg_sleep(0.05)');
      expect(ports()).toBe(idle + 1);
      await running;
      expect(ports()).toBe(idle);
    });
  });

  it("passes PostgreSQL's message and SQLSTATE code back from the thread", async () => {
    await withStore(async (store) => {
      const error = await store.engine.query('SELECT 1 / 0').catch((e: Error & { code?: string }) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe('division by zero');
      expect((error as { code?: string }).code).toBe('22012');
      // The thread goes on serving.
      expect(await store.engine.query('SELECT 2 AS n')).toEqual([{ n: 2 }]);
    });
  });

  it('runs a statement outside an open transaction after it, as PGlite does in one process', async () => {
    await withStore(async (store) => {
      await store.engine.exec('CREATE TABLE t (n integer)');
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const order: string[] = [];
      const transaction = store.engine.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (1)');
        await held;
        order.push('commit');
      });
      // Sent while the transaction is open: answered once it has committed, and sees its row.
      const outside = store.engine
        .query<{ n: number }>('SELECT count(*)::integer AS n FROM t')
        .then((rows) => {
          order.push('outside');
          return rows;
        });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual([]);
      release();
      await transaction;
      expect(await outside).toEqual([{ n: 1 }]);
      expect(order).toEqual(['commit', 'outside']);
    });
  });

  it('rolls back a transaction whose function throws, rethrows its error, and goes on serving', async () => {
    await withStore(async (store) => {
      await store.engine.exec('CREATE TABLE t (n integer)');
      const thrown = new Error('the append failed in JavaScript');
      await expect(
        store.engine.transaction(async (tx) => {
          await tx.query('INSERT INTO t VALUES (1)');
          throw thrown;
        }),
      ).rejects.toBe(thrown);
      expect(await store.engine.query('SELECT count(*)::integer AS n FROM t')).toEqual([{ n: 0 }]);
      await store.engine.transaction((tx) => tx.query('INSERT INTO t VALUES (2)'));
      expect(await store.engine.query('SELECT n FROM t')).toEqual([{ n: 2 }]);
    });
  });

  it('refuses a statement once the store is closed, in one line', async () => {
    const store = await openStore(await emptyEmbeddedStore(join(await tmp(), 'store')));
    await store.close();
    await expect(store.engine.query('SELECT 1')).rejects.toThrow(/^the embedded store is closed$/);
  });

  it('has the store opening in its thread (started) before this thread is free again: a busy thread holds back no open', async () => {
    const dir = await emptyEmbeddedStore(join(await tmp(), 'store'));
    const order: string[] = [];
    let settled = false;
    const opening = openStore(dir, {
      started: () => order.push(settled ? 'started after the open' : 'started'),
    });
    void opening.then(() => {
      settled = true;
    });
    // What the trend reporter does after the tests: wait for the store's thread to start, then a long synchronous
    // stretch (collecting the checks), during which no turn of this thread is given to the opening.
    await new Promise<void>((done) => {
      const poll = () => (order.length ? done() : setImmediate(poll));
      poll();
    });
    const busyUntil = performance.now() + 300;
    while (performance.now() < busyUntil);
    order.push('busy');
    const store = await opening;
    await store.close();
    expect(order).toEqual(['started', 'busy']);
  });
});
