import { readFile, unlink } from 'node:fs/promises';
import type { RunComparison } from '../../history/compare.js';
import type { RunFilter } from '../../history/store/source.js';
import type { RetentionPolicy } from '../../history/store/store.js';
import type { TrendRun } from '../../history/types.js';
import { writeFileAtomic } from '../../io/atomic.js';

/**
 * The door: while `needlework ui` has the embedded store open (its lock held from open to close), a run appends through
 * the UI's process instead of waiting for the lock. The UI writes this file beside the store (`<store>.ui.json`, like
 * the lock's `<store>.lock`), readable by its owner only, and removes it when it closes; a run that finds it sends its
 * store operations to `url` with the token, and opens the store itself when the UI is gone.
 */
export interface DoorFile {
  /** `http://127.0.0.1:<port>`: the door listens on loopback whatever `--host` says. */
  url: string;
  /** 32 random bytes in hex, sent as `Authorization: Bearer <token>`. */
  token: string;
  pid: number;
  host: string;
  /** When the UI opened the store (ISO 8601). */
  since: string;
}

/** Where the door file of the embedded store in `dir` lives. */
export function doorPath(dir: string): string {
  return `${dir}.ui.json`;
}

/**
 * Writes the door file readable and writable by its owner only (0600: the token opens the store to whoever reads it),
 * whole or not at all: a temporary file beside it, renamed into place.
 */
export async function writeDoor(path: string, door: DoorFile): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(door), { mode: 0o600 });
}

/** Removes the door file if it is still this UI's (another UI may have opened the store since this one let go). */
export async function removeDoor(path: string, token: string): Promise<void> {
  try {
    const door = JSON.parse(await readFile(path, 'utf8')) as Partial<DoorFile>;
    if (door.token === token) await unlink(path);
  } catch {
    // Gone already, or not ours to remove.
  }
}

/** The path of door requests: `/door/<operation>`. */
export const DOOR_PREFIX = '/door/';

/** The store operations the door serves: what a run's trend reporter and the store commands call. */
export const DOOR_OPERATIONS = [
  'append',
  'import',
  'prune',
  'count',
  'latest',
  'run',
  'overview',
  'ids',
  'workup',
  'keep-comparison',
] as const;
export type DoorOperation = (typeof DOOR_OPERATIONS)[number];

/** A filter as it crosses the door: the runs `before` and `after` name are sent by id (all the store reads of them). */
export interface WireFilter extends Omit<RunFilter, 'before' | 'after'> {
  before?: { id: string };
  after?: { id: string };
}

export function toWire(filter: RunFilter = {}): WireFilter {
  const { before, after, ...rest } = filter;
  return {
    ...rest,
    ...(before && { before: { id: before.id } }),
    ...(after && { after: { id: after.id } }),
  };
}

export function fromWire(filter: WireFilter = {}): RunFilter {
  // The store reads only the id of `before` and `after`.
  return filter as RunFilter;
}

/** A retention policy as it crosses the door: the date as ISO 8601. */
export interface WirePolicy {
  keepLast?: number;
  olderThan?: string;
}

export function policyToWire(policy: RetentionPolicy): WirePolicy {
  return {
    ...(policy.keepLast !== undefined && { keepLast: policy.keepLast }),
    ...(policy.olderThan !== undefined && { olderThan: policy.olderThan.toISOString() }),
  };
}

export function policyFromWire(policy: WirePolicy): RetentionPolicy {
  return {
    ...(policy.keepLast !== undefined && { keepLast: policy.keepLast }),
    ...(policy.olderThan !== undefined && { olderThan: new Date(policy.olderThan) }),
  };
}

/** What each operation takes across the door. */
export interface DoorArguments {
  append: { run: TrendRun };
  import: { runs: TrendRun[] };
  prune: { policy: WirePolicy };
  count: { filter?: WireFilter };
  latest: { filter?: WireFilter };
  run: { id: string; whole?: boolean };
  overview: { last: number };
  ids: Record<string, never>;
  /** A stored run's workup, as `needlework ui` answers it (`workupRoute`): `file` picks among its files (1-based). */
  workup: { run: string; workup: string; file: string | null };
  /** The comparison a run's gate made, kept with the run (`Store.keepComparison`). */
  'keep-comparison': { run: string; comparison: RunComparison };
}
