import { bootstrapDifferenceInterval, type Interval } from '../../metrics/stats/interval.js';
import { normalQuantile } from '../../metrics/stats/normal.js';
import { type Counts, testDrop } from '../../metrics/stats/tests.js';
import { isFlaky, tallyTrials } from '../../trials/tally.js';
import { byteCompare } from '../checks.js';
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
/** The fewest tasks a side needs for the bootstrap to resample whole tasks rather than trials. */
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

/** One side of a comparison of a spec x criterion: its pooled trials over every task. */
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
  before: SideSummary;
  after: SideSummary;
  /**
   * The pass-rate test: Fisher's exact test for small counts, the two-proportion z-test otherwise, one-sided each way.
   * Absent when a side has no decided trial.
   */
  passRate?: { test: 'fisher' | 'z'; pDrop: number; pRise: number };
  /**
   * For a metric with at least `MIN_BOOTSTRAP_VALUES` numeric values a side: the percentile bootstrap interval of mean(after) - mean(before), in the
   * metric's unit, at the confidence that makes each side of it a one-sided test at the level the metric gets.
   */
  difference?: Interval;
  /** The tasks of the current run whose trials of this criterion both passed and failed. */
  flakyTasks: string[];
  /**
   * The smallest drop in pass rate (a ratio in [0, 1]) this comparison would detect with 80% power at the level
   * (normal approximation); `null` when a side has no trials, the baseline never passed, or even a drop to 0 would go
   * undetected at these counts.
   */
  detectableDrop: number | null;
  /** The level each test was run at: the gate's level, halved when both the pass rate and the metric are tested. */
  level: number;
}

interface Pooled {
  spec: string;
  criterion: string;
  metric: string;
  unit?: string;
  lowerIsBetter: boolean;
  counts: Counts;
  values: number[];
  /** The task of each value, parallel to `values`. */
  valueTasks: string[];
  flakyTasks: string[];
}

/** The trials of a run pooled over its tasks, per spec x criterion. */
function pool(run: TrendRun): Map<string, Pooled> {
  const pooled = new Map<string, Pooled>();
  const entry = (spec: string, criterion: string, metric: string): Pooled => {
    const key = `${spec}\0${criterion}`;
    let p = pooled.get(key);
    if (!p) {
      p = {
        spec,
        criterion,
        metric,
        lowerIsBetter: false,
        counts: { trials: 0, passes: 0 },
        values: [],
        valueTasks: [],
        flakyTasks: [],
      };
      pooled.set(key, p);
    }
    return p;
  };
  // Counts from the stored trials (what a later reader recomputes from); values, unit and direction from the checks.
  for (const t of run.trials) {
    const p = entry(t.spec, t.criterion, t.metric);
    p.counts.trials += t.trials;
    p.counts.passes += t.passes;
    if (isFlaky(t)) p.flakyTasks.push(t.task);
  }
  for (const group of tallyTrials(run.checks)) {
    const p = entry(group.spec, group.criterion, group.metric);
    if (group.unit !== undefined) p.unit = group.unit;
    p.lowerIsBetter ||= group.lowerIsBetter;
    for (const v of group.values) {
      p.values.push(v);
      p.valueTasks.push(group.task);
    }
  }
  return pooled;
}

function side(p: Pooled): SideSummary {
  const { trials, passes } = p.counts;
  const summary: SideSummary = {
    trials,
    passes,
    rate: trials ? passes / trials : null,
    values: p.values.length,
  };
  if (p.values.length) summary.mean = p.values.reduce((s, v) => s + v, 0) / p.values.length;
  return summary;
}

/**
 * Whether a metric's values call for a test of their own: enough of them, varying, and not only 0 and 1 (a 0/1 metric
 * is its verdict, which the pass-rate test already covers).
 */
function continuous(a: readonly number[], b: readonly number[]): boolean {
  if (a.length < MIN_BOOTSTRAP_VALUES || b.length < MIN_BOOTSTRAP_VALUES) return false;
  const first = a[0] ?? b[0];
  const varies = a.some((v) => v !== first) || b.some((v) => v !== first);
  const binary = a.every((v) => v === 0 || v === 1) && b.every((v) => v === 0 || v === 1);
  return varies && !binary;
}

const taskCount = (tasks: readonly string[]) => new Set(tasks).size;

