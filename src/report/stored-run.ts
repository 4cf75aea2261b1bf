import type { TrendCheck, TrendRun } from '../history/types.js';
import type { Check } from '../model/check.js';
import type { CheckRecord } from './checks.js';

/**
 * A stored run's checks as the reports read a run's tests: each check under its spec and case (or workup), its
 * verdict and reason as recorded. What the store does not keep stays out: durations, errors' stacks, the spec file's
 * place and the workups themselves.
 */
export function storedRunChecks(run: TrendRun): CheckRecord[] {
  return run.checks.map((check) => {
    const suitePath = [
      check.spec,
      check.case === undefined ? check.workup : `${check.case} › ${check.workup}`,
    ];
    return {
      name: check.criterion,
      suitePath,
      fullName: [...suitePath, check.criterion].join(' > '),
      file: check.spec,
      state: check.state,
      durationMs: 0,
      errors: [],
      meta: storedMeta(check),
    };
  });
}

function storedMeta(check: TrendCheck): Check {
  return {
    schema: 1,
    spec: check.spec,
    specKind: check.spec === 'matcher' ? 'matcher' : check.case !== undefined ? 'cases' : 'needle',
    ...(check.case !== undefined && { case: check.case }),
    workup: check.workup,
    ...(check.task !== undefined && { task: check.task }),
    ...(check.trial !== undefined && { trial: check.trial }),
    criterion: check.criterion,
    metric: check.metric,
    value: check.value,
    ...(check.threshold !== undefined && { threshold: check.threshold }),
    ...(check.comparator !== undefined && { comparator: check.comparator }),
    ...(check.unit !== undefined && { unit: check.unit }),
    verdict: check.verdict,
    ...(check.reason !== undefined && { summary: check.reason }),
  };
}
