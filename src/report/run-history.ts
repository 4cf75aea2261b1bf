import { type CompareOptions, compare } from '../history/compare.js';
import { buildTrendRun } from '../history/entry.js';
import { findBaseline } from '../history/gate.js';
import { detectRevision, type Revision } from '../history/revision.js';
import { openSource } from '../history/store/open.js';
import type { TrendOverview } from '../history/store/source.js';
import type { TrendRun } from '../history/types.js';
import type { CheckRecord } from './checks.js';
import { gateText, type RunGate } from './gate-text.js';

import { afterTrendBaseline, afterTrendWrite, trendWriteBegun } from './pending-trend.js';

/** How many of the latest runs the HTML report's charts show. */
export const CHARTED_RUNS = 30;

/**
 * What the reporters of a run read of the runs before it, each read when first asked for: the gate against its
 * baseline, and the runs to chart. Either resolves to undefined without an earlier run, or when the history cannot be
 * read (a report never fails for want of one).
 */
export interface RunHistory {
  gate(): Promise<RunGate | undefined>;
  /** The last `CHARTED_RUNS` runs, this one included, with their metric means. */
  charted(): Promise<TrendOverview | undefined>;
  /** This run as the history keeps it (the trend reporter's, when one appends it), its baseline and its gate. */
  compared(): Promise<ComparedRun>;
}

/** A run of the history, with its baseline and its gate against it when it has one. */
export interface ComparedRun {
  run: TrendRun;
  baseline?: TrendRun;
  gate?: RunGate;
}

// The JUnit, HTML and summary reporters of one run share one read of the store (one open, one gate), keyed weakly by
// the run's check collection (`collectChecks` hands each reporter of a run the same array) and the store.
const histories = new WeakMap<readonly CheckRecord[], Map<string, RunHistory>>();

/**
 * The history of the store or trend.json at `location` as this run's reports show it: the gate (the default of
 * `needlework trend` and `run`) of this run's checks against the latest run that ended before this run started, and
 * the runs the charts draw. A trend reporter of this run lends the baseline it read before its append (the gate is
 * computed and the reports built while the append runs in the store's thread) and its open store after the append
 * (so the charts include this run); without one, the history is read from `location` once for both.
 */
export function runHistory(
  checks: readonly CheckRecord[],
  location: string,
  root: string,
  startedAt: Date,
): RunHistory {
  let byStore = histories.get(checks);
  if (!byStore) {
    byStore = new Map();
    histories.set(checks, byStore);
  }
  let history = byStore.get(location);
  if (!history) {
    history = readHistory(checks, location, root, startedAt);
    byStore.set(location, history);
  }
  return history;
}

function readHistory(
  checks: readonly CheckRecord[],
  location: string,
  root: string,
  startedAt: Date,
): RunHistory {
  let own: Promise<{ baseline?: TrendRun; charted?: TrendOverview; revision?: Revision }> | undefined;
  const readOwn = () => {
    own ??= readSource(location, root, startedAt);
    return own;
  };
  let compared: Promise<ComparedRun> | undefined;
  let gate: Promise<RunGate | undefined> | undefined;
  let charted: Promise<TrendOverview | undefined> | undefined;
  const read: RunHistory = {
    compared: () => {
      compared ??= trendWriteBegun().then(() =>
        afterTrendBaseline(location, async (lent) => {
          // The run and gate the trend reporter built are this run's, when built from these checks: every output
          // renders that one comparison, with the gate options the run was given.
          if (lent?.checks === checks)
            return {
              run: lent.run,
              ...(lent.baseline && { baseline: lent.baseline }),
              ...(lent.gate && { gate: lent.gate }),
            };
          const mine = lent ? undefined : await readOwn();
          const baseline = lent ? lent.baseline : mine?.baseline;
          const run = await ownRun(checks, root, mine?.revision);
          return { run, ...(baseline && { baseline, gate: gateOf(run, baseline) }) };
        }),
      );
      return compared;
    },
    gate: () => {
      gate ??= read.compared().then((c) => c.gate);
      return gate;
    },
    charted: () => {
      charted ??= trendWriteBegun().then(() =>
        afterTrendWrite(location, async (lent) =>
          lent ? lent.store.overview(CHARTED_RUNS).catch(() => undefined) : (await readOwn()).charted,
        ),
      );
      return charted;
    },
  };
  return read;
}

/**
 * A run as the history would keep it, built from its checks here (no trend reporter appends it): its revision
 * (`detectRevision`, unless given), ended now, full, its workups' paths from `root`.
 */
export async function ownRun(
  checks: readonly CheckRecord[],
  root: string,
  revision?: Revision,
): Promise<TrendRun> {
  const found = revision ?? (await detectRevision(root).catch(() => ({})));
  return buildTrendRun(checks, found, new Date(), { kind: 'full' }, root);
}

/** The baseline and the charted runs, read from the store or trend.json at `location` (opened and closed here). */
async function readSource(
  location: string,
  root: string,
  startedAt: Date,
): Promise<{ baseline?: TrendRun; charted?: TrendOverview; revision?: Revision }> {
  // No store yet, or one that cannot be read, only means no gate and no charts.
  const source = await openSource(location, root).catch(() => undefined);
  if (!source) return {};
  try {
    const revision = await detectRevision(root);
    const baseline = await findBaseline(
      source,
      { scope: { kind: 'full' }, ...revision },
      startedAt.toISOString(),
    )
      .then((found) => found.run)
      .catch(() => undefined);
    const charted = await source.overview(CHARTED_RUNS).catch(() => undefined);
    return { revision, ...(baseline && { baseline }), ...(charted && { charted }) };
  } finally {
    await source.close().catch(() => undefined);
  }
}

/** The gate of `current` against `baseline`, compared with `options` (the default gate without). */
export function gateOf(current: TrendRun, baseline: TrendRun, options: CompareOptions = {}): RunGate {
  const comparison = compare(current, baseline, options);
  return { comparison, text: gateText(comparison) };
}
