import { caseDifferenceInterval, type Interval } from '../metrics/stats/interval.js';
import { exactDropPower } from '../metrics/stats/power.js';
import { BootstrapDraws } from '../metrics/stats/random.js';
import {
  type StratifiedTest,
  type Stratum,
  significant,
  stratifiedDrop,
} from '../metrics/stats/stratified.js';
import type { Counts } from '../metrics/stats/tests.js';
import { byteCompare } from '../model/order.js';
import { isFlaky } from '../trials/tally.js';
import { type CaseRef, type CaseTrials, casesOf, type RunCriteria } from './run-cases.js';
import type { TrendRun } from './types.js';

/** The default significance level of the regression gate: a drop is flagged when p < 0.05. */
export const DEFAULT_LEVEL = 0.05;
/** The power at which the gate reports the smallest drop a comparison could detect. */
const POWER = 0.8;
/**
 * The fewest values a side needs before a metric's mean is tested by bootstrap: below it a percentile bootstrap is
 * overconfident (a baseline that happens to be constant has no spread to resample), and the pass-rate test alone
 * decides. 30 is the usual rule of thumb for the bootstrap of a mean.
 */
export const MIN_BOOTSTRAP_VALUES = 30;
/** The fewest compared cases for the bootstrap to resample whole cases rather than each case's trials. */
export const MIN_BOOTSTRAP_TASKS = 10;

export interface SignificanceOptions {
  /**
   * The significance level: the largest chance of calling a change a regression (or an improvement) when nothing
   * changed. A probability in (0, 0.5).
   * @default 0.05
   */
  level?: number;
  /** Bootstrap resamples for continuous metrics. @default 1000 */
  resamples?: number;
  /** The bootstrap's seed, so a gate's verdict is reproducible. @default 1 */
  seed?: number;
}

/** One side of a comparison of a spec x criterion: its trials summed over the cases present in both runs. */
export interface SideSummary extends Counts {
  /** passes / trials; `null` with no trials. */
  rate: number | null;
  /** Mean of the numeric values, in the metric's unit; absent when the metric gives none. */
  mean?: number;
  /** How many numeric values the mean is over. */
  values: number;
}

/** What the gate concludes about a spec x criterion. */
export type ChangeStatus = 'regressed' | 'improved' | 'flaky' | 'no-change';

export type { CaseRef } from './run-cases.js';

/** A case whose pass rate fell, with its own counts and its own one-sided test. */
export interface CaseDrop {
  /** The task case; absent for a spec without cases. */
  case?: string;
  task: string;
  before: Counts;
  after: Counts;
  /** The one-sided p-value of the drop on this case alone (the gate's test on one stratum). */
  pDrop: number;
  /** `exact`: Fisher's exact test; `cmh`: its normal approximation, for large counts. */
  test: 'exact' | 'cmh';
}

