import { type ClusteredMean, clusteredMean, clusteredRateInterval } from '../metrics/stats/clustered.js';
import {
  clusterBootstrapInterval,
  DEFAULT_CONFIDENCE,
  type Interval,
  wilsonInterval,
} from '../metrics/stats/interval.js';
import { passAtK, passHatK } from '../metrics/stats/pass-at-k.js';
import { isFlaky, type TaskTrials, type TrialCheck, tallyTrials } from './tally.js';

export interface TrialStatisticsOptions {
  /**
   * The k of pass@k and pass^k. Default: 1 and the number of trials (the smallest number of any task of the
   * criterion, so that every task has an estimate).
   */
  ks?: readonly number[];
  /** Coverage of every interval. @default 0.95 */
  confidence?: number;
  /** Bootstrap resamples for the interval of a metric's mean. @default 1000 */
  resamples?: number;
  /** The bootstrap's seed. @default 1 */
  seed?: number;
}

/** Counts, pass rate and pass@k / pass^k of some trials. */
export interface PassStatistics {
  /** Trials decided (pass or fail). */
  trials: number;
  /** Trials that passed. */
  passes: number;
  /** Trials whose metric did not apply. */
  notApplicable: number;
  /** passes / trials, a ratio in [0, 1]; `null` with no trials. */
  passRate: number | null;
  /** The Wilson interval of the pass rate; `null` with no trials. */
  interval: Interval | null;
  /**
   * pass@k by k (as a string key): for one task the unbiased estimator; overall its mean over the tasks that have at
   * least k trials. `null` where no task has k trials.
   */
  passAtK: Record<string, number | null>;
  /** pass^k by k, as `passAtK`. */
  passHatK: Record<string, number | null>;
}

/** One task's trials of one criterion. */
export interface TaskStatistics extends PassStatistics {
  task: string;
  /** Some trials passed and some failed. */
  flaky: boolean;
  /** The mean of the metric's numeric values, in its unit; absent when it gives none. */
  mean?: number;
}

/** One spec x criterion over every task. */
export interface CriterionStatistics {
  spec: string;
  criterion: string;
  metric: string;
  unit?: string;
  /**
   * Over every trial of every task: the pass rate pooled, its interval clustered by task (`clusteredRateInterval`:
   * trials of one task agree more than trials of different tasks), pass@k averaged over tasks.
   */
  overall: PassStatistics & {
    tasks: number;
    /** The tasks whose trials both passed and failed. */
    flakyTasks: string[];
    /**
     * The mean of the metric's numeric values with its clustered standard error and interval (trials clustered by
     * task), and the percentile bootstrap interval over tasks; absent when the metric gives no numbers.
     */
    mean?: ClusteredMean & { bootstrap: Interval | null };
  };
  tasks: TaskStatistics[];
}

function passStatistics(
  trials: number,
  passes: number,
  notApplicable: number,
  confidence: number,
): Omit<PassStatistics, 'passAtK' | 'passHatK'> {
  return {
    trials,
    passes,
    notApplicable,
    passRate: trials ? passes / trials : null,
    interval: wilsonInterval(passes, trials, confidence),
  };
}

/** An estimate for each k, keyed by k as a string (`pass@k` and `pass^k` records). */
function byK(ks: readonly number[], estimate: (k: number) => number | null): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const k of ks) out[String(k)] = estimate(k);
  return out;
}

/** The mean over tasks of an estimator, over the tasks where it applies. */
function meanOver(groups: readonly TaskTrials[], estimate: (g: TaskTrials) => number | null): number | null {
  let sum = 0;
  let count = 0;
  for (const g of groups) {
    const value = estimate(g);
    if (value === null) continue;
    sum += value;
    count++;
  }
  return count ? sum / count : null;
}

/**
 * Statistics of repeated trials per spec x criterion, per task and overall, from the checks alone (never a workup):
 * trials, passes, the pass rate with its Wilson interval, pass@k and pass^k, flaky tasks, and for metrics with numeric
 * values the mean with its clustered and bootstrap intervals. In byte order of spec and criterion.
 */
export function trialStatistics(
  checks: Iterable<TrialCheck>,
  options: TrialStatisticsOptions = {},
): CriterionStatistics[] {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const byCriterion = new Map<string, TaskTrials[]>();
  for (const group of tallyTrials(checks)) {
    const key = `${group.spec}\0${group.criterion}`;
    const list = byCriterion.get(key);
    if (list) list.push(group);
    else byCriterion.set(key, [group]);
  }
  const result: CriterionStatistics[] = [];
  for (const groups of byCriterion.values()) {
    const first = groups[0] as TaskTrials;
    const decided = groups.filter((g) => g.trials > 0);
    const fewest = decided.reduce((m, g) => Math.min(m, g.trials), decided.length ? Infinity : 0);
    const ks = [...new Set(options.ks ?? (fewest > 1 ? [1, fewest] : [1]))].sort((a, b) => a - b);
    const tasks: TaskStatistics[] = groups.map((g) => {
      const task: TaskStatistics = {
        task: g.task,
        ...passStatistics(g.trials, g.passes, g.notApplicable, confidence),
        passAtK: byK(ks, (k) => (g.trials ? passAtK(g.trials, g.passes, k) : null)),
        passHatK: byK(ks, (k) => (g.trials ? passHatK(g.trials, g.passes, k) : null)),
        flaky: isFlaky(g),
      };
      if (g.values.length > 0) task.mean = g.values.reduce((sum, v) => sum + v, 0) / g.values.length;
      return task;
    });
    let trials = 0;
    let passes = 0;
    let notApplicable = 0;
    const values: number[] = [];
    const clusters: string[] = [];
    for (const g of groups) {
      trials += g.trials;
      passes += g.passes;
      notApplicable += g.notApplicable;
      for (const v of g.values) {
        values.push(v);
        clusters.push(g.task);
      }
    }
    const overall: CriterionStatistics['overall'] = {
      ...passStatistics(trials, passes, notApplicable, confidence),
      interval: clusteredRateInterval(groups, confidence),
      passAtK: byK(ks, (k) => meanOver(decided, (g) => passAtK(g.trials, g.passes, k))),
      passHatK: byK(ks, (k) => meanOver(decided, (g) => passHatK(g.trials, g.passes, k))),
      tasks: groups.length,
      flakyTasks: groups.filter(isFlaky).map((g) => g.task),
    };
    const mean = clusteredMean(values, clusters, confidence);
    if (mean) {
      overall.mean = {
        ...mean,
        bootstrap: clusterBootstrapInterval(values, clusters, {
          confidence,
          ...(options.resamples !== undefined && { resamples: options.resamples }),
          ...(options.seed !== undefined && { seed: options.seed }),
        }),
      };
    }
    result.push({
      spec: first.spec,
      criterion: first.criterion,
      metric: first.metric,
      ...(first.unit !== undefined && { unit: first.unit }),
      overall,
      tasks,
    });
  }
  return result;
}
