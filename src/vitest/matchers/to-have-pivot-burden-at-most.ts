import {
  type MatcherResult,
  type MatcherState,
  message,
  needleScore,
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
  const burden = needleScore(workup, spec).pivotBurden;
  const queries = burden.value?.queries ?? null;
  const pass = queries !== null && queries <= limit;
  record(this, workup, {
    criterion: 'pivot-burden',
    metric: 'pivot_burden',
    value: queries,
    ...(Number.isFinite(limit) && { threshold: limit }),
    comparator: '<=',
    unit: 'queries',
    met: pass,
    summary:
      queries === null
        ? `path never completed (${burden.reason})`
        : `path completed by ${burden.value!.completedBy} after ${queries} queries, ${burden.value!.hops} hops`,
    evidence: burden.value ? { ...burden.value } : { reason: burden.reason },
  });
  return {
    pass,
    message: message(this, '.toHavePivotBurdenAtMost', 'needle, max', (negated) => {
      if (queries === null)
        return [`Expected the path to be completed within ${limit} queries, but ${burden.reason}.`];
      if (negated)
        return [`Expected more than ${limit} queries, but the path was completed after ${queries}.`];
      return [
        `Expected the path to be completed within ${limit} queries, but it took ${queries} (completed by ${burden.value!.completedBy}).`,
      ];
    }),
    expected: limit,
    actual: queries,
  };
}
