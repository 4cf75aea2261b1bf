import type { Trajectory } from '../../model/index.js';
import { callKeys } from './call-key.js';

/**
 * Step correctness against a gold trajectory, after seed 002 ("Trajectory-Level Evaluation", functions
 * `step_precision`, `step_recall`, `step_f1`). A call is its tool name plus its arguments as Python's
 * `json.dumps(tool_input, sort_keys=True)` text (see `callKey`), so `{"a": 1, "b": 2}` and `{"b": 2, "a": 1}` are the
 * same call and the results equal the seed's Python on the same trajectories.
 */

/**
 * `step_precision`: the fraction of the predicted tool calls (duplicates counted each time) whose call occurs
 * anywhere in the gold trajectory. With no predicted calls: 1 when the gold has none either, else 0.
 */
export function stepPrecision(predicted: Trajectory, gold: Trajectory): number {
  return precisionOfKeys(callKeys(predicted), callKeys(gold));
}

/**
 * `step_recall`: the fraction of the gold tool calls (duplicates counted each time) whose call the prediction made at
 * least once. With no gold calls: 1, whatever was predicted (the seed's definition: nothing was required).
 */
export function stepRecall(predicted: Trajectory, gold: Trajectory): number {
  return recallOfKeys(callKeys(predicted), callKeys(gold));
}

/** `step_f1`: the harmonic mean `2·p·r/(p + r)` of step precision and recall; 0 when both are 0. */
export function stepF1(predicted: Trajectory, gold: Trajectory): number {
  const pred = callKeys(predicted);
  const goldKeys = callKeys(gold);
  return f1Of(precisionOfKeys(pred, goldKeys), recallOfKeys(pred, goldKeys));
}

/** `step_precision` over precomputed call keys (shared with the batch report, which keys each trajectory once). */
export function precisionOfKeys(pred: readonly string[], gold: readonly string[]): number {
  if (pred.length === 0) return gold.length === 0 ? 1.0 : 0.0;
  const goldSet = new Set(gold);
  let correct = 0;
  for (const key of pred) if (goldSet.has(key)) correct++;
  return correct / pred.length;
}

/** `step_recall` over precomputed call keys. */
export function recallOfKeys(pred: readonly string[], gold: readonly string[]): number {
  if (gold.length === 0) return 1.0;
  const predSet = new Set(pred);
  let correct = 0;
  for (const key of gold) if (predSet.has(key)) correct++;
  return correct / gold.length;
}

/** `step_f1`'s arithmetic, in Python's evaluation order: `2 * p * r / (p + r)`. */
export function f1Of(p: number, r: number): number {
  if (p + r === 0) return 0.0;
  return (2 * p * r) / (p + r);
}
