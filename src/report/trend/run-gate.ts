import { openSource } from '../../store/open.js';
import type { CheckRecord } from '../checks.js';
import { buildTrendRun } from './entry.js';
import { casesToName, formatCaseChanges, formatCaseDrop, formatComparison } from './gate.js';
import { trendWriteSettled } from './pending.js';
import {
  type CaseRef,
  type ChangeStatus,
  type CriterionComparison,
  compareRuns,
  DEFAULT_LEVEL,
  pairCases,
} from './significance.js';
import type { TrendRun } from './types.js';

/** The statistical gate of a run against the stored run it is compared with, as every report shows it. */
export interface RunGate {
  /** The run compared with, in words: `the run of 2026-11-22T21:00:00.000Z (main @ a1b2c3d)`. */
  baseline: string;
  level: number;
  comparisons: readonly CriterionComparison[];
  cases: { added: readonly CaseRef[]; removed: readonly CaseRef[] };
}

// The JUnit, HTML and summary reporters of one run share one gate (one read of the store), keyed weakly by the run's
// check collection (`collectChecks` hands each reporter of a run the same array) and the store.
const gates = new WeakMap<readonly CheckRecord[], Map<string, Promise<RunGate | undefined>>>();

/**
 * The gate (the default of `needlework trend` and `run`) of this run's checks against the latest run of the store or
 * trend.json at `location` that ended before this run started; undefined when there is none, or the store cannot be
 * read (a report never fails for want of a baseline). Waits for a trend reporter of this run to finish its append.
 */
export function gateOfRun(
  checks: readonly CheckRecord[],
  location: string,
  root: string,
  startedAt: Date,
): Promise<RunGate | undefined> {
  let byStore = gates.get(checks);
  if (!byStore) {
    byStore = new Map();
    gates.set(checks, byStore);
  }
  let gate = byStore.get(location);
  if (!gate) {
    gate = computeGate(checks, location, root, startedAt);
    byStore.set(location, gate);
  }
  return gate;
}

async function computeGate(
  checks: readonly CheckRecord[],
  location: string,
  root: string,
  startedAt: Date,
): Promise<RunGate | undefined> {
  // Let a trend reporter of this run begin, then finish, its append (Vitest starts every onTestRunEnd at once).
  await null;
  await trendWriteSettled(location);
  const baseline = await latestBefore(location, root, startedAt.toISOString()).catch(() => undefined);
  if (!baseline) return undefined;
  const current = buildTrendRun(checks, {});
  return {
    baseline: baselineLabel(baseline),
    level: DEFAULT_LEVEL,
    comparisons: compareRuns(baseline, current),
    cases: pairCases(baseline, current),
  };
}

/** The latest run of a store or trend.json that ended before `time`. */
async function latestBefore(location: string, root: string, time: string): Promise<TrendRun | undefined> {
  const source = await openSource(location, root);
  try {
    return await source.latest({ endedBefore: time });
  } finally {
    await source.close();
  }
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

export function gateText(gate: RunGate): GateText {
  const counts: Record<ChangeStatus, number> = { regressed: 0, improved: 0, flaky: 0, 'no-change': 0 };
  for (const c of gate.comparisons) counts[c.status]++;
  const apart = formatCaseChanges(gate.cases.added, gate.cases.removed);
  return {
    heading: `Regression gate against ${gate.baseline} (significance level ${gate.level})`,
    counts: `${counts.regressed} regressed, ${counts.improved} improved, ${counts.flaky} flaky, ${counts['no-change']} no change detectable.`,
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
