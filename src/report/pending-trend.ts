import type { RunSource } from '../history/store/source.js';
import type { TrendRun } from '../history/types.js';
import type { CheckRecord } from './checks.js';
import type { RunGate } from './gate-text.js';

/** What a trend write lends the reads of its run: its open store, and the run it appended (built from `checks`). */
export interface LentStore {
  store: RunSource;
  run: TrendRun;
  checks: readonly CheckRecord[];
}

/**
 * What a trend write tells the gate of its run's reports before it appends: the run it built, from `checks`, and the
 * run it is compared with (the latest that ended before this run started), read from its store before the append.
 */
export interface LentBaseline {
  run: TrendRun;
  checks: readonly CheckRecord[];
  baseline: TrendRun | undefined;
  /** The run's gate against the baseline, compared with the run's gate options; absent without a baseline. */
  gate: RunGate | undefined;
}

/**
 * The reads waiting for one thing a trend write lends: undefined once it has lent it (or ended). What is kept (the
 * baseline, plain data) is given to the reads that come later; an open store is not, since it is closed after.
 */
interface Stage<T> {
  borrowers: Array<(lent: T | undefined) => Promise<void>> | undefined;
  kept?: T;
}

interface Write {
  settled: Promise<void>;
  /** Settles once the write's store is being opened off the main thread (or failed to open). */
  started: Promise<void>;
  baseline: Stage<LentBaseline>;
  store: Stage<LentStore>;
}

/**
 * Trend writes in progress in this process, by store location. Vitest starts every reporter's `onTestRunEnd` at
 * once, so the JUnit, HTML and summary reporters look here. The gate that each report shows needs only the baseline,
 * which the trend reporter reads before it appends: the reports are built while the store's thread appends. The HTML
 * report's charts read the history after the append, through the store that reporter already has open, since opening
 * the embedded store (PGlite starting PostgreSQL) is most of the cost of reading it.
 */
const pending = new Map<string, Write>();

/**
 * Records a write to `path` until it settles. Reads still waiting then open the store themselves. `started` settles
 * once the write's store is being opened off the main thread (see `OpenStoreOptions.started`): what
 * `trendWriteBegun` waits for.
 */
export function trackTrendWrite<T>(
  path: string,
  write: Promise<T>,
  started: Promise<void> = Promise.resolve(),
): Promise<T> {
  const settled = write.then(
    () => undefined,
    () => undefined,
  );
  const entry: Write = {
    settled,
    started: Promise.race([started, settled]),
    baseline: { borrowers: [] },
    store: { borrowers: [] },
  };
  pending.set(path, entry);
  void entry.settled.then(async () => {
    if (pending.get(path) === entry) pending.delete(path);
    await Promise.all([lend(entry.baseline, undefined), lend(entry.store, undefined)]);
  });
  return write;
}

/**
 * Called by the trend write of `path` once it has its run and baseline, before it appends: starts every read waiting
 * for them, without waiting for the reads (the append goes on meanwhile).
 */
export function lendTrendBaseline(path: string, lent: LentBaseline): void {
  const entry = pending.get(path);
  if (!entry) return;
  entry.baseline.kept = lent;
  void lend(entry.baseline, lent);
}

/**
 * Called by the trend write of `path` with its store open, its run appended: runs every read waiting for the store
 * with them, and returns once they are done (the write closes the store after). Later reads open the store themselves.
 */
export async function lendTrendStore(path: string, lent: LentStore): Promise<void> {
  const entry = pending.get(path);
  if (entry) await lend(entry.store, lent);
}

async function lend<T>(stage: Stage<T>, lent: T | undefined): Promise<void> {
  const borrowers = stage.borrowers;
  stage.borrowers = undefined;
  if (borrowers) await Promise.all(borrowers.map((borrow) => borrow(lent)));
}

/**
 * Runs `read` once the trend write to `path` in progress (if any) has its baseline: with what it lends, else with
 * undefined (no write, or one that ended without lending), when `read` reads the baseline itself.
 */
export function afterTrendBaseline<T>(
  path: string,
  read: (lent: LentBaseline | undefined) => Promise<T>,
): Promise<T> {
  const entry = pending.get(path);
  return after(entry, entry?.baseline, read);
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
  return after(entry, entry?.store, read);
}

function after<L, T>(
  entry: Write | undefined,
  stage: Stage<L> | undefined,
  read: (lent: L | undefined) => Promise<T>,
): Promise<T> {
  const borrowers = stage?.borrowers;
  if (stage?.kept) return read(stage.kept);
  if (!borrowers) return (entry?.settled ?? Promise.resolve()).then(() => read(undefined));
  return new Promise<T>((resolve, reject) => {
    borrowers.push((lent) => read(lent).then(resolve, reject));
  });
}

/**
 * Resolves once a trend reporter of this run listed after the caller has begun its write and its store is being
 * opened off the main thread: Vitest calls every reporter's `onTestRunEnd` in the order of the reporters, each running
 * until its first await, so a reporter that awaits this first finds the write tracked, and lets the store's thread
 * start (PostgreSQL starting, then the baseline read) before its own building holds the main thread. The opening
 * takes a few turns of the event loop (the store's folder, its lock): a reporter that went on after one microtask
 * built its report first (10,000 cases in CI: the JUnit file's trial statistics and suites, 0.5-0.7 s before the
 * store's thread started, and the gate and the charts waited that much longer).
 */
export async function trendWriteBegun(): Promise<void> {
  await null;
  await Promise.all([...pending.values()].map((write) => write.started));
}
