import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { RunComparison } from '../../history/compare.js';
import { isEmbeddedStore } from '../../history/store/embedded.js';
import { isLockTimeout } from '../../history/store/lock.js';
import {
  isServerUrl,
  type OpenStoreOptions,
  openSource,
  openStore,
  storeName,
} from '../../history/store/open.js';
import type { RunFilter, RunSource, TrendOverview } from '../../history/store/source.js';
import type { SqlEngine } from '../../history/store/sql.js';
import { type RetentionPolicy, Store } from '../../history/store/store.js';
import type { TrendRun } from '../../history/types.js';
import { isAlive } from '../../io/atomic.js';
import { type RouteAnswer, workupRoute } from '../workup-route.js';
import {
  type DoorArguments,
  type DoorFile,
  type DoorOperation,
  doorPath,
  policyToWire,
  toWire,
} from './protocol.js';

/** How long one try at the embedded store's lock lasts before looking again for a UI's door. */
const LOCK_TRY_MS = 1_000;

/**
 * Opens the results store at `location` as `openStore` does, except that while `needlework ui` has the embedded store
 * open, the store answers through the UI's door (`DoorFile`) instead of waiting for its lock: a run appends while
 * the UI is open, and the UI shows it at once. Should the UI go away (closed, or killed) mid-run, the store opens
 * itself and carries on: nothing is lost. A PostgreSQL server needs no door: each side opens its own connection.
 */
export async function openSharedStore(location: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (isServerUrl(location)) return openStore(location, options);
  const deadline = Date.now() + (options.lockTimeoutMs ?? 300_000);
  for (;;) {
    const door = await readDoor(location);
    if (door && (await reachable(door))) return new DoorStore(location, door, options);
    const remaining = deadline - Date.now();
    try {
      // Short tries at the lock, so that a UI opening the store meanwhile is found by its door, not waited for.
      return await openStore(location, {
        ...options,
        lockTimeoutMs: Math.max(0, Math.min(remaining, LOCK_TRY_MS)),
      });
    } catch (error) {
      if (remaining <= LOCK_TRY_MS || !isLockTimeout(error)) throw error;
    }
  }
}

/**
 * Opens what `needlework trend`, `report` and the gate read runs from, as `openSource` does, except that an embedded
 * store a UI holds is read through its door (`openSharedStore`) instead of waiting for the UI to close.
 */
export async function openSharedSource(location: string, root: string): Promise<RunSource> {
  if (isServerUrl(location)) return openSource(location, root);
  const path = resolve(root, location);
  if (!(await isEmbeddedStore(path))) return openSource(location, root);
  return openSharedStore(path, { mustExist: true });
}

/**
 * A stored run's workup as `needlework ui` answers it (`workupRoute`), through the UI's door when the UI holds the
 * store (`openSharedStore`).
 */
export function storedWorkup(
  store: Store,
  run: string,
  workup: string,
  file: string | null,
): Promise<RouteAnswer> {
  return store instanceof DoorStore
    ? store.workup(run, workup, file)
    : workupRoute(store.engine, run, workup, file);
}

/** The door of the store in `dir`, when a UI on this host that still runs wrote one. */
export async function readDoor(dir: string): Promise<DoorFile | undefined> {
  try {
    const door = JSON.parse(await readFile(doorPath(dir), 'utf8')) as DoorFile;
    if (typeof door?.url !== 'string' || typeof door.token !== 'string') return undefined;
    if (door.host !== hostname() || !isAlive(door.pid)) return undefined;
    return door;
  } catch {
    return undefined;
  }
}

async function reachable(door: DoorFile): Promise<boolean> {
  try {
    await call(door, 'count', {});
    return true;
  } catch {
    return false;
  }
}

/** The door refused or failed an operation (as opposed to being gone). */
class DoorError extends Error {}

