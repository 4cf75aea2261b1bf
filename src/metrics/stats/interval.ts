import { normalQuantile } from './normal.js';
import { type BootstrapDraws, resampleMeans, resampleMeansOf, seededRandom } from './random.js';

/** A two-sided confidence interval, in the unit of the estimate. */
export interface Interval {
  low: number;
  high: number;
  /** The nominal coverage, a probability in (0, 1): 0.95 for a 95% interval. */
  confidence: number;
}

/** The default coverage of every interval needlework reports. */
export const DEFAULT_CONFIDENCE = 0.95;

function checkConfidence(name: string, confidence: number): void {
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`${name} expects a confidence in (0, 1), got ${confidence}`);
}

const zByConfidence = new Map<number, number>();

/** The z with P(-z < Z < z) = confidence: 1.959963984540054 at 0.95. Remembered: reports ask for a handful of levels. */
export function twoSidedZ(confidence: number): number {
  let z = zByConfidence.get(confidence);
  if (z === undefined) {
    z = normalQuantile(1 - (1 - confidence) / 2);
    if (zByConfidence.size < 64) zByConfidence.set(confidence, z);
  }
  return z;
}

/**
 * The Wilson score interval of a pass rate (Wilson 1927): the closed form
 * (p + z^2/2n +- z sqrt(p(1 - p)/n + z^2/4n^2)) / (1 + z^2/n) with p = successes / n. Unlike p +- z sqrt(p(1-p)/n)
 * it stays inside [0, 1] and does not collapse to a point at 0 or n successes, which is what small trial counts give.
 * `null` when n = 0 (nothing to estimate).
 */
export function wilsonInterval(
  successes: number,
  n: number,
  confidence: number = DEFAULT_CONFIDENCE,
): Interval | null {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n)
    throw new RangeError(`wilsonInterval expects integers 0 <= successes <= n, got ${successes} of ${n}`);
  checkConfidence('wilsonInterval', confidence);
  if (n === 0) return null;
  return wilsonBounds(successes / n, n, confidence);
}

/**
 * The Wilson interval's closed form at a pass rate p and a sample size n that need not be whole (an effective sample
 * size, see `clusteredRateInterval`). n > 0.
 */
export function wilsonBounds(p: number, n: number, confidence: number): Interval {
  checkConfidence('wilsonBounds', confidence);
  const z = twoSidedZ(confidence);
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const scale = 1 + z2 / n;
  // Clamped: at 0 or n successes the closed form gives the bound exactly, up to rounding.
  return {
    low: Math.max(0, (centre - spread) / scale),
    high: Math.min(1, (centre + spread) / scale),
    confidence,
  };
}

export interface BootstrapOptions {
  /** @default 0.95 */
  confidence?: number;
  /** How many resamples to draw. @default 1000 */
  resamples?: number;
  /** The generator's seed: the same values and seed give the same interval. @default 1 */
  seed?: number;
}

/**
 * The percentile bootstrap interval of the mean (Efron 1979): draw `resamples` samples of the values with
 * replacement, take each sample's mean, and report the (1 - confidence)/2 and (1 + confidence)/2 quantiles of those
 * means (nearest rank). Seeded, so a report is reproducible. `null` when there are no values.
 */
export function bootstrapInterval(
  values: ArrayLike<number>,
  options: BootstrapOptions = {},
): Interval | null {
  const { confidence, resamples, seed } = bootstrapSettings('bootstrapInterval', options);
  if (values.length === 0) return null;
  return percentiles(
    resampleMeans(Float64Array.from(values), undefined, resamples, seededRandom(seed)),
    confidence,
  );
}

/** The trials of each side of a difference, by task, for a bootstrap that resamples tasks. */
export interface DifferenceClusters {
  /** The task of each `before` value, parallel to it. */
  before: ArrayLike<string | number>;
  /** The task of each `after` value, parallel to it. */
  after: ArrayLike<string | number>;
}

/**
 * The percentile bootstrap interval of mean(after) - mean(before), each side resampled on its own (it excludes 0 when
 * the change is significant). The means pool each side's trials, so a change in trials per task moves them: the
 * regression gate reads `caseDifferenceInterval` instead, over the tasks both sides hold. With `clusters`, each
 * side resamples whole tasks (trials of one task are correlated), as `clusterBootstrapInterval` does. `null` when
 * either side has no values.
 */
export function bootstrapDifferenceInterval(
  before: ArrayLike<number>,
  after: ArrayLike<number>,
  options: BootstrapOptions & { clusters?: DifferenceClusters } = {},
): Interval | null {
  const { confidence, resamples, seed } = bootstrapSettings('bootstrapDifferenceInterval', options);
  if (before.length === 0 || after.length === 0) return null;
  const draw = (values: ArrayLike<number>, clusters: ArrayLike<string | number> | undefined) => {
    if (!clusters) return { sums: Float64Array.from(values), counts: undefined };
    return clusterTotals('bootstrapDifferenceInterval', values, clusters);
  };
  const a = draw(before, options.clusters?.before);
  const b = draw(after, options.clusters?.after);
  // One generator for both sides: the before side's draws, then the after side's, from one seeded sequence.
  const random = seededRandom(seed);
  const meansBefore = resampleMeans(a.sums, a.counts, resamples, random);
  const differences = resampleMeans(b.sums, b.counts, resamples, random);
  for (let r = 0; r < resamples; r++)
    differences[r] = (differences[r] as number) - (meansBefore[r] as number);
  return percentiles(differences, confidence);
}

/** One case's values in the baseline and in the current run, for `caseDifferenceInterval`. */
export interface CaseValues {
  before: ArrayLike<number>;
  after: ArrayLike<number>;
}