/**
 * Compares every spec x criterion present in both runs, pooling each run's trials over its tasks. A drop (or rise)
 * counts only when it is significant at `level`: for pass rates a one-sided two-sample test on the counts, for
 * metrics with at least 30 numeric values a side (not only 0 and 1) a bootstrap interval of the difference of means
 * that excludes 0 (resampling whole tasks when each side has at least 10). When both apply, each
 * gets half the level (Bonferroni), so the chance of a false regression stays within `level`. Pooling treats the
 * trials of a criterion as independent; the intervals in the reports account for tasks (clustered errors).
 */
export function compareRuns(
  baseline: TrendRun,
  current: TrendRun,
  options: SignificanceOptions = {},
): CriterionComparison[] {
  const level = options.level ?? DEFAULT_LEVEL;
  if (!(level > 0 && level < 0.5))
    throw new RangeError(`the significance level must be in (0, 0.5), got ${level}`);
  const before = pool(baseline);
  const after = pool(current);
  const comparisons: CriterionComparison[] = [];
  for (const [key, now] of after) {
    const was = before.get(key);
    if (!was) continue;
    const countable = was.counts.trials > 0 && now.counts.trials > 0;
    const bootstrap = continuous(was.values, now.values);
    if (!countable && !bootstrap) continue;
    const each = countable && bootstrap ? level / 2 : level;
    const lowerIsBetter = now.lowerIsBetter || was.lowerIsBetter;
    const comparison: CriterionComparison = {
      spec: now.spec,
      criterion: now.criterion,
      metric: now.metric,
      ...((now.unit ?? was.unit) !== undefined && { unit: now.unit ?? was.unit }),
      lowerIsBetter,
      status: 'no-change',
      before: side(was),
      after: side(now),
      flakyTasks: now.flakyTasks,
      detectableDrop: countable ? detectableDrop(was.counts, now.counts, each) : null,
      level: each,
    };
    let worse = false;
    let better = false;
    if (countable) {
      const drop = testDrop(was.counts, now.counts);
      const rise = testDrop(now.counts, was.counts);
      comparison.passRate = { test: drop.test, pDrop: drop.pValue, pRise: rise.pValue };
      worse ||= drop.pValue < each;
      better ||= rise.pValue < each;
    }
    if (bootstrap) {
      // Tasks are resampled whole (their trials are correlated) once each side has enough of them.
      const byTask =
        taskCount(was.valueTasks) >= MIN_BOOTSTRAP_TASKS && taskCount(now.valueTasks) >= MIN_BOOTSTRAP_TASKS;
      const difference = bootstrapDifferenceInterval(was.values, now.values, {
        // Each end of a two-sided interval at 1 - 2 * level is a one-sided test at the level.
        confidence: 1 - 2 * each,
        ...(byTask && { clusters: { before: was.valueTasks, after: now.valueTasks } }),
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
        : now.flakyTasks.length
          ? 'flaky'
          : 'no-change';
    comparisons.push(comparison);
  }
  return comparisons.sort((a, b) => byteCompare(a.spec, b.spec) || byteCompare(a.criterion, b.criterion));
}

/**
 * The smallest drop d from the baseline's pass rate p1 to p2 = p1 - d that a one-sided test at `level` detects with
 * 80% power, by the normal approximation: z_(1-level) sqrt(p(1-p)(1/n1 + 1/n2)) + z_0.8 sqrt(p1(1-p1)/n1 +
 * p2(1-p2)/n2) <= d, with the pooled rate p under the null. Solved by bisection, since p2 moves with d.
 */
export function detectableDrop(before: Counts, after: Counts, level: number = DEFAULT_LEVEL): number | null {
  const n1 = before.trials;
  const n2 = after.trials;
  if (n1 === 0 || n2 === 0 || before.passes === 0) return null;
  const p1 = before.passes / n1;
  const za = normalQuantile(1 - level);
  const zb = normalQuantile(POWER);
  const detects = (d: number): boolean => {
    const p2 = p1 - d;
    const p = (n1 * p1 + n2 * p2) / (n1 + n2);
    const needed =
      za * Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2)) +
      zb * Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
    return d >= needed;
  };
  if (!detects(p1)) return null;
  let low = 0;
  let high = p1;
  for (let i = 0; i < 50; i++) {
    const mid = (low + high) / 2;
    if (detects(mid)) high = mid;
    else low = mid;
  }
  return high;
}
