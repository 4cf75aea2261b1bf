import { DEFAULT_CONFIDENCE, type Interval, twoSidedZ } from './interval.js';

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

/**
 * The mean of a metric over trials with a cluster-robust standard error, trials clustered by task, as in Miller
 * (2024), "Adding Error Bars to Evals", eq. 4: SE^2 = SE_CLT^2 + (1/n^2) sum_c sum_i sum_{j != i} (x_ic - m)(x_jc - m),
 * where SE_CLT^2 = s^2 / n with the sample variance s^2. Trials of one task are correlated (the same question asked
 * again), so they carry less information than as many independent tasks; ignoring that makes intervals too narrow.
 * With one trial per task it is the ordinary standard error. `null` when there are no values.
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
  let squares = 0;
  const residualSums = new Map<string | number, { sum: number; squares: number }>();
  for (let i = 0; i < n; i++) {
    const r = (values[i] as number) - mean;
    squares += r * r;
    const key = clusters[i] as string | number;
    const c = residualSums.get(key);
    if (c) {
      c.sum += r;
      c.squares += r * r;
    } else residualSums.set(key, { sum: r, squares: r * r });
  }
  if (n < 2) return { mean, n, clusters: residualSums.size, standardError: null, interval: null };
  // sum_{i != j} r_i r_j within a cluster = (sum r)^2 - sum r^2.
  let crossTerms = 0;
  for (const c of residualSums.values()) crossTerms += c.sum * c.sum - c.squares;
  const variance = squares / (n - 1) / n + crossTerms / (n * n);
  // Strongly negative within-task correlation can push the estimate below 0; the error is then 0, not NaN.
  const standardError = Math.sqrt(Math.max(0, variance));
  const z = twoSidedZ(confidence);
  return {
    mean,
    n,
    clusters: residualSums.size,
    standardError,
    interval: { low: mean - z * standardError, high: mean + z * standardError, confidence },
  };
}
