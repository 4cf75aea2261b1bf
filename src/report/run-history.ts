import { buildTrendRun } from '../history/entry.js';
import { casesToName, formatCaseChanges, formatCaseDrop, formatComparison } from '../history/gate.js';
import type { TrendTableData } from '../history/means.js';
import {
  type CaseRef,
  type ChangeStatus,
  type CriterionComparison,
  compareRuns,
  DEFAULT_LEVEL,
  pairCases,
} from '../history/significance.js';
import { openSource } from '../history/store/open.js';
import type { RunSource } from '../history/store/source.js';
import type { TrendRun } from '../history/types.js';
import type { CheckRecord } from './checks.js';
import { afterTrendBaseline, afterTrendWrite, trendWriteBegun } from './pending-trend.js';

/** The statistical gate of a run against the stored run it is compared with, as every report shows it. */
export interface RunGate {
  /** The run compared with, in words: `the run of 2026-11-22T21:00:00.000Z (main @ a1b2c3d)`. */
  baseline: string;
  level: number;
  comparisons: readonly CriterionComparison[];
  cases: { added: readonly CaseRef[]; removed: readonly CaseRef[] };
}

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
  charted(): Promise<TrendTableData | undefined>;
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
  let own: Promise<{ baseline?: TrendRun; charted?: TrendTableData }> | undefined;
  const readOwn = () => {
    own ??= readSource(location, root, startedAt);
    return own;
  };
  let gate: Promise<RunGate | undefined> | undefined;
  let charted: Promise<TrendTableData | undefined> | undefined;
  return {
    gate: () => {
      gate ??= trendWriteBegun().then(() =>
        afterTrendBaseline(location, async (lent) => {
          const baseline = lent ? lent.baseline : (await readOwn()).baseline;
          // The run the trend reporter built is this run, when it was built from these checks.
          const current = lent?.checks === checks ? lent.run : undefined;
          return baseline && gateAgainst(baseline, current ?? buildTrendRun(checks, {}));
        }),
      );
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
}

/** The baseline and the charted runs, read from the store or trend.json at `location` (opened and closed here). */
async function readSource(
  location: string,
  root: string,
  startedAt: Date,
): Promise<{ baseline?: TrendRun; charted?: TrendTableData }> {
  // No store yet, or one that cannot be read, only means no gate and no charts.
  const source = await openSource(location, root).catch(() => undefined);
  if (!source) return {};
  try {
    const baseline = await baselineOf(source, startedAt).catch(() => undefined);
    const charted = await source.overview(CHARTED_RUNS).catch(() => undefined);
    return { ...(baseline && { baseline }), ...(charted && { charted }) };
  } finally {
    await source.close().catch(() => undefined);
  }
}

/** The run a run that started at `startedAt` is compared with: the latest that ended before it started. */
export function baselineOf(source: RunSource, startedAt: Date): Promise<TrendRun | undefined> {
  return source.latest({ endedBefore: startedAt.toISOString() });
}

function gateAgainst(baseline: TrendRun, current: TrendRun): RunGate {
  return {
    baseline: baselineLabel(baseline),
    level: DEFAULT_LEVEL,
    comparisons: compareRuns(baseline, current),
    cases: pairCases(baseline, current),
  };
}

/** `the run of 2026-11-22T21:00:00.000Z (main @ a1b2c3d)`. */
function baselineLabel(run: TrendRun): string {
  const at = [run.branch, run.commit?.slice(0, 7)].filter(Boolean).join(' @ ');
  return `the run of ${run.time}${at ? ` (${at})` : ''}`;
}

/** The gate in the words every report uses: the same lines in the job summary, the JUnit file and the HTML page. */
export interface GateText {
  /** `Regression gate against the run of ... (significance level 0.05)`. */
  heading: string;
  /** `1 regressed, 0 improved, 0 flaky, 5 no change detectable.` */
  counts: string;
  /** `3 cases added, 1 removed (not compared): added ...; removed ...`, when any case is in one run only. */
  apart?: string;
  /** Each criterion that moved, or has a case that fell significantly on its own, with the cases that dropped. */
  criteria: Array<{ status: ChangeStatus; spec: string; criterion: string; text: string; drops: string[] }>;
}

/** `1 regressed, 0 improved, 0 flaky, 5 no change detectable.`: the criteria compared, by status. */
export function statusCounts(comparisons: readonly CriterionComparison[]): string {
  const counts: Record<ChangeStatus, number> = { regressed: 0, improved: 0, flaky: 0, 'no-change': 0 };
  for (const c of comparisons) counts[c.status]++;
  return `${counts.regressed} regressed, ${counts.improved} improved, ${counts.flaky} flaky, ${counts['no-change']} no change detectable.`;
}

export function gateText(gate: RunGate): GateText {
  const apart = formatCaseChanges(gate.cases.added, gate.cases.removed);
  return {
    heading: `Regression gate against ${gate.baseline} (significance level ${gate.level})`,
    counts: statusCounts(gate.comparisons),
    ...(apart && { apart }),
    criteria: gate.comparisons
      .filter((c) => c.status !== 'no-change' || casesToName(c).length > 0)
      .map((c) => ({
        status: c.status,
        spec: c.spec,
        criterion: c.criterion,
        text: formatComparison(c),
        drops: casesToName(c).map(formatCaseDrop),
      })),
  };
}
