import { needleScore, pivotBurden } from '../../checks/needle.js';
import { plural } from '../../io/plural.js';
import {
  type MatcherResult,
  type MatcherState,
  message,
  record,
  requireNeedle,
  requireNumber,
  requireWorkup,
} from './helpers.js';

/**
 * The run completed the needle's path within `max` queries (seed 001's pivot-burden proxy: ledger entries up to and
 * including the one that completed the path). Default `max`: the needle's `thresholds.pivot_burden`.
 */
export function toHavePivotBurdenAtMost(
  this: MatcherState,
  received: unknown,
  needle: unknown,
  max?: unknown,
): MatcherResult {
  const workup = requireWorkup('toHavePivotBurdenAtMost', received);
  const spec = requireNeedle('toHavePivotBurdenAtMost', needle);
  const limit = requireNumber(
    'toHavePivotBurdenAtMost',
    'max',
    max ?? spec.thresholds.pivot_burden ?? Number.POSITIVE_INFINITY,
    1,
    Number.POSITIVE_INFINITY,
  );
  const pass = record(this, workup, pivotBurden(workup, spec, limit));
  const burden = needleScore(workup, spec).pivotBurden;
  const queries = burden.value?.queries ?? null;
  return {
    pass,
    message: message(this, '.toHavePivotBurdenAtMost', 'needle, max', (negated) => {
      if (queries === null)
        return [
          `Expected the path to be completed within ${plural(limit, 'query', 'queries')}, but ${burden.reason}.`,
        ];
      if (negated)
        return [
          `Expected more than ${plural(limit, 'query', 'queries')}, but the path was completed after ${queries}.`,
        ];
      return [
        `Expected the path to be completed within ${plural(limit, 'query', 'queries')}, but it took ${queries} (completed by ${burden.value!.completedBy}).`,
      ];
    }),
    expected: limit,
    actual: queries,
  };
}
