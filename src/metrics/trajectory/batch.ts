import { UserError } from '../../errors/index.js';
import type { Trajectory } from '../../model/index.js';
import { pairScores } from './pair.js';

/** One task's row of the batch report (seed 002's `results` entry, keys in camelCase). */
export interface TrajectoryTaskReport {
  /** The predicted trajectory's `task_id`. */
  taskId: string;
  /** The predicted trajectory's `succeeded`. */
  succeeded: boolean;
  stepPrecision: number;
  stepRecall: number;
  stepF1: number;
  /** `toolEfficiency` against the gold. */
  efficiency: number;
  /** `redundancyRate` of the prediction. */
  redundancy: number;
  /** `errorRecoveryRate` of the prediction. */
  errorRecovery: number;
  /** The prediction's `total_tokens`, in tokens. */
  totalTokens: number;
  /** The prediction's `total_latency_ms`, in milliseconds. */
  totalLatencyMs: number;
}

/**
 * Seed 002's `evaluate_trajectory_batch` report, keys in camelCase. Each average is the plain mean over the tasks;
 * with no tasks (`n` 0) every average is `null`: the seed divides by zero there, and an average of nothing is not
 * applicable rather than 0 or `NaN`.
 */
export interface TrajectoryBatchReport {
  /** Number of tasks. */
  n: number;
  /** Fraction of predictions with `succeeded` true. */
  passRate: number | null;
  avgStepF1: number | null;
  avgEfficiency: number | null;
  avgRedundancy: number | null;
  avgErrorRecovery: number | null;
  /** Mean `total_tokens`, in tokens. */
  avgTokensPerTask: number | null;
  /** Mean `total_latency_ms`, in milliseconds. */
  avgLatencyMs: number | null;
  /** One row per task, in input order. */
  perTask: TrajectoryTaskReport[];
}

/**
 * `evaluate_trajectory_batch` of seed 002: scores each predicted trajectory against the gold at the same index and
 * averages. Predictions and golds are paired by position (as the seed's `zip`), not by `task_id`. Lists of different
 * lengths are a `UserError` (the seed asserts). Each pair's calls are keyed once and shared by the step and
 * redundancy metrics; the values are those of the single-metric functions.
 *
 * Averages are sums taken left to right, then divided by n, as CPython up to 3.11 computes `sum(...) / n`. CPython
 * 3.12 and later compensate rounding inside `sum()` of floats (Neumaier), so a newer Python can differ from these
 * averages in the last bits; every per-task value is unaffected.
 */
export function evaluateTrajectoryBatch(
  predicted: readonly Trajectory[],
  gold: readonly Trajectory[],
): TrajectoryBatchReport {
  if (predicted.length !== gold.length) {
    throw new UserError({
      file: 'evaluateTrajectoryBatch',
      message: `expected as many gold trajectories as predicted ones, got ${predicted.length} predicted and ${gold.length} gold`,
    });
  }
  const perTask: TrajectoryTaskReport[] = [];
  for (let i = 0; i < predicted.length; i++) {
    const pred = predicted[i] as Trajectory;
    const scores = pairScores(pred, gold[i] as Trajectory);
    perTask.push({
      taskId: pred.task_id,
      succeeded: pred.succeeded,
      stepPrecision: scores.stepPrecision,
      stepRecall: scores.stepRecall,
      stepF1: scores.stepF1,
      efficiency: scores.toolEfficiency,
      redundancy: scores.redundancyRate,
      errorRecovery: scores.errorRecoveryRate,
      totalTokens: pred.total_tokens,
      totalLatencyMs: pred.total_latency_ms,
    });
  }
  const n = perTask.length;
  const mean = (pick: (row: TrajectoryTaskReport) => number): number | null => {
    if (n === 0) return null;
    let sum = 0;
    for (const row of perTask) sum += pick(row);
    return sum / n;
  };
  return {
    n,
    passRate: mean((row) => (row.succeeded ? 1 : 0)),
    avgStepF1: mean((row) => row.stepF1),
    avgEfficiency: mean((row) => row.efficiency),
    avgRedundancy: mean((row) => row.redundancy),
    avgErrorRecovery: mean((row) => row.errorRecovery),
    avgTokensPerTask: mean((row) => row.totalTokens),
    avgLatencyMs: mean((row) => row.totalLatencyMs),
    perTask,
  };
}