/**
 * The percentile bootstrap interval of the mean over cases of each case's change in mean, mean_k (mean(after_k) -
 * mean(before_k)): every case weighs the same whatever its trials on either side, so a change in trials per case or in
 * the mix of cases moves nothing. With `byCase` (enough cases), the cases are resampled whole with their change (a
 * paired cluster bootstrap: their spread carries both the trials' noise and the cases'); otherwise each case keeps
 * its place and its trials are resampled on each side (a stratified bootstrap). Cases without values on both sides
 * are left out; `null` when none is left.
 */
export function caseDifferenceInterval(
  cases: readonly CaseValues[],
  options: BootstrapOptions & {
    byCase?: boolean;
    /** Draws shared with other intervals of one comparison (cases resampled whole only). */
    draws?: BootstrapDraws;
  } = {},
): Interval | null {
  const { confidence, resamples, seed } = bootstrapSettings('caseDifferenceInterval', options);
  const both = cases.filter((c) => c.before.length > 0 && c.after.length > 0);
  if (both.length === 0) return null;
  const random = seededRandom(seed);
  const mean = (values: ArrayLike<number>) => {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[i] as number;
    return sum / values.length;
  };
  if (options.byCase) {
    const changes = Float64Array.from(both, (c) => mean(c.after) - mean(c.before));
    const indices = options.draws?.indices(changes.length, resamples, seed);
    return percentiles(
      indices
        ? resampleMeansOf(changes, indices, resamples)
        : resampleMeans(changes, undefined, resamples, random),
      confidence,
    );
  }
  const statistics = new Float64Array(resamples);
  for (const c of both) {
    const before = resampleMeans(Float64Array.from(c.before), undefined, resamples, random);
    const after = resampleMeans(Float64Array.from(c.after), undefined, resamples, random);
    for (let r = 0; r < resamples; r++)
      statistics[r] =
        (statistics[r] as number) + ((after[r] as number) - (before[r] as number)) / both.length;
  }
  return percentiles(statistics, confidence);
}

/** Each cluster's sum of values and number of values, in order of first appearance. */
function clusterTotals(
  name: string,
  values: ArrayLike<number>,
  clusters: ArrayLike<string | number>,
): { sums: Float64Array; counts: Float64Array | undefined } {
  if (clusters.length !== values.length)
    throw new RangeError(
      `${name} expects one cluster per value, got ${clusters.length} for ${values.length}`,
    );
  const index = new Map<string | number, number>();
  const sums: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const key = clusters[i] as string | number;
    let at = index.get(key);
    if (at === undefined) {
      at = sums.length;
      index.set(key, at);
      sums.push(0);
      counts.push(0);
    }
    sums[at] = (sums[at] as number) + (values[i] as number);
    counts[at] = (counts[at] as number) + 1;
  }
  // Clusters of one value each need no counts: the faster plain resampling gives the same means.
  const single = sums.length === values.length;
  return { sums: Float64Array.from(sums), counts: single ? undefined : Float64Array.from(counts) };
}

function bootstrapSettings(name: string, options: BootstrapOptions): Required<BootstrapOptions> {
  const confidence = options.confidence ?? DEFAULT_CONFIDENCE;
  const resamples = options.resamples ?? 1000;
  checkConfidence(name, confidence);
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`${name} expects resamples to be a positive integer, got ${resamples}`);
  return { confidence, resamples, seed: options.seed ?? 1 };
}

/**
 * The 1-based nearest rank of the q-quantile of n sorted values: the smallest k with k / n >= q (Hyndman and Fan 1996,
 * definition 1), between 1 and n. q n is computed in floating point, where (1 - 0.95) / 2 * 1000 comes out as
 * 25.000000000000025 and its ceiling as 26: a product within a relative 1e-9 of a whole number is taken as that
 * number, so the 2.5% point of 1,000 resamples is the 25th, as defined.
 */
export function nearestRank(q: number, n: number): number {
  const x = q * n;
  const whole = Math.round(x);
  const k = Math.abs(x - whole) <= 1e-9 * Math.max(1, Math.abs(x)) ? whole : Math.ceil(x);
  return Math.min(n, Math.max(1, k));
}

/** The nearest-rank quantiles at (1 - confidence)/2 and (1 + confidence)/2 of the statistics (sorted in place). */
function percentiles(statistics: Float64Array, confidence: number): Interval {
  statistics.sort();
  const n = statistics.length;
  return {
    low: statistics[nearestRank((1 - confidence) / 2, n) - 1] as number,
    high: statistics[nearestRank((1 + confidence) / 2, n) - 1] as number,
    confidence,
  };
}

/**
 * The percentile bootstrap interval of the mean of clustered values, resampling whole clusters (tasks) with
 * replacement: the bootstrap counterpart of the clustered standard error, for trials that are correlated within a
 * task. The mean of a resample is the mean over all values of the clusters drawn. `null` when there are no values.
 *
 * @param values the metric's value per trial, in its unit
 * @param clusters the task of each trial, parallel to `values`
 */
export function clusterBootstrapInterval(
  values: ArrayLike<number>,
  clusters: ArrayLike<string | number>,
  options: BootstrapOptions = {},
): Interval | null {
  const { confidence, resamples, seed } = bootstrapSettings('clusterBootstrapInterval', options);
  if (values.length === 0 && clusters.length === 0) return null;
  const { sums, counts } = clusterTotals('clusterBootstrapInterval', values, clusters);
  return percentiles(resampleMeans(sums, counts, resamples, seededRandom(seed)), confidence);
}
