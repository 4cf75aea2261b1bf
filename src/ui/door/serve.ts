import { timingSafeEqual } from 'node:crypto';
import type { Store } from '../../history/store/store.js';
import type { TrendRun } from '../../history/types.js';
import { workupRoute } from '../workup-route.js';
import {
  DOOR_OPERATIONS,
  type DoorArguments,
  type DoorOperation,
  fromWire,
  policyFromWire,
} from './protocol.js';

/** Whether `given` (an `Authorization` header) carries `token`, compared in constant time. */
export function authorized(given: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function isDoorOperation(name: string): name is DoorOperation {
  return (DOOR_OPERATIONS as readonly string[]).includes(name);
}

/**
 * Runs one door operation on the UI's open store. `appended` hears of every run the store gained (append and import),
 * once it is committed, and `pruned` of every prune that dropped runs, so the UI's views follow.
 */
export async function serveDoor(
  store: Store,
  op: DoorOperation,
  body: unknown,
  events: { appended: (runs: TrendRun[]) => void; pruned: () => void },
): Promise<unknown> {
  const args = (body ?? {}) as DoorArguments[DoorOperation];
  switch (op) {
    case 'append': {
      const { run } = args as DoorArguments['append'];
      // An append the UI committed but whose answer was lost is sent again by the run as an import: the store then
      // already holds it, and says so, rather than failing on the run's id.
      await store.append(run);
      events.appended([run]);
      return null;
    }
    case 'import': {
      const { runs } = args as DoorArguments['import'];
      const result = await store.import(runs);
      if (result.added) events.appended(runs);
      return result;
    }
    case 'prune': {
      const dropped = await store.prune(policyFromWire((args as DoorArguments['prune']).policy ?? {}));
      if (dropped) events.pruned();
      return dropped;
    }
    case 'count':
      return store.count(fromWire((args as DoorArguments['count']).filter));
    case 'latest':
      return (await store.latest(fromWire((args as DoorArguments['latest']).filter))) ?? null;
    case 'run': {
      const { id, whole } = args as DoorArguments['run'];
      return (await store.run(String(id), { whole: whole === true })) ?? null;
    }
    case 'overview':
      return store.overview(Number((args as DoorArguments['overview']).last));
    case 'ids':
      return store.ids();
    case 'keep-comparison': {
      const { run, comparison } = args as DoorArguments['keep-comparison'];
      await store.keepComparison(String(run), comparison);
      return null;
    }
    case 'workup': {
      const { run, workup, file } = args as DoorArguments['workup'];
      return workupRoute(store.engine, String(run), String(workup), file === null ? null : String(file));
    }
  }
}