/** The comparison of one spec x criterion between a baseline run and the current run. */
export interface CriterionComparison {
  spec: string;
  criterion: string;
  metric: string;
  /** The unit of means and differences when not a [0, 1] score. */
  unit?: string;
  lowerIsBetter: boolean;
  /**
   * `regressed` or `improved`: a significant change at the level (pass rate or metric); `flaky`: no significant change,
   * and in the current run some task's trials both passed and failed; `no-change`: nothing detectable at this sample
   * size (see `detectableDrop`).
   */
  status: ChangeStatus;
  /** The baseline's trials of the cases present in both runs. */
  before: SideSummary;
  /** The current run's trials of the cases present in both runs. */
  after: SideSummary;
  /**
   * The pass-rate test, stratified by case (see `stratifiedDrop`): the exact conditional test for small counts, the
   * Cochran-Mantel-Haenszel test otherwise, one-sided each way; `cases` is the number of cases that carried
   * information (trials on both sides and both a pass and a fail). Absent when no case has trials on both sides.
   */
  passRate?: { test: StratifiedTest['test']; pDrop: number; pRise: number; cases: number };
  /** How many cases (case x task) of this criterion both runs hold: the only ones compared. */
  cases: number;
  /** The cases of this criterion only the current run holds: not compared, never a change in pass rate. */
  added: CaseRef[];
  /** The cases of this criterion only the baseline holds: not compared. */
  removed: CaseRef[];
  /**
   * Each compared case whose pass rate fell, with its counts and its own one-sided p-value, most significant first
   * (then by case and task). The JUnit properties, the job summary and the HTML report render this list.
   */
  droppedCases: CaseDrop[];
  /**
   * For a metric with at least `MIN_BOOTSTRAP_VALUES` numeric values a side: the percentile bootstrap interval of the
   * mean over the compared cases of each case's change in mean (`caseDifferenceInterval`: every case weighs the same,
   * so trials per case cannot move it), in the metric's unit, at the confidence that makes each side of it a
   * one-sided test at the level the metric gets.
   */
  difference?: Interval;
  /** The compared cases (as `caseLabel` writes them) whose trials of this criterion both passed and failed now. */
  flakyTasks: string[];
  /**
   * The smallest drop in pass rate (a ratio in [0, 1]) that the gate's test detects with 80% power at the level, for
   * the compared trials taken as one case at the baseline's pass rate: from the exact power (`exactDropPower`), not
   * an approximation. `null` when a side has no trials, the baseline never passed, or even a drop to 0 would go
   * undetected at these counts.
   */
  detectableDrop: number | null;
  /** The level each test was run at: the gate's level, halved when both the pass rate and the metric are tested. */
  level: number;
}

/** A case in words: `book-flight` (a task), or `refund-policy [task refund-7]` when the case and task differ. */
export function caseLabel(ref: Pick<CaseRef, 'case' | 'task'>): string {
  return ref.case === undefined || ref.case === ref.task
    ? (ref.case ?? ref.task)
    : `${ref.case} [task ${ref.task}]`;
}

function side(cases: readonly CaseTrials[]): SideSummary {
  let trials = 0;
  let passes = 0;
  let sum = 0;
  let values = 0;
  for (const c of cases) {
    trials += c.trials;
    passes += c.passes;
    for (const v of c.values) sum += v;
    values += c.values.length;
  }
  const summary: SideSummary = { trials, passes, rate: trials ? passes / trials : null, values };
  if (values) summary.mean = sum / values;
  return summary;
}

/**
 * Whether a metric's values call for a test of their own: enough of them, varying, and not only 0 and 1 (a 0/1 metric
 * is its verdict, which the pass-rate test already covers).
 */
function continuous(a: readonly CaseTrials[], b: readonly CaseTrials[]): boolean {
  const count = (cases: readonly CaseTrials[]) => {
    let n = 0;
    for (const c of cases) n += c.values.length;
    return n;
  };
  if (count(a) < MIN_BOOTSTRAP_VALUES || count(b) < MIN_BOOTSTRAP_VALUES) return false;
  // The first value of the baseline's cases (it has some): the values vary when one differs from it.
  const first = a.find((c) => c.values.length > 0)?.values[0] as number;
  const every = (test: (v: number) => boolean) =>
    a.every((c) => c.values.every(test)) && b.every((c) => c.values.every(test));
  const varies = !every((v) => v === first);
  const binary = every((v) => v === 0 || v === 1);
  return varies && !binary;
}

const byCase = (a: CaseRef, b: CaseRef): number =>
  byteCompare(a.spec, b.spec) || byteCompare(a.case ?? '', b.case ?? '') || byteCompare(a.task, b.task);

/**
 * Compares every spec x criterion present in both runs, case by case: only the cases (spec x case x task x criterion)
 * both runs hold are compared, and those only one run holds are listed apart as added or removed, never counted as a
 * change. A drop (or rise) counts only when it is significant at `level`: for pass rates the stratified test of
 * `stratifiedDrop` (one stratum per case: neither a change in the mix of cases nor in the trials per case can fake
 * or hide a change), for metrics with at least 30 numeric values a side (not only 0 and 1) a bootstrap interval of
 * the mean over cases of each case's change in mean that excludes 0 (resampling whole cases when there are at least
 * 10, else each case's trials). When both apply, each gets half the level (Bonferroni), so the chance of a false
 * regression stays within `level`. A p-value equal to the level is not below it (`significant`). Each case whose pass
 * rate fell is named with its own test.
 */
