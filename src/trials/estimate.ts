// pass@k and pass^k of one task's trials as a check: each trial's verdict comes from its criterion, the counts from
// the trials layer's tally, the estimate's verdict from its pass mark. The trial matchers only assert this check.

import { type Measured, verdictOf } from '../checks/measure.js';
import type { Check } from '../model/check.js';
import type { Workup } from '../model/workup.js';
import { tallyTrials } from './tally.js';

/** An estimator of a task's reliability from n decided trials, c of them passes, for k draws. */
export type TrialEstimator = (n: number, c: number, k: number) => number | null;

/** A trial's check, as far as counting needs it. */
export type TrialVerdict = Pick<Check, 'verdict'> & Partial<Pick<Check, 'value'>>;

/** The counts an estimate rests on: decided trials, passes, and trials whose criterion did not apply. */
export interface TrialCounts {
  n: number;
  c: number;
  notApplicable: number;
}

/**
 * `pass@k` (or `pass^k`) of a criterion over the trials of one task, at least `min`. Not applicable, saying why, when
 * fewer than k trials were decided. The counts are the trials layer's (`tallyTrials`), the same counts the reports
 * and the regression gate read.
 */
export function trialEstimateCheck(
  trials: ReadonlyArray<{ workup: Workup; verdict: TrialVerdict }>,
  criterion: string,
  metric: 'pass@k' | 'pass^k',
  estimate: TrialEstimator,
  k: number,
  min: number,
): { measured: Measured; counts: TrialCounts } {
  const [group] = tallyTrials(
    trials.map(({ workup, verdict }) => ({
      spec: 'trials',
      criterion,
      workup: workup.id,
      task: 'one task',
      metric,
      verdict: verdict.verdict,
      value: verdict.value ?? null,
    })),
  );
  const counts = { n: group?.trials ?? 0, c: group?.passes ?? 0, notApplicable: group?.notApplicable ?? 0 };
  const { n, c } = counts;
  const value = n >= k ? estimate(n, c, k) : null;
  const name = metric.replace('k', String(k));
  return {
    counts,
    measured: {
      criterion: metric === 'pass@k' ? 'pass-at-k' : 'pass-hat-k',
      metric: name,
      value,
      threshold: min,
      comparator: '>=',
      verdict: verdictOf(value, min),
      summary:
        value === null
          ? `${name} does not apply: k = ${k} is more than the n = ${n} decided trials`
          : `${name} of ${criterion} is ${Number(value.toFixed(4))} (n = ${n}, c = ${c}), at least ${min}`,
      evidence: { ...counts, k },
    },
  };
}
