import { randomBytes } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { acquireLock } from './lock.js';
import type { SqlClient, SqlEngine } from './sql.js';

export interface EmbeddedOptions {
  /**
   * How long to wait (ms) for another process that has the store open.
   * @default 300000
   */
  lockTimeoutMs?: number;
  /** Refuse to create the store when the folder does not exist (readers: `trend`, `export`, `prune`). */
  mustExist?: boolean;
  /** Called once the store's thread has been asked to open it, or once the lock is found held by another process. */
  started?: () => void;
}

/**
 * PostgreSQL's shared buffers for the embedded engine. PGlite's default (128 MB) puts an append at about 380 MB of
 * peak RSS; 16 MB holds the working set of an append or a trend query and keeps it near 230 MB (bench/store.bench.mjs).
 */
const SHARED_BUFFERS = '16MB';

/**
 * Opens the embedded store in `dir`: PGlite (PostgreSQL compiled to WebAssembly, from the npm registry, no compile
 * step, no download), which runs in one process. So that many processes can append to one store (16 test runs, or a
 * run and `needlework trend`), each holds a lock file beside the folder (`<dir>.lock`, with its pid and host) from
 * open to close; a lock whose owner died (`kill -9`) is reclaimed at once, and the database itself recovers from its
 * write-ahead log like any PostgreSQL, losing at most the transaction that was open.
 */
export async function openEmbedded(dir: string, options: EmbeddedOptions = {}): Promise<SqlEngine> {
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory()) throw new Error('it is a file, not a store folder');
  if (info) {
    const entries = await readdir(dir);
    if (entries.length > 0 && !entries.includes('PG_VERSION'))
      throw new Error(
        `the folder holds files but is not a needlework store (it has no PG_VERSION)${
          entries.includes('trend.json')
            ? `; its trend.json is a history to read (\`needlework trend ${join(dir, 'trend.json')}\`) or import (\`needlework trend import\`)`
            : ''
        }`,
      );
  } else if (options.mustExist) {
    throw new Error('no such store (run the tests with the trend reporter first)');
  }
  await mkdir(dirname(dir), { recursive: true });
  const release = await acquireLock(`${dir}.lock`, {
    timeoutMs: options.lockTimeoutMs ?? 300_000,
    // A live holder may keep the store for as long as a long import takes; a dead one is found by its pid.
    staleMs: 24 * 3600_000,
    ...(options.started && { waiting: options.started }),
  });
  const thread = new PgliteThread();
  try {
    baselineWasmOnly();
    const settings = ['-c', `shared_buffers=${SHARED_BUFFERS}`];
    if (!info) await seed(dir, async (at) => void (await thread.call('create', { at, settings })));
    const open = thread.call('open', { dir, settings });
    options.started?.();
    await open;
  } catch (error) {
    await thread.stop();
    await release();
    throw error;
  }
  const client = (tx?: number): SqlClient => ({
    query: <Row>(sql: string, params?: readonly unknown[]) =>
      thread.call('query', { sql, params, tx }) as Promise<Row[]>,
    exec: async (sql: string) => {
      await thread.call('exec', { sql, tx });
    },
  });
  let transactions = 0;
  return {
    kind: 'embedded',
    ...client(),
    batch: async (statements) => {
      await thread.call('batch', { statements });
    },
    transaction: async (fn) => {
      const tx = ++transactions;
      await thread.call('begin', { tx });
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn(client(tx));
      } catch (error) {
        await thread.call('end', { tx, commit: false }).catch(() => undefined);
        throw error;
      }
      await thread.call('end', { tx, commit: true });
      return result;
    },
    close: async () => {
      try {
        await thread.call('close', {});
      } finally {
        await thread.stop();
        await release();
      }
    },
  };
}

/**
 * The thread the embedded store's database runs in (`pglite-thread.js`), and the requests waiting for its answers.
 * It keeps the process alive only while a request waits: a process that ends without closing the store exits as it
 * did when the database ran on the main thread.
 */
class PgliteThread {
  private readonly worker = new Worker(new URL('./pglite-thread.js', import.meta.url));
  private readonly waiting = new Map<
    number,
    { done: (value: unknown) => void; fail: (error: Error) => void }
  >();
  private next = 0;
  private ended: Error | undefined;

  constructor() {
    this.worker.unref();
    this.worker.on(
      'message',
      ({ id, value, error }: { id: number; value?: unknown; error?: ThreadError }) => {
        const request = this.settle(id);
        if (error) request?.fail(Object.assign(new Error(error.message), error.code && { code: error.code }));
        else request?.done(value);
      },
    );
    this.worker.on('error', (error) => this.end(error));
    this.worker.on('exit', (code) =>
      this.end(new Error(`the embedded store's thread stopped (exit code ${code})`)),
    );
  }

  /** Sends one request (see `pglite-thread.js`) and resolves its answer. */
  call(op: string, request: Record<string, unknown>): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const id = ++this.next;
    if (this.waiting.size === 0) this.worker.ref();
    return new Promise((done, fail) => {
      this.waiting.set(id, { done, fail });
      this.worker.postMessage({ id, op, ...request });
    });
  }

  async stop(): Promise<void> {
    this.ended ??= new Error('the embedded store is closed');
    await this.worker.terminate();
  }

  private settle(id: number) {
    const request = this.waiting.get(id);
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
    return request;
  }

  /** The thread failed or stopped: every request still waiting fails with `error`. */
  private end(error: Error): void {
    this.ended ??= error;
    for (const id of [...this.waiting.keys()]) this.settle(id)?.fail(error);
  }
}

