import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  errorRecoveryRate,
  evaluateTrajectoryBatch,
  redundancyRate,
  stepF1,
  stepPrecision,
  stepRecall,
  toolDistribution,
  toolEfficiency,
  trajectorySimilarity,
} from '../../src/metrics/trajectory/index.js';
import type { Trajectory } from '../../src/model/index.js';
import { trajectory, trajectoryPair } from '../reference/arbitraries.js';
import { pythonUnavailable, runReference } from '../reference/python.js';

interface PyCase {
  step_precision: number;
  step_recall: number;
  step_f1: number;
  efficiency: number;
  redundancy: number;
  error_recovery: number;
  similarity: number;
  similarity_reversed: number;
  distribution: [string | null, number][];
}

interface PyBatch {
  n: number;
  pass_rate: number;
  avg_step_f1: number;
  avg_efficiency: number;
  avg_redundancy: number;
  avg_error_recovery: number;
  avg_tokens_per_task: number;
  avg_latency_ms: number;
  per_task: Record<string, unknown>[];
}

interface PyOutput {
  python: [number, number];
  cases: PyCase[];
  distribution: [string | null, number][];
  batch: PyBatch | null;
}

function ours(pred: Trajectory, gold: Trajectory): PyCase {
  return {
    step_precision: stepPrecision(pred, gold),
    step_recall: stepRecall(pred, gold),
    step_f1: stepF1(pred, gold),
    efficiency: toolEfficiency(pred, gold),
    redundancy: redundancyRate(pred),
    error_recovery: errorRecoveryRate(pred),
    similarity: trajectorySimilarity(pred, gold),
    similarity_reversed: trajectorySimilarity(gold, pred),
    distribution: [...toolDistribution([pred, gold])],
  };
}

describe('parity with the seed 002 reference functions (live python3)', () => {
  it('gives every metric of test/reference/seed002.py on 2,000 generated trajectory pairs', (ctx) => {
    if (pythonUnavailable) return ctx.skip(pythonUnavailable);
    const pairs = fc.sample(trajectoryPair, { numRuns: 2000, seed: 2026 });
    // long tool-call sequences, so trajectorySimilarity meets difflib's autojunk heuristic (200+ calls)
    const long = fc.sample(fc.tuple(trajectory(1000, 900), trajectory(1000, 900)), { numRuns: 10, seed: 5 });
    const all = [...pairs, ...long];
    expect(all.some(([, g]) => g.steps.filter((s) => s.step_type === 'tool_call').length >= 200)).toBe(true);
    const py = runReference<PyOutput>('seed002.py', { cases: all.map(([pred, gold]) => ({ pred, gold })) });

    all.forEach(([pred, gold], i) => {
      expect(ours(pred, gold), `case ${i}`).toEqual(py.cases[i]);
    });
    expect([...toolDistribution([...all.map(([p]) => p), ...all.map(([, g]) => g)])]).toEqual(
      py.distribution,
    );

    const batch = evaluateTrajectoryBatch(
      all.map(([p]) => p),
      all.map(([, g]) => g),
    );
    const ref = py.batch as PyBatch;
    expect(batch.n).toBe(ref.n);
    expect(batch.perTask).toEqual(
      ref.per_task.map((r) => ({
        taskId: r.task_id,
        succeeded: r.succeeded,
        stepPrecision: r.step_precision,
        stepRecall: r.step_recall,
        stepF1: r.step_f1,
        efficiency: r.efficiency,
        redundancy: r.redundancy,
        errorRecovery: r.error_recovery,
        totalTokens: r.total_tokens,
        totalLatencyMs: r.total_latency_ms,
      })),
    );
    const averages = {
      passRate: ref.pass_rate,
      avgStepF1: ref.avg_step_f1,
      avgEfficiency: ref.avg_efficiency,
      avgRedundancy: ref.avg_redundancy,
      avgErrorRecovery: ref.avg_error_recovery,
      avgTokensPerTask: ref.avg_tokens_per_task,
      avgLatencyMs: ref.avg_latency_ms,
    };
    const [major, minor] = py.python;
    for (const [key, value] of Object.entries(averages)) {
      const mine = batch[key as keyof typeof averages] as number;
      // CPython 3.12+ compensates rounding in sum() of floats; up to 3.11 it adds left to right, as we do.
      if (major === 3 && minor < 12) expect(mine, key).toBe(value);
      else expect(mine, key).toBeCloseTo(value, 9);
    }
  });
});
