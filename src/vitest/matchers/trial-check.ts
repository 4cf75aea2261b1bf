import { grounded, surfaced, traversed } from '../../checks/needle.js';
import type { Check } from '../../model/check.js';
import type { NeedleSpec } from '../../model/spec.js';
import type { Workup } from '../../model/workup.js';
import type { TrialVerdict as CheckTrialVerdict } from '../../trials/estimate.js';
import { requireNeedle } from './helpers.js';

/** A trial's verdict on one criterion, and the value it rests on when there is one. */
export type TrialVerdict = CheckTrialVerdict & Partial<Pick<Check, 'criterion'>>;

/** Decides one criterion on one workup: the check a trial contributes to pass@k and pass^k. */
export type TrialCheckFunction = (workup: Workup) => TrialVerdict | boolean;

/** The needle criteria `toPassAtK` and `toPassHatK` decide by name. */
export type NeedleTrialCriterion = 'surfaced' | 'traversed' | 'grounded';

/**
 * What the trial matchers take as the criterion: a needle criterion by name (`{ needle, criterion: 'grounded' }`), or
 * any function of a workup that returns a verdict (or a boolean, `true` for pass).
 */
export type TrialCriterion = { needle: NeedleSpec; criterion: NeedleTrialCriterion } | TrialCheckFunction;

/**
 * The check of a needle criterion on a workup, decided by the verdict engine's criterion (src/checks/needle), the
 * same one the YAML tests and `needlework score` use.
 */
export function needleTrialCheck(needle: NeedleSpec, criterion: NeedleTrialCriterion): TrialCheckFunction {
  const decide =
    criterion === 'surfaced'
      ? (w: Workup) => surfaced(w, needle)
      : criterion === 'traversed'
        ? (w: Workup) => traversed(w, needle.required_path)
        : (w: Workup) => grounded(w, needle);
  return (workup) => {
    const measured = decide(workup);
    return {
      criterion,
      value: measured.value === null ? null : Number(measured.value),
      verdict: measured.verdict,
    };
  };
}

/** The criterion argument as a check function and a name for messages; misuse is a `TypeError` naming the matcher. */
export function requireTrialCriterion(
  matcher: string,
  value: unknown,
): { name: string; check: TrialCheckFunction } {
  if (typeof value === 'function')
    return { name: value.name || 'the criterion', check: value as TrialCheckFunction };
  const c = value as { needle?: unknown; criterion?: unknown } | null;
  if (
    c !== null &&
    typeof c === 'object' &&
    ['surfaced', 'traversed', 'grounded'].includes(String(c.criterion))
  ) {
    const needle = requireNeedle(matcher, c.needle);
    const criterion = c.criterion as NeedleTrialCriterion;
    return { name: `${needle.id} ${criterion}`, check: needleTrialCheck(needle, criterion) };
  }
  throw new TypeError(
    `${matcher}: expected the criterion as { needle, criterion: 'surfaced' | 'traversed' | 'grounded' } or a function of a workup returning its verdict, got ${JSON.stringify(value)}`,
  );
}