interface ThreadError {
  message: string;
  code?: string;
}

/**
 * Keeps the WebAssembly compiled from here on to V8's baseline compiler (Liftoff). PostgreSQL is 9 MB of it, and by
 * default V8 recompiles every function that runs hot with its optimising compiler (TurboFan) on background threads:
 * for a process that opens the store once, runs a few statements and closes it (an append at the end of a test run,
 * `needlework trend`), that is CPU and memory spent on code that never runs long enough to pay them back.
 * Measured on the 2-core development VM (2026-11-27): `needlework trend --last 20` over 1,000 runs of 10,000 checks
 * 0.77-0.85 s and 225-233 MB without, 0.49-0.62 s and 135 MB with; a 1,000-case `needlework run` 5.7-6.5 s of CPU
 * without, 4.4-5.6 s with; a 10,000-check append in a process that has already made nine is slower (0.40 s against
 * 0.27 s), which no command does. The flag is process-wide: other WebAssembly compiled later runs unoptimised too.
 */
function baselineWasmOnly(): void {
  v8.setFlagsFromString('--liftoff-only');
}

/**
 * Fills the new store folder `dir` with an empty database cluster: a copy of one made once per machine and PGlite
 * version in `$XDG_CACHE_HOME/needlework/` (or `~/.cache/needlework/`), since PGlite's initdb costs seconds of CPU
 * (3 s idle, 20 s on a loaded CI machine) and a copy a fraction of one. The cached cluster is made in a folder of
 * its own and renamed into place, so processes making it at once never see half of one. Where the cache cannot be
 * written, `create` makes the cluster in `dir` itself.
 */
async function seed(dir: string, create: (at: string) => Promise<void>): Promise<void> {
  try {
    const pglite = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
    const { version } = JSON.parse(await readFile(join(dirname(pglite), '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const cache = join(
      process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'),
      'needlework',
      `pglite-${version}-cluster`,
    );
    if (!(await stat(join(cache, 'PG_VERSION')).catch(() => undefined))) {
      const temp = `${cache}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await mkdir(dirname(cache), { recursive: true });
      await create(temp);
      // Another process may have put its cluster there first: then this one is not needed.
      await rename(temp, cache).catch(() => rm(temp, { recursive: true, force: true }));
    }
    await cp(cache, dir, { recursive: true });
  } catch {
    await rm(dir, { recursive: true, force: true });
    await create(dir);
  }
}

/** Whether `dir` holds an embedded store. */
export async function isEmbeddedStore(dir: string): Promise<boolean> {
  return (await stat(join(dir, 'PG_VERSION')).catch(() => undefined)) !== undefined;
}
