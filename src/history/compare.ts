import { numericValue } from '../checks/format.js';
import type { TrendCheck, TrendRun } from './types.js';

/**
 * The default tolerance for a [0, 1] score: a fall of more than 0.02 (two percentage points) is a regression. Smaller
 * moves are within the noise of an LLM judge or a re-sampled run and would make the gate flaky.
 */
export const DEFAULT_TOLERANCE = 0.02;
/**
 * The default tolerance for a metric with a unit (queries, steps, ms, tokens, usd, a 1-5 score): a change for the
 * worse of more than 10% of the baseline value is a regression.
 */
export const DEFAULT_RELATIVE_TOLERANCE = 0.1;

export interface RegressionOptions {
  /**
   * How far a [0, 1] score may fall (absolute) before it is a regression.
   * @default 0.02
   */
  tolerance?: number;
  /**
   * How far a metric with a unit may worsen, as a fraction of its baseline value, before it is a regression.
   * @default 0.1
   */
  relativeTolerance?: number;
}

/** A check that got worse than its tolerance allows, or went from pass to fail. */
export interface Regression {
  spec: string;
  workup: string;
  criterion: string;
  metric: string;
  /** The unit of `before`, `after` and `change`; absent for a [0, 1] score. */
  unit?: string;
  before: number | boolean | null;
  after: number | boolean | null;
  /** `after - before`, in the metric's unit (booleans as 1/0); negative is a fall. */
  change: number;
  /** The largest worsening the tolerance allowed, in the metric's unit. */
  allowed: number;
  /** `worse`: the value moved the wrong way past its tolerance; `verdict`: pass became fail. */
  reason: 'worse' | 'verdict';
}

/** The key of a check across runs. */
export function checkKey(check: Pick<TrendCheck, 'spec' | 'workup' | 'criterion'>): string {
  return `${check.spec}\0${check.workup}\0${check.criterion}`;
}

/**
 * The checks of `current` that regressed against `baseline`. Direction comes from the comparator: `<=` metrics
 * (pivot burden, latency, cost) regress when they rise, all others when they fall. A check absent from either run is
 * not compared, nor one whose metric does not apply in either run.
 */
export function findRegressions(
  baseline: TrendRun,
  current: TrendRun,
  options: RegressionOptions = {},
): Regression[] {
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const relative = options.relativeTolerance ?? DEFAULT_RELATIVE_TOLERANCE;
  const before = new Map(baseline.checks.map((check) => [checkKey(check), check]));
  const regressions: Regression[] = [];
  for (const now of current.checks) {
    const was = before.get(checkKey(now));
    if (!was) continue;
    const a = numericValue(was.value);
    const b = numericValue(now.value);
    const lowerIsBetter = (now.comparator ?? was.comparator) === '<=';
    const allowed = now.unit ? Math.abs(a ?? 0) * relative : tolerance;
    const base = {
      spec: now.spec,
      workup: now.workup,
      criterion: now.criterion,
      metric: now.metric,
      ...(now.unit ? { unit: now.unit } : {}),
      before: was.value,
      after: now.value,
    };
    const change = a !== undefined && b !== undefined ? b - a : 0;
    const worsening = lowerIsBetter ? change : -change;
    // A tiny epsilon keeps a fall of exactly the tolerance (0.8 -> 0.78) from tripping on float rounding.
    if (a !== undefined && b !== undefined && worsening > allowed + 1e-9)
      regressions.push({ ...base, change, allowed, reason: 'worse' });
    else if (was.verdict === 'pass' && now.verdict === 'fail')
      regressions.push({ ...base, change, allowed, reason: 'verdict' });
  }
  return regressions;
}
