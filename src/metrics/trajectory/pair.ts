import type { Trajectory } from '../../model/index.js';
import { numberCalls } from './call-key.js';
import { efficiencyOfCounts, redundancyOfCalls } from './efficiency.js';
import { errorRecoveryRate } from './error-recovery.js';
import { f1Of, precisionOfCalls, recallOfCalls } from './step-correctness.js';

/** The seed 002 metrics of one predicted trajectory against its gold that look at calls (all but similarity). */
export interface PairScores {
  stepPrecision: number;
  stepRecall: number;
  stepF1: number;
  /** `toolEfficiency` against the gold. */
  toolEfficiency: number;
  /** `redundancyRate` of the prediction. */
  redundancyRate: number;
  /** `errorRecoveryRate` of the prediction. */
  errorRecoveryRate: number;
}

/**
 * `stepPrecision`, `stepRecall`, `stepF1`, `toolEfficiency`, `redundancyRate` and `errorRecoveryRate` of one pair,
 * with the values of the single-metric functions, but the pair's calls numbered once for all of them (numbering is
 * most of what each of those functions costs).
 */
export function pairScores(predicted: Trajectory, gold: Trajectory): PairScores {
  const { calls, size } = numberCalls([predicted, gold]);
  const pred = calls[0] as number[];
  const goldCalls = calls[1] as number[];
  const p = precisionOfCalls(pred, goldCalls, size);
  const r = recallOfCalls(pred, goldCalls, size);
  return {
    stepPrecision: p,
    stepRecall: r,
    stepF1: f1Of(p, r),
    toolEfficiency: efficiencyOfCounts(pred.length, goldCalls.length),
    redundancyRate: redundancyOfCalls(pred, size),
    errorRecoveryRate: errorRecoveryRate(predicted),
  };
}
