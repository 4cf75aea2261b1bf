import { DEFAULT_CONFIDENCE, type Interval, twoSidedZ, wilsonBounds } from './interval.js';
import type { Counts } from './tests.js';

/** A mean over trials with its standard error, the trials clustered by task. */
export interface ClusteredMean {
  /** The mean of all values, in their unit. */
  mean: number;
  /** Number of values (trials). */
  n: number;
  /** Number of clusters (tasks). */
  clusters: number;
  /** The clustered standard error of the mean; `null` with fewer than two values. */
  standardError: number | null;
  /** mean +- z * standardError; `null` with fewer than two values. */
  interval: Interval | null;
}

/** The residual sums of one cluster: sum of (x - mean) and sum of (x - mean)^2 over its values. */
interface Residuals {
  sum: number;
  squares: number;
}

/**
 * The clustered variance of a mean of n values (Miller 2024, "Adding Error Bars to Evals", eq. 4):
 * SE_CLT^2 + (1/n^2) sum_c sum_i sum_{j != i} r_ic r_jc, with SE_CLT^2 = s^2 / n. With a single cluster the cross
 * terms take away all but s^2 / n^2 of it (the residuals of one cluster sum to 0), an error of SE_CLT / sqrt(n) that
 * measures nothing: there the plain SE_CLT^2 is returned, the error of that one cluster's mean (its trials are
 * independent draws of one task; how other tasks would differ cannot be estimated from one).
 */
function clusteredVariance(n: number, clusters: Iterable<Residuals>): number {
  let squares = 0;
  let crossTerms = 0;
  let count = 0;
  for (const c of clusters) {
    squares += c.squares;
    // sum_{i != j} r_i r_j within a cluster = (sum r)^2 - sum r^2.
    crossTerms += c.sum * c.sum - c.squares;
    count++;
  }
  const plain = squares / (n - 1) / n;
  if (count < 2) return plain;
  // Strongly negative within-task correlation can push the estimate below 0; the error is then 0, not NaN.
  return Math.max(0, plain + crossTerms / (n * n));
}

/**
 * The mean of a metric over trials with a cluster-robust standard error, trials clustered by task, as in Miller
 * (2024), "Adding Error Bars to Evals", eq. 4: SE^2 = SE_CLT^2 + (1/n^2) sum_c sum_i sum_{j != i} (x_ic - m)(x_jc - m),
 * where SE_CLT^2 = s^2 / n with the sample variance s^2. Trials of one task are correlated (the same question asked
 * again), so they carry less information than as many independent tasks; ignoring that makes intervals too narrow.
 * With one trial per task it is the ordinary standard error; with one task it is that task's own (see
 * `clusteredVariance`): `clusters` says which. `null` when there are no values.
 *
 * @param values the metric's value per trial, in its unit
 * @param clusters the task of each trial, parallel to `values`
 */
export function clusteredMean(
  values: ArrayLike<number>,
  clusters: ArrayLike<string | number>,
  confidence: number = DEFAULT_CONFIDENCE,
): ClusteredMean | null {
  const n = values.length;
  if (clusters.length !== n)
    throw new RangeError(`clusteredMean expects one cluster per value, got ${clusters.length} for ${n}`);
  if (n === 0) return null;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i] as number;
  const mean = sum / n;
  const residualSums = new Map<string | number, Residuals>();
  for (let i = 0; i < n; i++) {
    const r = (values[i] as number) - mean;
    const key = clusters[i] as string | number;
    const c = residualSums.get(key);
    if (c) {
      c.sum += r;
      c.squares += r * r;
    } else residualSums.set(key, { sum: r, squares: r * r });
  }
  if (n < 2) return { mean, n, clusters: residualSums.size, standardError: null, interval: null };
  const standardError = Math.sqrt(clusteredVariance(n, residualSums.values()));
  const z = twoSidedZ(confidence);
  return {
    mean,
    n,
    clusters: residualSums.size,
    standardError,
    interval: { low: mean - z * standardError, high: mean + z * standardError, confidence },
  };
}

/**
 * The interval of a pass rate over tasks of repeated trials, the trials clustered by task: the Wilson interval
 * (`wilsonInterval`) at the effective sample size n / deff, where the design effect deff (Kish 1965) is the clustered
 * variance of the pass rate (`clusteredVariance`, Miller 2024 eq. 4, on the 0/1 outcomes) over its plain variance
 * s^2 / n. As in Korn and Graubard (1998), the effective size is never above n (deff below 1 is taken as 1), and deff
 * is 1 when every trial passed or every trial failed (there is no spread to measure). Trials of one task agree more
 * than trials of different tasks, so the pooled Wilson interval of all trials is too narrow; this one widens with the
 * agreement. With one trial per task, or with one task, it is the Wilson interval of the pooled counts. `null` with no
 * trials.
 *
 * @param tasks the trials and passes of each task
 */
export function clusteredRateInterval(
  tasks: Iterable<Counts>,
  confidence: number = DEFAULT_CONFIDENCE,
): Interval | null {
  const groups = [...tasks].filter((t) => t.trials > 0);
  let n = 0;
  let passes = 0;
  for (const t of groups) {
    n += t.trials;
    passes += t.passes;
  }
  if (n === 0) return null;
  const p = passes / n;
  let effective = n;
  if (n > 1 && passes > 0 && passes < n && groups.length > 1) {
    const residuals = groups.map((t) => ({
      sum: t.passes - p * t.trials,
      squares: t.passes * (1 - p) ** 2 + (t.trials - t.passes) * p * p,
    }));
    const plain = (n * p * (1 - p)) / (n - 1) / n;
    const deff = clusteredVariance(n, residuals) / plain;
    effective = n / Math.max(1, deff);
  }
  return wilsonBounds(p, effective, confidence);
}
