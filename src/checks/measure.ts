import type { Check } from '../model/check.js';
import type { Workup } from '../model/workup.js';
import { trialOf } from '../trials/identity.js';

/** What a criterion decides about a workup: a check without the fields that say whose it is. */
export type Measured = Omit<
  Check,
  'schema' | 'spec' | 'specKind' | 'specFile' | 'case' | 'workup' | 'workupPath' | 'task' | 'trial'
>;

/** The spec a check belongs to: a needle, a rubric, or `matcher` for a hand-written assertion. */
export interface SpecRef {
  id: string;
  kind: Check['specKind'];
  file?: string;
  /** The task case, for a check of a `*.cases.yaml` spec. */
  case?: string;
}

/** The spec of a hand-written `expect(workup).toX(...)`. */
export const MATCHER: SpecRef = { id: 'matcher', kind: 'matcher' };

/**
 * The verdict of a measured value: a value that could not be measured (`null`) is not applicable, a boolean passes
 * when true, a number passes when it meets its pass mark (or has none).
 */
export function verdictOf(
  value: number | boolean | null,
  threshold?: number,
  comparator: NonNullable<Check['comparator']> = '>=',
): Check['verdict'] {
  if (value === null) return 'not-applicable';
  if (typeof value === 'boolean') return value ? 'pass' : 'fail';
  if (threshold === undefined) return 'pass';
  const met =
    comparator === '>=' ? value >= threshold : comparator === '<=' ? value <= threshold : value === threshold;
  return met ? 'pass' : 'fail';
}

/** A measured criterion as the check of one spec on one workup. */
export function toCheck(spec: SpecRef, workup: Workup, measured: Measured): Check {
  return {
    schema: 1,
    spec: spec.id,
    specKind: spec.kind,
    ...(spec.file !== undefined && { specFile: spec.file }),
    ...(spec.case !== undefined && { case: spec.case }),
    workup: workup.id,
    ...(workup.meta.path !== undefined && { workupPath: workup.meta.path }),
    ...trialOf(workup),
    ...measured,
  };
}