export function compareRuns(
  baseline: TrendRun,
  current: TrendRun,
  options: SignificanceOptions = {},
): CriterionComparison[] {
  const level = levelOf(options);
  return compareCriteria(casesOf(baseline).criteria, casesOf(current).criteria, options, level);
}

/** The significance level of `options` (the default without), or a RangeError when it is not in (0, 0.5). */
export function levelOf(options: SignificanceOptions): number {
  const level = options.level ?? DEFAULT_LEVEL;
  if (!(level > 0 && level < 0.5))
    throw new RangeError(`the significance level must be in (0, 0.5), got ${level}`);
  return level;
}

/** `compareRuns` of the runs' cases (`casesOf`), at `level` (`levelOf` the options). */
export function compareCriteria(
  before: RunCriteria,
  after: RunCriteria,
  options: SignificanceOptions,
  level: number,
): CriterionComparison[] {
  const comparisons: CriterionComparison[] = [];
  // The criteria of a spec are resampled over the same cases: their bootstraps draw the same cases.
  const draws = new BootstrapDraws();
  // One case's test of a drop, by its counts: a thousand cases that went from 1 of 1 to 0 of 1 are one test.
  const caseTests = new Map<string, StratifiedTest>();
  for (const [key, now] of after.byKey) {
    const was = before.byKey.get(key);
    if (!was) continue;
    // The compared cases, the baseline's and the current run's at one index.
    const wasCases: CaseTrials[] = [];
    const nowCases: CaseTrials[] = [];
    const added: CaseRef[] = [];
    const removed: CaseRef[] = [];
    for (const a of now.cases) {
      const b = was.byCase.get(a.ref.case, a.ref.task);
      if (b) {
        wasCases.push(b);
        nowCases.push(a);
      } else added.push(a.ref);
    }
    for (const b of was.cases) if (!now.byCase.get(b.ref.case, b.ref.task)) removed.push(b.ref);
    const wasSide = side(wasCases);
    const nowSide = side(nowCases);
    let countable = false;
    for (let i = 0; i < wasCases.length && !countable; i++)
      countable = (wasCases[i] as CaseTrials).trials > 0 && (nowCases[i] as CaseTrials).trials > 0;
    const bootstrap = continuous(wasCases, nowCases);
    const each = countable && bootstrap ? level / 2 : level;
    const lowerIsBetter = now.lowerIsBetter || was.lowerIsBetter;
    const unit = now.unit ?? was.unit;
    const flakyTasks: string[] = [];
    for (const a of nowCases) if (isFlaky(a)) flakyTasks.push(caseLabel(a.ref));
    const comparison: CriterionComparison = {
      spec: now.spec,
      criterion: now.criterion,
      metric: now.metric,
      ...(unit !== undefined && { unit }),
      lowerIsBetter,
      status: 'no-change',
      before: wasSide,
      after: nowSide,
      cases: wasCases.length,
      added: added.sort(byCase),
      removed: removed.sort(byCase),
      droppedCases: countable ? droppedCases(wasCases, nowCases, caseTests) : [],
      flakyTasks,
      detectableDrop: countable ? detectableDrop(wasSide, nowSide, each) : null,
      level: each,
    };
    let worse = false;
    let better = false;
    if (countable) {
      const strata: Stratum[] = new Array(wasCases.length);
      for (let i = 0; i < wasCases.length; i++)
        strata[i] = { before: wasCases[i] as CaseTrials, after: nowCases[i] as CaseTrials };
      const test = stratifiedDrop(strata);
      comparison.passRate = {
        test: test.test,
        pDrop: test.pDrop,
        pRise: test.pRise,
        cases: test.informative,
      };
      worse ||= significant(test.pDrop, each);
      better ||= significant(test.pRise, each);
    }
    if (bootstrap) {
      // Each compared case weighs the same; cases are resampled whole (their trials are correlated) once there are
      // enough of them, else each case's trials are.
      const withValues: Array<{ before: number[]; after: number[] }> = [];
      for (let i = 0; i < wasCases.length; i++) {
        const b = wasCases[i] as CaseTrials;
        const a = nowCases[i] as CaseTrials;
        if (b.values.length > 0 && a.values.length > 0)
          withValues.push({ before: b.values, after: a.values });
      }
      const difference = caseDifferenceInterval(withValues, {
        // Each end of a two-sided interval at 1 - 2 * level is a one-sided test at the level.
        confidence: 1 - 2 * each,
        byCase: withValues.length >= MIN_BOOTSTRAP_TASKS,
        draws,
        ...(options.resamples !== undefined && { resamples: options.resamples }),
        ...(options.seed !== undefined && { seed: options.seed }),
      });
      if (difference) {
        comparison.difference = difference;
        const fell = difference.high < 0;
        const rose = difference.low > 0;
        worse ||= lowerIsBetter ? rose : fell;
        better ||= lowerIsBetter ? fell : rose;
      }
    }
    comparison.status = worse
      ? 'regressed'
      : better
        ? 'improved'
        : comparison.flakyTasks.length
          ? 'flaky'
          : 'no-change';
    comparisons.push(comparison);
  }
  return comparisons.sort((a, b) => byteCompare(a.spec, b.spec) || byteCompare(a.criterion, b.criterion));
}

