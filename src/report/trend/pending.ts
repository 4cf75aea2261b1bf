import type { RunSource } from '../../store/source.js';
import type { CheckRecord } from '../checks.js';
import type { TrendRun } from './types.js';

/** What a trend write lends the reads of its run: its open store, and the run it appended (built from `checks`). */
export interface LentStore {
  store: RunSource;
  run: TrendRun;
  checks: readonly CheckRecord[];
}

/** A read of the store waiting for the trend write of its run: given what the write lends, or nothing. */
type Borrower = (lent: LentStore | undefined) => Promise<void>;

interface Write {
  settled: Promise<void>;
  /** The reads waiting for the store; undefined once the write has lent it (or ended). */
  borrowers: Borrower[] | undefined;
}

/**
 * Trend writes in progress in this process, by store location. Vitest starts every reporter's `onTestRunEnd` at
 * once, so the JUnit, HTML and summary reporters look here: they read the history after the trend reporter of the
 * same run has appended to it, and through the store that reporter already has open, since opening the embedded
 * store (PGlite starting PostgreSQL) is most of the cost of reading it.
 */
const pending = new Map<string, Write>();

/** Records a write to `path` until it settles. Reads still waiting then open the store themselves. */
export function trackTrendWrite<T>(path: string, write: Promise<T>): Promise<T> {
  const entry: Write = {
    settled: write.then(
      () => undefined,
      () => undefined,
    ),
    borrowers: [],
  };
  pending.set(path, entry);
  void entry.settled.then(async () => {
    if (pending.get(path) === entry) pending.delete(path);
    await lend(entry, undefined);
  });
  return write;
}

/**
 * Called by the trend write of `path` with its store open, its run appended: runs every read waiting for the store
 * with them, and returns once they are done (the write closes the store after). Later reads open the store themselves.
 */
export async function lendTrendStore(path: string, lent: LentStore): Promise<void> {
  const entry = pending.get(path);
  if (entry) await lend(entry, lent);
}

async function lend(entry: Write, lent: LentStore | undefined): Promise<void> {
  const borrowers = entry.borrowers;
  entry.borrowers = undefined;
  if (borrowers) await Promise.all(borrowers.map((borrow) => borrow(lent)));
}

/**
 * Runs `read` once the trend write to `path` in progress (if any) has appended: with that write's open store when
 * it lends it, else with undefined (no write, or one that ended without lending), when `read` opens the store itself.
 */
export function afterTrendWrite<T>(
  path: string,
  read: (lent: LentStore | undefined) => Promise<T>,
): Promise<T> {
  const entry = pending.get(path);
  const borrowers = entry?.borrowers;
  if (!entry || !borrowers) return (entry?.settled ?? Promise.resolve()).then(() => read(undefined));
  return new Promise<T>((resolve, reject) => {
    borrowers.push((lent) => read(lent).then(resolve, reject));
  });
}