async function call<Op extends DoorOperation>(
  door: DoorFile,
  op: Op,
  args: DoorArguments[Op],
): Promise<unknown> {
  const response = await fetch(`${door.url}/door/${op}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${door.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const text = await response.text();
  if (!response.ok) throw new DoorError(`the results store, through needlework ui: ${text.split('\n')[0]}`);
  return JSON.parse(text);
}

/** No engine: a store behind the door is reached through its operations only. */
const NO_ENGINE: SqlEngine = {
  kind: 'embedded',
  query: () =>
    Promise.reject(new Error('the results store is open in needlework ui: it is reached through its door')),
  exec: () =>
    Promise.reject(new Error('the results store is open in needlework ui: it is reached through its door')),
  transaction: () =>
    Promise.reject(new Error('the results store is open in needlework ui: it is reached through its door')),
  close: () => Promise.resolve(),
};

/**
 * The store behind a UI's door: each operation is one request to the UI's process, which runs it on the store it
 * holds open. When the door is gone (the UI closed or died: the connection is refused or cut), the store opens itself
 * and the operation runs there; an append sent again that way is an import, so a run the UI committed before it died
 * is not added twice.
 */
class DoorStore extends Store {
  private local: Promise<Store> | undefined;

  constructor(
    private readonly location: string,
    private readonly door: DoorFile,
    private readonly options: OpenStoreOptions,
  ) {
    super(NO_ENGINE, storeName(location));
  }

  private async through<T>(
    op: DoorOperation,
    args: DoorArguments[DoorOperation],
    fallback: (store: Store) => Promise<T>,
  ): Promise<T> {
    if (!this.local) {
      try {
        return (await call(this.door, op, args as never)) as T;
      } catch (error) {
        if (error instanceof DoorError) throw error;
        // The UI is gone: its lock is stale now, and the store opens at once.
        this.local = openStore(this.location, this.options);
      }
    }
    return fallback(await this.local);
  }

  /** A run appended through the door goes in one piece (`append`). */
  override streamAppend(): undefined {
    return undefined;
  }

  override append(run: TrendRun): Promise<void> {
    return this.through('append', { run }, async (store) => void (await store.import([run])));
  }

  override import(runs: readonly TrendRun[]): Promise<{ added: number; present: number }> {
    return this.through('import', { runs: [...runs] }, (store) => store.import(runs));
  }

  override prune(policy: RetentionPolicy): Promise<number> {
    return this.through('prune', { policy: policyToWire(policy) }, (store) => store.prune(policy));
  }

  override count(filter: RunFilter = {}): Promise<number> {
    return this.through('count', { filter: toWire(filter) }, (store) => store.count(filter));
  }

  override async latest(filter: RunFilter = {}): Promise<TrendRun | undefined> {
    return (
      (await this.through<TrendRun | null | undefined>('latest', { filter: toWire(filter) }, (store) =>
        store.latest(filter),
      )) ?? undefined
    );
  }

  override async runsById(ids: readonly string[]): Promise<TrendRun[]> {
    const runs = [];
    for (const id of ids) {
      const run = await this.run(id);
      if (run) runs.push(run);
    }
    return runs;
  }

  override async latestId(filter: RunFilter = {}): Promise<string | undefined> {
    return (await this.latest(filter))?.id;
  }

  override async run(id: string, options: { whole?: boolean } = {}): Promise<TrendRun | undefined> {
    const whole = options.whole === true;
    return (
      (await this.through<TrendRun | null | undefined>('run', { id, whole }, (store) =>
        store.run(id, { whole }),
      )) ?? undefined
    );
  }

  override async keepComparison(runId: string, comparison: RunComparison): Promise<void> {
    await this.through('keep-comparison', { run: runId, comparison }, (store) =>
      store.keepComparison(runId, comparison),
    );
  }

  override overview(last: number): Promise<TrendOverview> {
    return this.through('overview', { last }, (store) => store.overview(last));
  }

  override ids(): Promise<string[]> {
    return this.through('ids', {}, (store) => store.ids());
  }

  workup(run: string, workup: string, file: string | null): Promise<RouteAnswer> {
    return this.through('workup', { run, workup, file }, (store) =>
      workupRoute(store.engine, run, workup, file),
    );
  }

  override async close(): Promise<void> {
    const local = this.local;
    this.local = undefined;
    if (local) await (await local).close();
  }
}
