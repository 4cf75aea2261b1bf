import type { Trajectory } from '../../model/index.js';
import { marks, numberCalls } from './call-key.js';

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
  const { calls, size } = numberCalls([predicted, gold]);
  return precisionOfCalls(calls[0] as number[], calls[1] as number[], size);
}

/**
 * `step_recall`: the fraction of the gold tool calls (duplicates counted each time) whose call the prediction made at
 * least once. With no gold calls: 1, whatever was predicted (the seed's definition: nothing was required).
 */
export function stepRecall(predicted: Trajectory, gold: Trajectory): number {
  const { calls, size } = numberCalls([predicted, gold]);
  return recallOfCalls(calls[0] as number[], calls[1] as number[], size);
}

/** `step_f1`: the harmonic mean `2·p·r/(p + r)` of step precision and recall; 0 when both are 0. */
export function stepF1(predicted: Trajectory, gold: Trajectory): number {
  const { calls, size } = numberCalls([predicted, gold]);
  const pred = calls[0] as number[];
  const goldCalls = calls[1] as number[];
  return f1Of(precisionOfCalls(pred, goldCalls, size), recallOfCalls(pred, goldCalls, size));
}

/**
 * `step_precision` over call numbers from one `numberCalls` (`size` its number of calls); shared with the batch
 * report, which numbers each pair's calls once.
 */
export function precisionOfCalls(pred: readonly number[], gold: readonly number[], size: number): number {
  if (pred.length === 0) return gold.length === 0 ? 1.0 : 0.0;
  return fractionIn(pred, gold, size);
}

/** `step_recall` over call numbers from one `numberCalls`. */
export function recallOfCalls(pred: readonly number[], gold: readonly number[], size: number): number {
  if (gold.length === 0) return 1.0;
  return fractionIn(gold, pred, size);
}

/** The share of `items` (duplicates counted) that occur in `within`. */
function fractionIn(items: readonly number[], within: readonly number[], size: number): number {
  const present = marks(size);
  for (const id of within) present[id] = 1;
  let correct = 0;
  for (const id of items) correct += present[id] as number;
  return correct / items.length;
}

/** `step_f1`'s arithmetic, in Python's evaluation order: `2 * p * r / (p + r)`. */
export function f1Of(p: number, r: number): number {
  if (p + r === 0) return 0.0;
  return (2 * p * r) / (p + r);
}