/**
 * The compared cases whose pass rate fell, each with its own one-sided test (from `tests` when a case of the same
 * counts had it), most significant first.
 */
function droppedCases(
  wasCases: readonly CaseTrials[],
  nowCases: readonly CaseTrials[],
  tests: Map<string, StratifiedTest>,
): CaseDrop[] {
  const drops: CaseDrop[] = [];
  for (let i = 0; i < wasCases.length; i++) {
    const b = wasCases[i] as CaseTrials;
    const a = nowCases[i] as CaseTrials;
    if (b.trials === 0 || a.trials === 0 || a.passes * b.trials >= b.passes * a.trials) continue;
    const counts = `${b.trials} ${b.passes} ${a.trials} ${a.passes}`;
    let test = tests.get(counts);
    if (!test) {
      test = stratifiedDrop([{ before: b, after: a }]);
      tests.set(counts, test);
    }
    drops.push({
      ...(a.ref.case !== undefined && { case: a.ref.case }),
      task: a.ref.task,
      before: { trials: b.trials, passes: b.passes },
      after: { trials: a.trials, passes: a.passes },
      pDrop: test.pDrop,
      test: test.test,
    });
  }
  return drops.sort(
    (x, y) => x.pDrop - y.pDrop || byteCompare(x.case ?? '', y.case ?? '') || byteCompare(x.task, y.task),
  );
}

/**
 * The smallest drop d from the baseline's pass rate p1 = passes / trials that the gate's test detects with 80% power
 * at `level`, for `before` and `after` trials of one case: the exact power (`exactDropPower`, every pair of outcomes
 * enumerated) rises with d, and d is found by bisection to 0.001 (a tenth of the point it is shown to). The normal approximation this replaces claimed 80%
 * where the exact power was 70% at 10 trials a side. `null` when a side has no trials, the baseline never passed, or
 * a drop to 0 has less than 80% power.
 */
export function detectableDrop(before: Counts, after: Counts, level: number = DEFAULT_LEVEL): number | null {
  const n1 = before.trials;
  const n2 = after.trials;
  if (n1 === 0 || n2 === 0 || before.passes === 0) return null;
  const p1 = before.passes / n1;
  const detects = (d: number): boolean => exactDropPower(n1, n2, p1, Math.max(0, p1 - d), level) >= POWER;
  if (!detects(p1)) return null;
  let low = 0;
  let high = p1;
  while (high - low > 1e-3) {
    const mid = (low + high) / 2;
    if (detects(mid)) high = mid;
    else low = mid;
  }
  return high;
}
